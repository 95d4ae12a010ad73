"""What each positional scheme does to attention: logits, position term, softmax — at any length.

A small, seeded single-layer attention is built from an :class:`AttentionSpec`:

* tokens: ``seq_len`` vectors of width ``d = head_dim`` — one repeated token (only position can
  matter), seeded random tokens, or a typed sentence whose words are embedded deterministically
  (each word's vector is seeded by a hash of the word, so the same word always gets the same
  vector);
* per head seeded projections W_q, W_k, W_v of shape [d, head_dim] (std 1/√d, so q and k have
  unit-variance components);
* a scheme: ``nope``; ``sinusoidal`` / ``learned`` added to the token vectors before projection;
  ``rope`` rotating q and k (``peapp.encodings.rope``, frequencies from ``RopeSpec.inv_freq`` so
  every scaling variant applies); ``alibi`` (``peapp.encodings.alibi``); ``t5`` bucket bias
  (``peapp.encodings.relative``, seeded bucket table); ``shaw`` relative keys
  (logit += q_i · a_clip(j−i), seeded vectors a).

Logits are q·k/√head_dim (+ bias) for every scheme (T5 folds the 1/√d into its weights; here it
is kept so schemes are comparable).  The *position term* is the part of the logits that
position contributes: the bias for ALiBi / T5, the relative-key term for Shaw, and for RoPE and
the additive schemes the logits minus the same tokens' logits without position.

Views never hold an L × L matrix.  Rows are processed in stripes (a few query rows against all
keys, so each row's softmax is exact), and each stripe is pooled (mean or max) into at most
``max_bins`` × ``max_bins`` cells of the requested region.  Where even that would touch more
than ``entry_budget`` logits, each row bin uses evenly spaced sample rows (still exact over all
keys) and the view says so.  Memory is estimated and checked before anything large is
allocated; ``progress`` is called between stripes and may raise :class:`peapp.jobs.Cancelled`.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

import numpy as np
import torch

from peapp.errors import ParameterError
from peapp.jobs import Request, frozen_params
from peapp.memory import ensure_fits
from peapp.params import Spec, param

ProgressFn = Callable[[float], None]

SCHEMES = ("nope", "sinusoidal", "learned", "rope", "alibi", "t5", "shaw")
SCHEME_LABELS = {
    "nope": "NoPE (no position)",
    "sinusoidal": "Sinusoidal, added to inputs",
    "learned": "Learned absolute, added to inputs",
    "rope": "RoPE (rotates q and k)",
    "alibi": "ALiBi (linear bias)",
    "t5": "T5 bucket bias",
    "shaw": "Shaw relative keys",
}
TOKEN_SOURCES = ("repeated", "random", "sentence")
KINDS = ("logits", "position", "softmax")
POOLINGS = ("mean", "max")
MAX_SEQ_LEN = 131_072

# Logits evaluated for one view before row bins switch from every row to sample rows.
ENTRY_BUDGET = 200_000_000
# Fewest row bins a pooled view may fall back to when the budget is tight.
MIN_ROW_BINS = 128
# Logits per stripe (H × rows × keys): bounded working memory, and a cancellation point.  4 MB
# stripes stay in cache across the several passes (softmax, entropy, profile, pooling) over them:
# measured ~15 % faster than 16 MB stripes for 4,096 tokens × 8 heads.
STRIPE_ENTRIES = 1 << 20
# Long rows: stripes grow to MIN_STRIPE_ROWS rows (up to LONG_STRIPE_ENTRIES), because a stripe of
# one or two rows reads every key for little work (measured: 64k tokens pooled ~30 % slower).
MIN_STRIPE_ROWS = 16
LONG_STRIPE_ENTRIES = 1 << 23
# Logits per block of the streaming log-sum-exp of a zoom's rows (rows × key block × heads).
LSE_BLOCK_ENTRIES = 1 << 21
# Working tensors of stripe size alive at once (logits, probabilities, mask, bias, region copies).
_STRIPE_TENSORS = 7
# The shuffle test computes full outputs (O(L²)); beyond this it uses the first tokens only.
SHUFFLE_MAX_TOKENS = 4096
_EQUIVARIANCE_TOL = 1e-6
_MASKED = -1e30  # finite "minus infinity" for masked logits: exp gives 0 and 0·_MASKED stays 0
DEFAULT_SENTENCE = "the cat sat on the mat because the mat was warm"


@dataclass(frozen=True)
class AttentionSpec(Spec):
    """The attention sandbox: scheme, sizes, where the tokens come from, mask."""

    family: ClassVar[str] = "attention"
    scheme: str = param("rope", "Scheme", choices=SCHEMES,
                        help="How position enters attention. Scheme settings (RoPE base and scaling, "
                             "T5 buckets, Shaw clip, sinusoid base, learned table size) come from the "
                             "parameters of that family.")
    seq_len: int = param(64, "Tokens", minimum=1, maximum=MAX_SEQ_LEN, step=1,
                         help="Sequence length (queries = keys). Long sequences are shown pooled; "
                              "zoom in for full resolution.")
    n_heads: int = param(4, "Heads", minimum=1, maximum=64, step=1, help="Attention heads.")
    head_dim: int = param(64, "head_dim", minimum=2, maximum=512, step=2, even=True,
                          help="Width of q, k and v per head (also the token width here).")
    seed: int = param(0, "Seed", minimum=0, maximum=2**31 - 1, step=1,
                      help="Seeds the projections, random tokens, T5 table and Shaw vectors.")
    tokens: str = param("random", "Tokens from", choices=TOKEN_SOURCES,
                        help="repeated: one token everywhere, so only position matters; random: seeded "
                             "random tokens; sentence: the typed words, repeated to fill the length.")
    sentence: str = param(DEFAULT_SENTENCE, "Sentence",
                          help="Words embedded deterministically (a hash of each word seeds its vector).")
    causal: bool = param(True, "Causal mask", help="Mask future keys (decoder); off: every token sees all.")
    t5_source: str = param("", "Trained T5 table",
                           help="PATH::TENSOR of a checkpoint's T5 relative bias table [buckets, heads]; empty: a "
                                "seeded random table.")
    embedding_source: str = param("", "Word embeddings",
                                  help="PATH::TENSOR of a checkpoint's word-embedding table; sentence words found "
                                       "whole in its vocabulary use it, others the hashed vector. Empty: hashed only.")

    def check(self) -> None:
        if self.tokens == "sentence" and not sentence_words(self.sentence):
            raise ParameterError("the sentence has no words; type at least one word, or choose random tokens.")


def sentence_words(text: str) -> list[str]:
    """Words and punctuation marks, lower-cased: the tokens of a typed sentence."""
    return re.findall(r"[\w']+|[^\w\s]", text.lower())


def word_vector(word: str, dim: int) -> torch.Tensor:
    """A deterministic unit-variance vector for a word: its SHA-256 seeds the generator."""
    seed = int.from_bytes(hashlib.sha256(word.encode("utf-8")).digest()[:8], "little") & (2**63 - 1)
    return torch.randn(dim, generator=torch.Generator().manual_seed(seed))


# ---- scheme parameters from the encoding families -------------------------------------------

_SCHEME_FAMILY = {"sinusoidal": "sinusoidal", "learned": "learned", "rope": "rope", "t5": "t5", "shaw": "shaw"}


def scheme_params_from_document(document: Any, scheme: str) -> tuple[tuple[str, Any], ...]:
    """The chosen scheme's family parameters from a Document, frozen for a request."""
    family = _SCHEME_FAMILY.get(scheme)
    if family is None:
        return ()
    # lists (LongRoPE factors read back from JSON) become tuples, so requests stay hashable
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in document.params.get(family, {}).items()}
    return frozen_params(values)


