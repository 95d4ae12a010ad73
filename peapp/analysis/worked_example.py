"""The article's first calculation, live: word embedding + positional vector = model input.

A word gets a *semantic* embedding that depends on the word alone (the same word gives the
same vector at every position), a positional vector for the chosen position, and the input
the first layer sees:

* sinusoidal and learned absolute encodings are **added** element-wise: input = emb + PE(pos);
* RoPE adds nothing: it **rotates** each pair of dimensions by pos·θ_i, so the length of the
  vector is kept and only its direction changes (in a real model this happens to q and k
  inside attention; here the embedding stands in for them);
* ALiBi and NoPE leave the embedding untouched: position enters as an attention bias (ALiBi)
  or not at all (NoPE).

The article's case: d_model 4, position 0, the sinusoid gives [0, 1, 0, 1]; with its
"DataCamp" embedding [0.51, −0.22, 0.88, 0.14] the input is [0.51, 0.78, 0.88, 1.14].

Semantic embeddings are seeded from a BLAKE2b digest of the word (Python's ``hash()`` is
salted per process, so it would give a different vector on every run).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from peapp.encodings import rope, sinusoidal
from peapp.encodings import learned
from peapp.encodings.learned import LearnedTable
from peapp.errors import ParameterError, PositionOutOfRangeError
from peapp.i18n import msg, shown, translate
from peapp.jobs import ProgressFn, Request


SCHEMES = ("sinusoidal", "learned", "rope", "none")
SCHEME_LABELS = {  # marked: shown with peapp.i18n.shown
    "sinusoidal": msg("Example", "Sinusoidal (added)"),
    "learned": msg("Example", "Learned absolute (added)"),
    "rope": msg("Example", "RoPE (rotated)"),
    "none": msg("Example", "ALiBi / NoPE (unchanged)"),
}

#: The article's worked example: the word, its 4-dimensional embedding, and its position.
ARTICLE_WORD = "DataCamp"
ARTICLE_EMBEDDING = (0.51, -0.22, 0.88, 0.14)
ARTICLE_POSITION = 0
#: The article then moves the same word to position 5.
ARTICLE_OTHER_POSITION = 5

EMBEDDING_SOURCES = ("hashed", "article")
MAX_D_MODEL = 512
MAX_WORD_CHARS = 100
# Scale of the hashed embedding: values of the same order as the article's vector.
EMBEDDING_STD = 0.5


def semantic_embedding(word: str, d_model: int, seed: int = 0) -> np.ndarray:
    """A deterministic stand-in for a trained word embedding: N(0, 0.5²) values seeded by the word.

    The same (word, d_model, seed) gives the same vector in every process and on every machine.
    """
    word = _clean_word(word)
    if d_model < 1:
        raise ParameterError(f"d_model must be at least 1; got {d_model}")
    digest = hashlib.blake2b(word.encode("utf-8"), digest_size=16,
                             salt=int(seed).to_bytes(16, "little", signed=False)[:16]).digest()
    rng = np.random.default_rng(int.from_bytes(digest, "little"))
    return rng.normal(0.0, EMBEDDING_STD, size=int(d_model))


def _clean_word(word: str) -> str:
    word = (word or "").strip()
    if not word:
        raise ParameterError("type a word to embed (the article uses \"DataCamp\")")
    if len(word) > MAX_WORD_CHARS:
        raise ParameterError(f"the word is {len(word)} characters long; use at most {MAX_WORD_CHARS}")
    return word


@dataclass(frozen=True)
class WorkedExample:
    """Everything the example dock shows, as plain numbers."""

    word: str
    scheme: str
    position: int
    embedding: np.ndarray  # [d] semantic embedding (position-free)
    positional: np.ndarray  # [d] PE(pos) for additive schemes; the rotation angle per dim for RoPE; zeros for none
    combined: np.ndarray  # [d] what the first layer sees
    other_position: int
    other_combined: np.ndarray  # [d] the same word at other_position
    angles: np.ndarray | None  # RoPE: angle per pair (radians, not wrapped); None otherwise
    pairs: tuple[tuple[int, int], ...]  # RoPE: the dimension indices of each rotated pair
    caption: str

    @property
    def embedding_norm(self) -> float:
        return float(np.linalg.norm(self.embedding))

    @property
    def combined_norm(self) -> float:
        return float(np.linalg.norm(self.combined))

    @property
    def other_difference(self) -> float:
        """Euclidean distance between the input at ``position`` and at ``other_position``."""
        return float(np.linalg.norm(self.combined - self.other_combined))


def positional_vector(scheme: str, position: int, d_model: int, *, base: float = 10000.0,
                      layout: str = "interleaved", max_positions: int = 2048, seed: int = 0) -> np.ndarray:
    """The vector an additive scheme adds at ``position`` (float64 [d_model]).

    Learned tables are a seeded random init (std 0.02, as GPT-2/BERT); a position past the
    table raises :class:`PositionOutOfRangeError`, exactly as a model would fail.
    """
    import torch
    pos = torch.tensor([int(position)])
    if scheme == "sinusoidal":
        if d_model % 2:
            raise ParameterError(f"sinusoidal encodings pair sin with cos: d_model must be even; got {d_model}")
        return sinusoidal.rows(pos, d_model, base, layout)[0].to(torch.float64).numpy()
    if scheme == "learned":
        return _learned_table(int(max_positions), int(d_model), int(seed)).lookup(pos)[0].to(torch.float64).numpy()
    if scheme == "none":
        return np.zeros(d_model)
    raise ParameterError(f"{scheme!r} does not add a vector; choose one of sinusoidal, learned, none")


def _learned_table(max_positions: int, d_model: int, seed: int) -> LearnedTable:
    # The heatmap's learned family keeps one table in memory; sharing it means the same seed
    # gives the same numbers here and there, and a large table is never held twice.
    return learned.table_for(learned.LearnedSpec(n_positions=1, max_positions=max_positions,
                                                 d_model=d_model, seed=seed))


def rotate(embedding: np.ndarray, position: int, *, base: float = 10000.0,
           layout: str = "interleaved") -> tuple[np.ndarray, np.ndarray, tuple[tuple[int, int], ...]]:
    """RoPE applied to a vector: (rotated [d], angle per pair [d/2], the pairs' dimension indices)."""
    import torch
    d = len(embedding)
    if d % 2:
        raise ParameterError(f"RoPE rotates pairs of dimensions: d_model must be even; got {d}")
    inv = rope.default_inv_freq(d, base).to(torch.float64)
    x = torch.as_tensor(np.asarray(embedding, dtype=np.float64)).reshape(1, d)
    rotated = rope.apply(x, torch.tensor([int(position)]), inv, layout=layout)[0].numpy()
    angles = (int(position) * inv).numpy()
    half = d // 2
    pairs = tuple((2 * i, 2 * i + 1) for i in range(half)) if layout == "interleaved" else \
        tuple((i, i + half) for i in range(half))
    return rotated, angles, pairs


def compute(word: str = ARTICLE_WORD, *, scheme: str = "sinusoidal", position: int = ARTICLE_POSITION,
            d_model: int = 4, embedding_source: str = "article", base: float = 10000.0,
            layout: str = "interleaved", rope_layout: str = "interleaved", max_positions: int = 2048,
            seed: int = 0,
            other_position: int = ARTICLE_OTHER_POSITION) -> WorkedExample:
    """The worked example for one word, scheme and position (and the same word at ``other_position``)."""
    if scheme not in SCHEMES:
        raise ParameterError(f"scheme must be one of {', '.join(SCHEMES)}; got {scheme!r}")
    if not 1 <= d_model <= MAX_D_MODEL:
        raise ParameterError(f"d_model must be between 1 and {MAX_D_MODEL} for the worked example; got {d_model}")
    if position < 0 or other_position < 0:
        raise ParameterError("positions start at 0; choose a position ≥ 0")
    if not 0 <= seed < 2**63:
        raise ParameterError(f"seed must be a whole number from 0 to 2^63 − 1; got {seed}")
    word = _clean_word(word)
    if embedding_source == "article":
        if d_model != len(ARTICLE_EMBEDDING):
            raise ParameterError(f"the article's \"{ARTICLE_WORD}\" vector has {len(ARTICLE_EMBEDDING)} "
                                 f"dimensions; set d_model to {len(ARTICLE_EMBEDDING)} or use a hashed embedding")
        embedding = np.array(ARTICLE_EMBEDDING, dtype=np.float64)
    elif embedding_source == "hashed":
        embedding = semantic_embedding(word, d_model, seed)
    else:
        raise ParameterError(f"embedding source must be one of {', '.join(EMBEDDING_SOURCES)}; "
                             f"got {embedding_source!r}")

    angles = None
    pairs: tuple[tuple[int, int], ...] = ()
    if scheme == "rope":
        combined, angles, pairs = rotate(embedding, position, base=base, layout=rope_layout)
        other, _, _ = rotate(embedding, other_position, base=base, layout=rope_layout)
        positional = np.zeros(d_model)
        for k, (a, b) in enumerate(pairs):
            positional[a] = positional[b] = angles[k]
    else:
        positional = positional_vector(scheme, position, d_model, base=base, layout=layout,
                                       max_positions=max_positions, seed=seed)
        combined = embedding + positional
        try:
            other = embedding + positional_vector(scheme, other_position, d_model, base=base, layout=layout,
                                                  max_positions=max_positions, seed=seed)
        except PositionOutOfRangeError as exc:
            raise PositionOutOfRangeError(f"comparison position: {exc}") from None
    result = WorkedExample(word=word, scheme=scheme, position=int(position), embedding=embedding,
                           positional=positional, combined=combined, other_position=int(other_position),
                           other_combined=other, angles=angles, pairs=pairs, caption="")
    return _with_caption(result, base=base, layout=rope_layout if scheme == "rope" else layout)


def _vec(v: np.ndarray, limit: int = 6) -> str:
    body = ", ".join(f"{x:.2f}" for x in v[:limit])
    return f"[{body}{', …' if len(v) > limit else ''}]"


#: the pair layouts' names in captions (the forms' words for them)
_LAYOUT_NAMES = {"interleaved": msg("Params", "interleaved"), "concatenated": msg("Params", "concatenated"),
                 "half": msg("Params", "half")}


def _with_caption(r: WorkedExample, *, base: float, layout: str) -> WorkedExample:
    d = len(r.embedding)
    moved = "" if r.other_position == r.position else translate(
        "Example", " The same word at position {other} gives {vector} (distance {distance:.3f} from position "
        "{position}).").format(other=r.other_position, vector=_vec(r.other_combined), distance=r.other_difference,
                               position=r.position)
    layout_name = shown(_LAYOUT_NAMES.get(layout, layout))
    if r.scheme == "rope":
        fastest = float(r.angles[0]) if r.angles is not None and len(r.angles) else 0.0
        text = translate(
            "Example", "\"{word}\" at position {position}, RoPE ({layout} pairs, base {base:g}): nothing is added; "
            "each pair of dimensions is rotated by position·θ_i (fastest pair {fastest:.1f}°). Length kept: "
            "|embedding| = {norm:.4f}, |rotated| = {rotated:.4f}. Result {vector}.{moved}").format(
            word=r.word, position=r.position, layout=layout_name, base=base, fastest=math.degrees(fastest),
            norm=r.embedding_norm, rotated=r.combined_norm, vector=_vec(r.combined), moved=moved)
    elif r.scheme == "none":
        text = translate(
            "Example", "\"{word}\" at position {position} with ALiBi or NoPE: the embedding enters unchanged "
            "{vector}; position acts later, as an attention bias (ALiBi) or only through the causal mask (NoPE). "
            "The word looks identical at every position.").format(word=r.word, position=r.position,
                                                                   vector=_vec(r.combined))
    else:
        what = (translate("Example", "sinusoid ({layout}, base {base:g})").format(layout=layout_name, base=base)
                if r.scheme == "sinusoidal" else translate("Example", "learned table row (seeded random init)"))
        text = translate(
            "Example", "\"{word}\" at position {position}, d_model {d}: embedding {embedding} + {what} {positional} = "
            "input {combined}; the sum changes both length (|emb| {norm:.3f} → {combined_norm:.3f}) and "
            "direction.{moved}").format(word=r.word, position=r.position, d=d, embedding=_vec(r.embedding),
                                        what=what, positional=_vec(r.positional), combined=_vec(r.combined),
                                        norm=r.embedding_norm, combined_norm=r.combined_norm, moved=moved)
    return WorkedExample(**{**r.__dict__, "caption": text})


@dataclass(frozen=True)
class WorkedExampleRequest(Request):
    """Request for the example dock (cheap: one vector, computed on the worker like every view)."""

    channel: ClassVar[str] = "example"
    word: str = ARTICLE_WORD
    scheme: str = "sinusoidal"
    position: int = ARTICLE_POSITION
    d_model: int = 4
    embedding_source: str = "article"
    base: float = 10000.0
    layout: str = "interleaved"
    rope_layout: str = "interleaved"
    max_positions: int = 2048
    seed: int = 0
    other_position: int = ARTICLE_OTHER_POSITION

    def compute(self, progress: ProgressFn) -> WorkedExample:
        return compute(self.word, scheme=self.scheme, position=self.position, d_model=self.d_model,
                       embedding_source=self.embedding_source, base=self.base, layout=self.layout,
                       rope_layout=self.rope_layout, max_positions=self.max_positions, seed=self.seed, other_position=self.other_position)