def scheme_spec(spec: AttentionSpec, scheme_params: tuple = ()) -> Spec | None:
    """The family spec that configures the scheme, sized to this attention (validated).

    Raises ParameterError when the family's settings do not fit, e.g. a learned table shorter
    than the sequence, with the family's own message.
    """
    values = dict(scheme_params)
    if spec.scheme == "sinusoidal":
        from peapp.encodings.sinusoidal import SinusoidalSpec
        return SinusoidalSpec.from_dict(values).replace(n_positions=min(spec.seq_len, 1_048_576),
                                                         d_model=spec.head_dim)
    if spec.scheme == "learned":
        from peapp.encodings.learned import LearnedSpec
        base = LearnedSpec.from_dict(values)
        return base.replace(d_model=spec.head_dim, n_positions=spec.seq_len)
    if spec.scheme == "rope":
        from peapp.encodings.rope import RopeSpec
        return RopeSpec.from_dict(values).replace(head_dim=spec.head_dim, n_positions=spec.seq_len)
    if spec.scheme == "t5":
        from peapp.encodings.relative import T5Spec
        return T5Spec.from_dict(values).replace(bidirectional=not spec.causal, n_heads=spec.n_heads, head=0,
                                                n_positions=min(spec.seq_len, 131_072), seed=spec.seed)
    if spec.scheme == "shaw":
        from peapp.encodings.relative import ShawSpec
        return ShawSpec.from_dict(values).replace(n_positions=min(spec.seq_len, 131_072))
    return None


# ---- the seeded model ---------------------------------------------------------------------

class AttentionModel:
    """Token vectors, projections and cached keys for one (spec, scheme parameters)."""

    def __init__(self, spec: AttentionSpec, scheme_params: tuple = (), *, dtype=torch.float32,
                 permutation: torch.Tensor | None = None, n_tokens: int | None = None,
                 with_values: bool = False):
        self.spec = spec
        self.family_spec = scheme_spec(spec, scheme_params)
        self.n = spec.seq_len if n_tokens is None else n_tokens
        self.h, self.d = spec.n_heads, spec.head_dim
        self.dtype = dtype
        self.scale = 1.0 / math.sqrt(self.d)
        gen = torch.Generator().manual_seed(spec.seed)
        # Weights come from `seed` and tokens from `seed + 1`, never from the scheme: every scheme
        # with the same seed sees the same tokens and weights, so NoPE is the content-only baseline.
        self.wq = torch.randn(self.h, self.d, self.d, generator=gen).to(dtype) * self.scale
        self.wk = torch.randn(self.h, self.d, self.d, generator=gen).to(dtype) * self.scale
        self.wv = torch.randn(self.h, self.d, self.d, generator=gen).to(dtype) * self.scale
        self.words: tuple[str, ...] = ()
        self.embedded: tuple[str, ...] = ()  # sentence words whose vectors came from a checkpoint
        self.x = self._tokens()
        if permutation is not None:
            self.x = self.x[permutation]
        self.pe = self._additive()
        self.inv_freq, self.attention_factor = None, 1.0
        if spec.scheme == "rope":
            self.inv_freq, self.attention_factor = self.family_spec.inv_freq(self.n)
        self.slopes = None
        if spec.scheme == "alibi":
            from peapp.encodings.alibi import slopes
            self.slopes = slopes(self.h).to(dtype)
        self.t5_table = None
        if spec.scheme == "t5":
            from peapp.encodings.relative import random_t5_table
            fs = self.family_spec
            if spec.t5_source:
                from peapp.analysis.checkpoint_tables import trained_t5_table
                self.t5_table = trained_t5_table(spec.t5_source, fs.num_buckets, self.h).to(dtype)
            else:
                self.t5_table = random_t5_table(fs.num_buckets, self.h, spec.seed).to(dtype)
        self.shaw_vectors = None
        if spec.scheme == "shaw":
            k = self.family_spec.max_distance
            sgen = torch.Generator().manual_seed(spec.seed + 7919)
            self.shaw_vectors = torch.randn(self.h, 2 * k + 1, self.d, generator=sgen).to(dtype)
        everything = torch.arange(self.n)
        # Keys are stored transposed ([H, d, n] contiguous, seen as [H, n, d]): q·kᵀ then reads
        # them in the layout the matrix product wants (measured ~25 % faster than a transposed view).
        self.k = _transposed_storage(self._project(self.wk, everything, rotate=True))
        # Content keys (no position) for the RoPE / additive position term.
        self.k0 = _transposed_storage(self._project(self.wk, everything, rotate=False, add_pe=False)) \
            if spec.scheme in ("rope", "sinusoidal", "learned") else None
        self.v = self._project(self.wv, everything, rotate=False) if with_values else None
        self._lse: torch.Tensor | None = None  # [H, n] row normalisers, filled as views compute them
        self._lse_known: np.ndarray | None = None

    def _tokens(self) -> torch.Tensor:
        spec, n, d = self.spec, self.n, self.d
        tgen = torch.Generator().manual_seed(spec.seed + 1)
        if spec.tokens == "repeated":
            return torch.randn(1, d, generator=tgen).to(self.dtype).expand(n, d)
        if spec.tokens == "random":
            return torch.randn(n, d, generator=tgen).to(self.dtype)
        words = sentence_words(spec.sentence)
        self.words = tuple(words)
        unique = sorted(set(words))
        trained = {}
        if spec.embedding_source:
            from peapp.analysis.checkpoint_tables import model_word_vectors
            trained = model_word_vectors(unique, d, spec.embedding_source)
            self.embedded = tuple(w for w in unique if w in trained)
        table = torch.stack([trained[w] if w in trained else word_vector(w, d) for w in unique]).to(self.dtype)
        index = torch.tensor([unique.index(w) for w in words], dtype=torch.long)
        return table[index.repeat(math.ceil(n / len(words)))[:n]]

    def _additive(self) -> torch.Tensor | None:
        if self.spec.scheme == "sinusoidal":
            from peapp.encodings import sinusoidal
            fs = self.family_spec
            return sinusoidal.rows(torch.arange(self.n), self.d, fs.base, fs.layout).to(self.dtype)
        if self.spec.scheme == "learned":
            from peapp.encodings.learned import LearnedTable
            fs = self.family_spec
            table = LearnedTable.random(fs.max_positions, self.d, fs.seed)
            # GPT-2/BERT init has std 0.02 against token embeddings of similar size; our tokens
            # have std 1, so the table is rescaled to std 1 to stay comparable.
            return (table.lookup(torch.arange(self.n)) / 0.02).to(self.dtype)
        return None

    def _project(self, w: torch.Tensor, positions: torch.Tensor, *, rotate: bool,
                 add_pe: bool = True) -> torch.Tensor:
        """[H, len(positions), d]: tokens (plus added position) through each head's matrix."""
        x = self.x[positions]
        if add_pe and self.pe is not None:
            x = x + self.pe[positions]
        out = torch.matmul(x.unsqueeze(0), w)
        if rotate and self.inv_freq is not None:
            from peapp.encodings import rope
            out = rope.apply(out, positions, self.inv_freq, self.family_spec.layout, self.attention_factor)
        return out

    def queries(self, rows: torch.Tensor) -> torch.Tensor:
        return self._project(self.wq, rows, rotate=True)

    def content_queries(self, rows: torch.Tensor) -> torch.Tensor:
        return self._project(self.wq, rows, rotate=False, add_pe=False)

    # ---- logits of query rows against keys [key_start, n_keys) ----
    def logits(self, rows: torch.Tensor, n_keys: int, mask_value: float = float("-inf"), key_start: int = 0,
               q: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
        """(logits [H, B, n_keys − key_start], the bias or relative term or None, the future-key mask or None).

        Column c holds key ``key_start + c``.  Masked (future) keys get ``mask_value``: −inf by
        default; the views use a huge finite negative so that p·logit stays 0 there.  ``q``: the
        rows' queries if already computed (a pass over key blocks projects them once)."""
        q = self.queries(rows) if q is None else q
        out = torch.matmul(q * self.scale, self.k[:, key_start:n_keys].transpose(1, 2))
        extra = self.position_bias(rows, n_keys, q, key_start)
        if extra is not None:
            out.add_(extra)
        future = None
        if self.spec.causal:
            future = torch.arange(key_start, n_keys).reshape(1, -1) > rows.reshape(-1, 1)
            # only keys after the earliest query can be in anyone's future: fill just those columns
            lo = max(0, int(rows.min()) + 1 - key_start) if len(rows) else 0
            if lo < out.shape[-1]:
                out[..., lo:].masked_fill_(future[:, lo:].unsqueeze(0), mask_value)
        return out, extra, future

    def position_bias(self, rows: torch.Tensor, n_keys: int, q: torch.Tensor | None = None,
                      key_start: int = 0) -> torch.Tensor | None:
        """The additive position part for bias schemes (ALiBi, T5, Shaw) for keys [key_start, n_keys), else None."""
        spec = self.spec
        width = n_keys - key_start
        shifted = rows - key_start  # relative positions only: shift queries instead of keys
        if spec.scheme == "alibi":
            distance = rows.to(self.dtype).reshape(-1, 1) - torch.arange(key_start, n_keys, dtype=self.dtype).reshape(1, -1)
            if not spec.causal:
                distance = distance.abs()
            # Canonical ALiBi: −slope·(i − j); masked keys are handled by the caller's mask.
            return -self.slopes.reshape(-1, 1, 1) * distance.unsqueeze(0)
        if spec.scheme == "t5":
            from peapp.encodings.relative import t5_bias
            fs = self.family_spec
            return t5_bias(self.t5_table, len(rows), width, not spec.causal, fs.max_distance,
                           query_positions=shifted)
        if spec.scheme == "shaw":
            from peapp.encodings.relative import shaw_distance
            k = self.family_spec.max_distance
            q = self.queries(rows) if q is None else q
            per_distance = torch.matmul(q, self.shaw_vectors.transpose(1, 2)) * self.scale  # [H, B, 2k+1]
            index = (shaw_distance(len(rows), width, k, query_positions=shifted) + k)
            return torch.gather(per_distance, 2, index.unsqueeze(0).expand(self.h, -1, -1))
        return None

    def position_term(self, rows: torch.Tensor, logits: torch.Tensor, extra: torch.Tensor | None,
                      c0: int, c1: int, key_start: int = 0) -> torch.Tensor:
        """Position's share of the logits of keys [c0, c1) (``logits`` and ``extra`` start at key
        ``key_start``; masked entries are not meaningful, the caller masks)."""
        region = logits[..., c0 - key_start:c1 - key_start]
        if self.spec.scheme in ("rope", "sinusoidal", "learned"):
            content = torch.matmul(self.content_queries(rows), self.k0[:, c0:c1].transpose(1, 2))
            return region - content.mul_(self.scale)
        if extra is not None:
            return extra[..., c0 - key_start:c1 - key_start].clone()
        return torch.zeros_like(region)

    # ---- per-row softmax normalisers, cached ----
    def row_lse(self, rows: np.ndarray, progress: ProgressFn | None = None) -> torch.Tensor:
        """log Σ_j exp(logit_ij) over every key row i may see, [H, len(rows)].

        Rows computed before (by any view of this model) are reused; the others are computed in
        blocks of rows × keys with a streaming log-sum-exp, so a zoom into a long sequence needs
        O(rows × L × head_dim) work but only a stripe of memory."""
        if self._lse is None:
            self._lse = torch.zeros(self.h, self.n)
            self._lse_known = np.zeros(self.n, dtype=bool)
        missing = rows[~self._lse_known[rows]]
        n_blocks = max(1, len(missing))
        done = 0
        chunk = 256  # query rows per pass over the keys
        for lo in range(0, len(missing), chunk):
            part = missing[lo:lo + chunk]
            rows_t = torch.from_numpy(part.astype(np.int64))
            n_keys = int(part.max()) + 1 if self.spec.causal else self.n
            block = max(256, LSE_BLOCK_ENTRIES // (self.h * len(part)))
            total = torch.full((self.h, len(part)), float("-inf"))
            q = self.queries(rows_t)
            for k0 in range(0, n_keys, block):
                k1 = min(n_keys, k0 + block)
                logits, _, _ = self.logits(rows_t, k1, key_start=k0, q=q)
                # log-sum-exp in place (torch.logsumexp allocates two block-sized temporaries)
                top = logits.amax(dim=-1, keepdim=True).clamp_min_(-1e30)  # a fully masked row: −1e30, not −inf
                block_lse = top.squeeze(-1) + logits.sub_(top).exp_().sum(dim=-1).log_()
                total = torch.logaddexp(total, block_lse)
                del logits
                if progress is not None:
                    progress((done + len(part) * (k1 / n_keys)) / n_blocks)
            self._lse[:, part] = total
            self._lse_known[part] = True
            done += len(part)
        return self._lse[:, rows]

    def remember_lse(self, rows: np.ndarray, lse: torch.Tensor) -> None:
        """Keep normalisers a view computed anyway (rows over all their keys)."""
        if self._lse is None:
            self._lse = torch.zeros(self.h, self.n)
            self._lse_known = np.zeros(self.n, dtype=bool)
        self._lse[:, rows] = lse.to(torch.float32)
        self._lse_known[rows] = True


def _transposed_storage(x: torch.Tensor) -> torch.Tensor:
    """The same [H, n, d] values, stored as a contiguous [H, d, n]."""
    return x.transpose(1, 2).contiguous().transpose(1, 2)


def model_bytes(spec: AttentionSpec, n_tokens: int | None = None, with_values: bool = False) -> int:
    """Estimated memory of a model's cached tensors (tokens, keys, content keys, values, PE)."""
    n = spec.seq_len if n_tokens is None else n_tokens
    per_head = spec.n_heads * n * spec.head_dim
    count = n * spec.head_dim + per_head  # tokens + keys
    if spec.scheme in ("rope", "sinusoidal", "learned"):
        count += per_head
    if spec.scheme in ("sinusoidal", "learned"):
        count += n * spec.head_dim
    if with_values:
        count += per_head
    count += spec.n_heads * n  # cached row normalisers
    return 4 * count


_cache_lock = threading.Lock()
_cache: dict[tuple, AttentionModel] = {}


def get_model(spec: AttentionSpec, scheme_params: tuple = ()) -> AttentionModel:
    """The model for (spec, params), reusing the last one (zooming keeps the keys)."""
    key = (spec, tuple(scheme_params))
    with _cache_lock:
        model = _cache.get(key)
        if model is None:
            _cache.clear()  # one model at a time: its keys can be hundreds of MB
            model = AttentionModel(spec, scheme_params)
            _cache[key] = model
        return model


# ---- views --------------------------------------------------------------------------------

@dataclass(frozen=True)
class AttentionView:
    """A pooled (or full-resolution) view of one region of all heads' matrices."""

    spec: AttentionSpec
    kind: str
    pooling: str
    values: np.ndarray  # [H, row bins, col bins] float32; NaN where every entry is masked
    row_start: int
    row_stop: int
    col_start: int
    col_stop: int
    row_bin: int  # query positions per displayed row (1 = full resolution)
    col_bin: int
    rows_per_bin: int  # query rows actually evaluated per row bin (row_bin unless sampled)
    distances: np.ndarray  # [D] query − key distance of the profile
    profile: np.ndarray  # [H, D] mean attention weight at each distance
    entropy_positions: np.ndarray  # [R] the query rows evaluated
    entropy: np.ndarray  # [H, R] attention entropy (nats) of those rows
    estimated_bytes: int
    # Attention each key receives ("lost in the middle" mechanism), empty without the profile:
    received: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))  # [H, L] mean over the R rows of the weight on key j
    last_query: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))  # [H, L] row L − 1's weights
    slopes: np.ndarray | None = None  # ALiBi slope per head
    t5_relative: np.ndarray | None = None  # relative positions for the bucket staircase
    t5_buckets: np.ndarray | None = None  # bucket of each relative position
    t5_table: np.ndarray | None = None  # [num_buckets, H] bias table
    words: tuple[str, ...] = ()
    embedded: tuple[str, ...] = ()  # distinct words whose vectors came from the checkpoint's embeddings
    scheme_note: str = ""  # the scheme's settings, e.g. RoPE's pair layout and base

    @property
    def sampled(self) -> bool:
        return self.rows_per_bin < self.row_bin

    @property
    def full_resolution(self) -> bool:
        return self.row_bin == 1 and self.col_bin == 1

    @property
    def reduction(self) -> str:
        if self.full_resolution:
            return "full resolution"
        text = f"{self.pooling} of {self.row_bin:,} × {self.col_bin:,} entries"
        if self.sampled:
            rows = "query row" if self.rows_per_bin == 1 else "evenly spaced query rows"
            text += f" ({self.rows_per_bin} {rows} of every {self.row_bin:,}, each exact over all keys)"
        return text

    def cell_ranges(self, row_cell: int, col_cell: int) -> tuple[range, range]:
        """Query and key positions covered by one displayed cell."""
        r = self.row_start + row_cell * self.row_bin
        c = self.col_start + col_cell * self.col_bin
        return range(r, min(r + self.row_bin, self.row_stop)), range(c, min(c + self.col_bin, self.col_stop))

    def token(self, position: int) -> str:
        """The word at a position (sentence tokens), else ''."""
        return self.words[position % len(self.words)] if self.words else ""

    def token_source(self, position: int) -> str:
        """Where the word at a position got its vector: 'model' (checkpoint embeddings) or 'hash'."""
        return "model" if self.token(position) in self.embedded else "hash"


def _bins(start: int, stop: int, max_bins: int) -> tuple[int, int]:
    n = stop - start
    size = math.ceil(n / max_bins)
    return size, math.ceil(n / size)


def _region(total: int, start: int, stop: int | None, what: str) -> tuple[int, int]:
    stop = total if stop is None else int(stop)
    start = int(start)
    if not 0 <= start < stop <= total:
        raise ParameterError(f"{what} range [{start:,}, {stop:,}) is not inside 0–{total:,}; zoom out or reset the view.")
    return start, stop


def _rows_to_evaluate(r0: int, r1: int, row_bin: int, keys_per_row: float, n_heads: int,
                      entry_budget: int) -> tuple[np.ndarray, int]:
    """All rows of [r0, r1) if the budget allows, else evenly spaced samples in each row bin."""
    n = r1 - r0
    if n * keys_per_row * n_heads <= entry_budget:
        return np.arange(r0, r1), row_bin
    bins = math.ceil(n / row_bin)
    per_bin = int(max(1, min(row_bin, entry_budget // max(1.0, bins * keys_per_row * n_heads))))
    starts = r0 + np.arange(bins) * row_bin
    counts = np.minimum(row_bin, r1 - starts)
    offsets = (np.arange(per_bin) + 0.5) / per_bin
    rows = starts[:, None] + np.floor(offsets[None, :] * counts[:, None]).astype(np.int64)
    return np.unique(rows.reshape(-1)), per_bin


def _stripes(rows: np.ndarray, n: int, h: int, causal: bool) -> list[np.ndarray]:
    """Split ascending rows into stripes whose heads × rows × keys stays within STRIPE_ENTRIES.

    With a causal mask a row needs keys up to itself only."""
    keys = rows + 1 if causal else np.full(len(rows), n)
    out, i = [], 0
    while i < len(rows):
        budget = _stripe_budget(h, int(keys[i]))
        longest = min(len(rows) - i, max(1, budget // (h * int(keys[i]))))
        sizes = np.arange(1, longest + 1)
        fits = h * sizes * keys[i:i + longest] <= budget
        take = int(sizes[fits][-1]) if fits.any() else 1
        out.append(rows[i:i + take])
        i += take
    return out


def _stripe_budget(h: int, keys: int) -> int:
    """Logits per stripe for rows of ``keys`` keys: small stripes stay in cache; long rows get at
    least MIN_STRIPE_ROWS rows per stripe (within LONG_STRIPE_ENTRIES)."""
    return max(STRIPE_ENTRIES, min(LONG_STRIPE_ENTRIES, MIN_STRIPE_ROWS * h * keys))


def estimate_view_bytes(spec: AttentionSpec, row_bins: int, col_bins: int) -> int:
    """Memory a view needs: cached model, the temporaries of building its keys (RoPE's rotation
    holds a few key-sized copies), the stripe working set, outputs and profile."""
    stripe = _stripe_budget(spec.n_heads, spec.seq_len) * 4 * _STRIPE_TENSORS
    outputs = spec.n_heads * row_bins * col_bins * 8 * 2
    profile = spec.n_heads * (2 * spec.seq_len) * 8 * 2
    building = 4 * spec.n_heads * spec.seq_len * spec.head_dim * 4
    return model_bytes(spec) + building + stripe + outputs + profile


def attention_view(spec: AttentionSpec, scheme_params: tuple = (), kind: str = "softmax",
                   pooling: str = "mean", rows: tuple[int, int | None] = (0, None),
                   cols: tuple[int, int | None] = (0, None), max_bins: int = 512,
                   progress: ProgressFn | None = None, entry_budget: int = ENTRY_BUDGET,
                   memory_budget: int | None = None, with_profile: bool = True) -> AttentionView:
    """All heads' ``kind`` matrix over a region, pooled to at most ``max_bins`` per side.

    ``with_profile`` False skips the distance profile and entropy (a zoom needs only the region).
    """
    if kind not in KINDS:
        raise ParameterError(f"view must be one of {', '.join(KINDS)}; got {kind!r}")
    if pooling not in POOLINGS:
        raise ParameterError(f"pooling must be mean or max; got {pooling!r}")
    if max_bins < 1:
        raise ParameterError("max_bins must be at least 1")
    n, h = spec.seq_len, spec.n_heads
    r0, r1 = _region(n, *rows, what="query")
    c0, c1 = _region(n, *cols, what="key")
    # Even one sample row per bin costs heads × keys logits; where the budget cannot pay for
    # max_bins rows, use fewer (taller) row bins — never fewer than MIN_ROW_BINS.  A region small
    # enough for full resolution (a zoom) is always computed whole, whatever it costs.
    keys_per_row = ((r0 + r1) / 2 + 1) if spec.causal else n
    if r1 - r0 <= max_bins and c1 - c0 <= max_bins:
        entry_budget = max(entry_budget, int((r1 - r0) * keys_per_row * h))  # full resolution: every row
    affordable = int(entry_budget // max(1.0, h * keys_per_row))
    row_bin, n_row_bins = _bins(r0, r1, max(1, min(max_bins, max(MIN_ROW_BINS, affordable))))
    col_bin, n_col_bins = _bins(c0, c1, max_bins)
    estimated = estimate_view_bytes(spec, n_row_bins, n_col_bins)
    ensure_fits((estimated,), 1, what="the attention view", budget=memory_budget,
                suggestion="use fewer tokens, heads or a smaller head_dim")
    progress = progress or (lambda fraction: None)
    scheme_spec(spec, scheme_params)  # validate the scheme's settings before the expensive part
    progress(0.0)
    model = get_model(spec, scheme_params)
    progress(0.02)

    eval_rows, rows_per_bin = _rows_to_evaluate(r0, r1, row_bin, keys_per_row, h, entry_budget)

    use_max = pooling == "max"
    acc = torch.full((h, n_row_bins, n_col_bins), float("-inf") if use_max else 0.0)
    counts = torch.zeros(n_row_bins, n_col_bins)
    prof_sum = torch.zeros(h, 2 * n - 1)  # indexed by key − query + n − 1 (flipped to distance at the end)
    prof_count = np.zeros(2 * n, dtype=np.int64)  # difference array, indexed by distance (query − key) + n − 1
    entropy = torch.zeros(h, len(eval_rows))
    received = torch.zeros(h, n if with_profile else 0)  # column sums over the evaluated rows
    col_starts = torch.arange(c0, c1, col_bin)
    col_widths = (torch.clamp(col_starts + col_bin, max=c1) - col_starts).to(torch.float32)
    lse_rows = None
    if with_profile:  # every row against all its keys: the profile and entropy need whole rows
        stripes = _stripes(eval_rows, n, h, spec.causal)
        base = 0.02
    else:  # a region only: its columns, plus (for weights) each row's normaliser over all keys, cached
        if kind == "softmax":
            lse_rows = model.row_lse(eval_rows, lambda f: progress(0.02 + 0.78 * f))
        stripes = _region_stripes(eval_rows, c1 - c0, h)
        base = 0.8 if kind == "softmax" else 0.02

    done = 0
    for s, stripe_rows in enumerate(stripes):
        rows_t = torch.from_numpy(stripe_rows.astype(np.int64))
        b = len(stripe_rows)
        # causal: keys after the stripe's last row are masked for every row in it, so they are
        # not computed; the region's columns past them count as masked when pooling
        n_keys = int(stripe_rows[-1]) + 1 if spec.causal else n
        k1 = min(c1, n_keys)  # region columns that are computed: [k0, k1)
        k0 = min(c0, k1)
        probs = None
        if with_profile:
            key_start = 0
            if spec.causal and c0 == 0 and n_keys % col_bin:
                # a few more (masked) keys make the stripe a whole number of column bins, so pooling
                # is one matrix-vector product on contiguous memory; their weights are exactly 0
                n_keys = min(n, n_keys + col_bin - n_keys % col_bin)
                k1 = min(c1, n_keys)
            logits, extra, future = model.logits(rows_t, n_keys, mask_value=_MASKED)
            probs = torch.softmax(logits, dim=-1)
            # log-sum-exp without another exp pass: at the largest logit, p = exp(top − lse)
            lse = logits.amax(dim=-1) - probs.amax(dim=-1).log()
            model.remember_lse(stripe_rows, lse)
            entropy[:, done:done + b] = lse - (probs * logits).sum(-1)  # −Σ p log p, log p = logit − lse
            _add_profile(prof_sum, prof_count, probs, stripe_rows, n, spec.causal)
            received[:, :n_keys] += probs.sum(1)
        else:
            key_start = k0
            if k1 > k0:
                logits, extra, future = model.logits(rows_t, k1, mask_value=_MASKED, key_start=k0)
            else:
                logits, extra, future = torch.empty(h, b, 0), None, None
            if kind == "softmax":  # masked logits are −1e30: exp(−1e30 − lse) = 0
                probs = logits.sub_(lse_rows[:, done:done + b].unsqueeze(-1)).exp_()
        if kind == "softmax":
            region = probs[..., k0 - key_start:k1 - key_start]
        elif kind == "logits":
            region = logits[..., k0 - key_start:k1 - key_start]
        else:
            region = model.position_term(rows_t, logits, extra, k0, k1, key_start)
        del logits, extra
        if future is not None and kind != "softmax":  # masked logits do not count (see row_counts)
            region = region.masked_fill(future[:, k0 - key_start:k1 - key_start].unsqueeze(0),
                                        float("-inf") if use_max else 0.0)
        cells = _pool_region(region, col_bin, n_col_bins, use_max, nonnegative=kind == "softmax")
        del probs, region
        if spec.causal and kind != "softmax":  # unmasked entries per cell: keys ≤ the query
            width = torch.clamp(rows_t.reshape(-1, 1) + 1 - col_starts.reshape(1, -1), min=0)
            row_counts = torch.minimum(width.to(torch.float32), col_widths.reshape(1, -1))
        else:
            row_counts = col_widths.reshape(1, -1).expand(b, -1)
        row_cells = (stripe_rows - r0) // row_bin
        first, last = int(row_cells[0]), int(row_cells[-1])
        if use_max:
            for cell in range(first, last + 1):
                sel = torch.from_numpy(np.flatnonzero(row_cells == cell))
                if len(sel):
                    acc[:, cell] = torch.maximum(acc[:, cell], cells[:, sel].amax(1))
        else:  # rows of a stripe fall in consecutive row cells: sum them with a 0/1 matrix
            onehot = torch.from_numpy((row_cells[None, :] == np.arange(first, last + 1)[:, None])
                                      .astype(np.float32))
            acc[:, first:last + 1] += torch.matmul(onehot, cells)
            counts[first:last + 1] += onehot @ row_counts
        done += b
        progress(base + (1 - base) * (s + 1) / len(stripes))

    if use_max:
        values = acc.masked_fill(torch.isneginf(acc), float("nan"))
    else:
        values = acc / counts.unsqueeze(0)  # 0/0 → NaN: every entry of the cell masked
    prof_sum = prof_sum.flip(-1)  # index key − query + n − 1 → query − key + n − 1
    counts_per_index = np.cumsum(prof_count)[: 2 * n - 1]
    seen = counts_per_index > 0
    profile = prof_sum.numpy()[:, seen] / counts_per_index[seen]
    distances = np.arange(-(n - 1), n)[seen]
    entropy_positions = eval_rows if with_profile else eval_rows[:0]
    last_query = torch.zeros(h, 0)
    if with_profile:
        received /= len(eval_rows)
        last_query = last_query_weights(model)
    entropy = entropy if with_profile else entropy[:, :0]

    extras: dict[str, Any] = {}
    if spec.scheme == "alibi":
        extras["slopes"] = model.slopes.to(torch.float32).numpy()
    if spec.scheme == "t5":
        extras.update(_t5_staircase(model))
    extras["scheme_note"] = scheme_note(model)
    return AttentionView(
        spec=spec, kind=kind, pooling=pooling, values=values.to(torch.float32).numpy(),
        row_start=r0, row_stop=r1, col_start=c0, col_stop=c1, row_bin=row_bin, col_bin=col_bin,
        rows_per_bin=rows_per_bin, distances=distances, profile=profile.astype(np.float32),
        entropy_positions=entropy_positions, entropy=entropy.numpy(), estimated_bytes=estimated,
        received=received.numpy(), last_query=last_query.numpy(), words=model.words, embedded=model.embedded,
        **extras)


def _pool_columns(region: torch.Tensor, size: int, use_max: bool) -> torch.Tensor:
    """Max or sum over consecutive groups of ``size`` columns (the last axis; a multiple of size)."""
    if size == 1:
        return region
    h, b, k = region.shape
    if use_max:  # max_pool1d is several times faster than a reshape + amax with small groups
        return torch.nn.functional.max_pool1d(region.reshape(h * b, 1, k), size).reshape(h, b, k // size)
    # a matrix-vector product is the fastest sum over small groups on CPU
    return torch.matmul(region.reshape(-1, size), torch.ones(size, dtype=region.dtype)).reshape(h, b, k // size)


def last_query_weights(model: AttentionModel) -> torch.Tensor:
    """The last query's attention weights over all keys [H, L] (it sees every key, mask or not)."""
    logits, _, _ = model.logits(torch.tensor([model.n - 1]), model.n)
    return torch.softmax(logits, dim=-1)[:, 0]


def uniform_causal_received(n: int) -> np.ndarray:
    """Mean over the n queries of the weight on key j when every query attends uniformly to the
    keys it may see (a causal mask and no other preference): (1/n)·Σ_{i≥j} 1/(i+1).

    The mask alone makes early keys collect more: key 0 is seen by every query."""
    tail = np.cumsum((1.0 / np.arange(1, n + 1))[::-1])[::-1]  # Σ_{i≥j} 1/(i+1)
    return tail / n


def received_summary(received: np.ndarray) -> str:
    """Share of the attention that lands on the first 10 %, the middle 80 % and the last 10 % of keys."""
    n = received.shape[-1]
    if n < 10:
        return ""
    edge = max(1, n // 10)
    total = float(received.sum())
    first, last = float(received[:edge].sum()), float(received[n - edge:].sum())
    middle = total - first - last
    return (f"first 10% of keys {first / total:.0%}, middle 80% {middle / total:.0%}, "
            f"last 10% {last / total:.0%}")


def _pool_region(region: torch.Tensor, size: int, n_bins: int, use_max: bool, nonnegative: bool) -> torch.Tensor:
    """Pool the computed columns of a region into ``n_bins`` groups of ``size`` columns.

    ``region`` holds the first columns of the region; the columns after it (future keys of a
    causal stripe) and the padding after the region's end do not count: they contribute 0 to
    sums and nothing to maxima (weights are ≥ 0, so a masked weight of 0 never changes a max).
    Avoids padding the stripe to the region's width, which would copy all of it."""
    h, b, w = region.shape
    out = torch.full((h, b, n_bins), 0.0 if not use_max or nonnegative else float("-inf"))
    full = w // size
    if full:
        main = region[..., :full * size]
        if main.is_contiguous():
            out[..., :full] = _pool_columns(main, size, use_max)
        else:  # a view of groups (splitting the last axis never copies)
            groups = main.unflatten(-1, (full, size))
            out[..., :full] = groups.amax(-1) if use_max else groups.sum(-1)
    if w > full * size:
        tail = region[..., full * size:]
        out[..., full] = tail.amax(-1) if use_max else tail.sum(-1)
    return out


def _region_stripes(rows: np.ndarray, width: int, h: int) -> list[np.ndarray]:
    """Split rows into stripes of at most STRIPE_ENTRIES logits against ``width`` columns."""
    take = max(1, STRIPE_ENTRIES // (h * max(1, width)))
    return [rows[i:i + take] for i in range(0, len(rows), take)]


def _add_profile(prof_sum: torch.Tensor, prof_count: np.ndarray, probs: torch.Tensor, rows: np.ndarray,
                 n: int, causal: bool) -> None:
    """Add each row's weights to the sums indexed by key − query + n − 1 (keys 0 … k−1).

    One slice addition per row; no padded copy of the stripe."""
    h, b, k = probs.shape
    for i, row in enumerate(rows):
        lo = n - 1 - int(row)
        prof_sum[:, lo:lo + k] += probs[:, i]
    for row in rows:  # distances d = row − j for the row's allowed keys j
        row = int(row)
        last_key = row if causal else n - 1
        prof_count[n - 1 + row - last_key] += 1
        prof_count[n - 1 + row + 1] -= 1


def scheme_note(model: AttentionModel) -> str:
    """The scheme's settings in a few words (shown in captions)."""
    fs, scheme = model.family_spec, model.spec.scheme
    if scheme == "rope":
        note = f"{fs.layout}-split pairs" if fs.layout == "half" else "interleaved pairs"
        note += f", base {fs.base:g}"
        if fs.rotary_dim != fs.head_dim:
            note += f", {fs.rotary_dim} of {fs.head_dim} dims rotate"
        kind = getattr(fs, "rope_type", None)
        if kind not in (None, "default"):
            note += f", {kind} scaling"
        if model.attention_factor != 1.0:
            note += f", attention factor {model.attention_factor:.4g}"
        return note
    if scheme == "sinusoidal":
        return f"{fs.layout} layout, base {fs.base:g}"
    if scheme == "learned":
        return f"seeded {fs.max_positions:,}-row table (seed {fs.seed}), rescaled to std 1 like the tokens"
    if scheme == "t5":
        table = (f"trained bias table {model.spec.t5_source.rpartition('::')[2]} of "
                 f"{checkpoint_name(model.spec.t5_source.rpartition('::')[0])}"
                 if model.spec.t5_source else "seeded bias table")
        return (f"{fs.num_buckets} buckets, max distance {fs.max_distance}, {table}; q·k is scaled by "
                f"1/√d here too (T5 folds it into its weights)")
    if scheme == "shaw":
        return f"distances clipped to ±{fs.max_distance}, seeded relative vectors"
    if scheme == "alibi":
        return "canonical form −slope·(i − j)"
    return "nothing added anywhere"


def _t5_staircase(model: AttentionModel) -> dict[str, np.ndarray]:
    from peapp.encodings.relative import t5_bucket
    fs = model.family_spec
    reach = max(2 * fs.max_distance, 16)
    rel = torch.arange(-reach, reach + 1)
    buckets = t5_bucket(rel, not model.spec.causal, fs.num_buckets, fs.max_distance)
    return {"t5_relative": rel.numpy(), "t5_buckets": buckets.numpy(),
            "t5_table": model.t5_table.to(torch.float32).numpy()}


def full_matrices(spec: AttentionSpec, scheme_params: tuple = ()) -> dict[str, np.ndarray]:
    """Every head's full logits, position term and softmax [H, L, L] (small sizes only).

    Computed in one piece from the same model, with NaN logits / position where masked and 0
    probability there; the pooled views must agree with pooling these.
    """
    n, h = spec.seq_len, spec.n_heads
    ensure_fits((h, n, n), 4 * 5, what="the full attention matrices",
                suggestion="use attention_view, which pools in blocks, or fewer tokens")
    model = AttentionModel(spec, scheme_params)
    rows = torch.arange(n)
    logits, extra, future = model.logits(rows, n)
    position = model.position_term(rows, logits, extra, 0, n)
    probs = torch.softmax(logits, dim=-1)
    if future is not None:
        position = position.masked_fill(future.unsqueeze(0), float("nan"))
    return {"logits": logits.masked_fill(torch.isinf(logits), float("nan")).numpy(),
            "position": position.numpy(), "softmax": probs.numpy()}


# ---- outputs and the shuffle (permutation) test ----------------------------------------------

def attention_outputs(spec: AttentionSpec, scheme_params: tuple = (), permutation: torch.Tensor | None = None,
                      n_tokens: int | None = None, progress: ProgressFn | None = None,
                      dtype=torch.float64) -> torch.Tensor:
    """Attention outputs softmax(logits)·V [H, n, head_dim], tokens optionally permuted.

    Position stays 0 … n−1: only which token sits where changes.  Computed in stripes.
    """
    n = spec.seq_len if n_tokens is None else n_tokens
    model = AttentionModel(spec, scheme_params, dtype=dtype, permutation=permutation, n_tokens=n, with_values=True)
    out = torch.empty(spec.n_heads, n, spec.head_dim, dtype=dtype)
    step = max(1, STRIPE_ENTRIES // (spec.n_heads * n))
    for lo in range(0, n, step):
        rows = torch.arange(lo, min(n, lo + step))
        logits, _, _ = model.logits(rows, n)
        out[:, lo:lo + len(rows)] = torch.matmul(torch.softmax(logits, dim=-1), model.v)
        if progress is not None:
            progress(min(1.0, (lo + step) / n))
    return out


@dataclass(frozen=True)
class ShuffleResult:
    """Shuffle the tokens, keep positions: are the outputs the same permutation of the originals?"""

    spec: AttentionSpec
    n_tokens: int  # tokens tested (the first SHUFFLE_MAX_TOKENS of longer sequences)
    permutation: np.ndarray  # shuffled[i] = original token permutation[i]
    change: np.ndarray  # [n] per position: |O'_i − O_π(i)| / |O_π(i)| over heads and dims
    max_abs: float  # largest absolute difference of any output component
    equivariant: bool
    summary: str


def shuffle_test(spec: AttentionSpec, scheme_params: tuple = (), progress: ProgressFn | None = None,
                 tolerance: float = _EQUIVARIANCE_TOL) -> ShuffleResult:
    """Permutation test: shuffle the input tokens and compare outputs to the shuffled originals.

    Without position information and without a causal mask the outputs are the same permutation
    of the originals (equivariance); any position scheme, or a causal mask alone, breaks it.
    """
    n = min(spec.seq_len, SHUFFLE_MAX_TOKENS)
    ensure_fits((2 * model_bytes(spec, n, with_values=True) + STRIPE_ENTRIES * 8 * 4,), 2,
                what="the shuffle test", suggestion="use fewer heads or a smaller head_dim")
    scheme_spec(spec, scheme_params)
    perm = torch.randperm(n, generator=torch.Generator().manual_seed(spec.seed + 104729))
    report = (lambda f: progress(0.5 * f)) if progress else None
    original = attention_outputs(spec, scheme_params, n_tokens=n, progress=report)
    report = (lambda f: progress(0.5 + 0.5 * f)) if progress else None
    shuffled = attention_outputs(spec, scheme_params, permutation=perm, n_tokens=n, progress=report)
    expected = original[:, perm]
    diff = shuffled - expected
    max_abs = float(diff.abs().max()) if diff.numel() else 0.0
    norm = expected.pow(2).sum(dim=(0, 2)).sqrt().clamp_min(1e-30)
    change = (diff.pow(2).sum(dim=(0, 2)).sqrt() / norm).to(torch.float32).numpy()
    equivariant = max_abs <= tolerance
    return ShuffleResult(spec=spec, n_tokens=n, permutation=perm.numpy(), change=change, max_abs=max_abs,
                         equivariant=equivariant, summary=_shuffle_summary(spec, n, change, max_abs, equivariant))


def _shuffle_summary(spec: AttentionSpec, n: int, change: np.ndarray, max_abs: float, equivariant: bool) -> str:
    scope = f"{n:,} tokens" + (f" (the first {n:,} of {spec.seq_len:,})" if n < spec.seq_len else "")
    if equivariant:
        why = "no position information and no mask: attention sees a bag of tokens" if spec.scheme == "nope" \
            else "the tokens are all the same, so shuffling changes nothing" if spec.tokens == "repeated" \
            else "order does not reach the outputs"
        return (f"Equivariant: shuffling {scope} only shuffled the outputs (largest difference "
                f"{max_abs:.1e}, within {_EQUIVARIANCE_TOL:g}) — {why}.")
    moved = int((change > 1e-3).sum())
    if spec.scheme == "nope" and spec.causal:
        why = "no position encoding, but the causal mask alone leaks order: each token sees a different prefix"
    elif spec.causal:
        why = f"{SCHEME_LABELS[spec.scheme]} and the causal mask both make order matter"
    else:
        why = f"{SCHEME_LABELS[spec.scheme]} makes order matter"
    return (f"Not equivariant: after shuffling {scope}, outputs differ from the shuffled originals by up to "
            f"{max_abs:.3g} (median relative change {float(np.median(change)):.1%}, {moved:,} of {n:,} "
            f"positions changed by more than 0.1%) — {why}.")


# ---- captions and requests ------------------------------------------------------------------

def _embedding_note(view: AttentionView) -> str:
    if not view.spec.embedding_source:
        return " (each word's vector seeded by its hash)"
    path, _, tensor = view.spec.embedding_source.rpartition("::")
    distinct = sorted(set(view.words))
    hashed = [w for w in distinct if w not in view.embedded]
    text = (f" ({len(view.embedded)} of {len(distinct)} distinct words from {tensor} of "
            f"{checkpoint_name(path)}, scaled to unit std")
    if view.spec.head_dim != _embedding_width(view.spec.embedding_source):
        text += f" and projected to {view.spec.head_dim} dims by a fixed random map"
    text += f"; hashed, not whole words in its vocabulary: {', '.join(hashed)})" if hashed else ")"
    return text


def checkpoint_name(path: str) -> str:
    """A short name for a checkpoint: the file name, or the last two folders (".../minilm/model")."""
    parts = [p for p in path.replace(os.sep, "/").split("/") if p]
    return "/".join(parts[-2:]) if os.path.isdir(path) else (parts[-1] if parts else path)


def _embedding_width(source: str) -> int:
    from peapp.analysis.checkpoint_tables import embedding_table
    return int(embedding_table(source).weight.shape[1])


def caption(view: AttentionView) -> str:
    spec = view.spec
    what = {"logits": "attention logits q·k/√d (+ bias)", "position": "the position term of the logits",
            "softmax": "attention weights (softmax; each row sums to 1)"}[view.kind]
    if spec.tokens == "sentence":
        tokens = f"the sentence's {len(view.words)} tokens repeated{_embedding_note(view)}"
    else:
        tokens = {"repeated": "one repeated token (only position can matter)",
                  "random": "seeded random tokens"}[spec.tokens]
    mask = "causal mask (future keys get no weight)" if spec.causal else "no mask"
    note = f" — {view.scheme_note}" if view.scheme_note else ""
    text = (f"{SCHEME_LABELS[spec.scheme]}{note}: {what}, {spec.n_heads} heads × {spec.seq_len:,} tokens, "
            f"{tokens}, {mask}. Rows are queries, columns keys; ")
    text += ("full resolution." if view.full_resolution else
             f"each cell is the {view.reduction}; zoom in for full resolution.")
    return text


@dataclass(frozen=True)
class AttentionRequest(Request):
    """The inspector's matrices for one region (pooled), with profile and entropy."""

    channel: ClassVar[str] = "attention"
    spec: AttentionSpec
    scheme_params: tuple = ()
    kind: str = "softmax"
    pooling: str = "mean"
    rows: tuple = (0, None)
    cols: tuple = (0, None)
    max_bins: int = 512
    with_profile: bool = True  # False for a zoomed region: the profile and entropy come from the overview

    def compute(self, progress: ProgressFn) -> AttentionView:
        return attention_view(self.spec, self.scheme_params, self.kind, self.pooling, self.rows, self.cols,
                              self.max_bins, progress, with_profile=self.with_profile)


@dataclass(frozen=True)
class ShuffleRequest(Request):
    """The shuffle-tokens test for the inspector's current setup."""

    channel: ClassVar[str] = "attention-shuffle"
    spec: AttentionSpec
    scheme_params: tuple = ()

    def compute(self, progress: ProgressFn) -> ShuffleResult:
        return shuffle_test(self.spec, self.scheme_params, progress)


__all__ = ["AttentionSpec", "AttentionView", "AttentionRequest", "ShuffleRequest", "ShuffleResult",
           "attention_view", "full_matrices", "attention_outputs", "shuffle_test", "caption",
           "scheme_params_from_document", "scheme_spec"]
