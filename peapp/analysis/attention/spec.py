"""The attention sandbox's settings: schemes, token sources, kinds of matrix, the spec itself."""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from peapp import schemes
from peapp.errors import ParameterError
from peapp.i18n import msg, translate
from peapp.jobs import frozen_params
from peapp.params import Spec, param

if TYPE_CHECKING:  # torch loads on first use, not at import (the GUI builds its panels before it)
    import torch

SCHEMES = schemes.ids()
SCHEME_LABELS = {scheme.id: scheme.description for scheme in schemes.SCHEMES}
TOKEN_SOURCES = ("repeated", "random", "sentence")
KINDS = ("logits", "position", "softmax")
POOLINGS = ("mean", "max")
MAX_SEQ_LEN = 131_072
SINK_KEYS = 4  # the "first keys" of the attention-sink share
# the encoding family whose parameters configure each scheme (None: it has none; ALiBi's slopes
# come from the head count)
SCHEME_FAMILIES: dict[str, str | None] = {scheme.id: scheme.family for scheme in schemes.SCHEMES}
DEFAULT_SENTENCE = "the cat sat on the mat because the mat was warm"


@dataclass(frozen=True)
class AttentionSpec(Spec):
    """The attention sandbox: scheme, sizes, where the tokens come from, mask."""

    family: ClassVar[str] = "attention"
    scheme: str = param("rope", msg("AttentionSpec", "Scheme"), choices=SCHEMES,
                        help=msg("AttentionSpec", "How position enters attention. Scheme settings (RoPE base and scaling, "
                             "T5 buckets, Shaw clip, sinusoid base, learned table size) come from the "
                             "parameters of that family."))
    seq_len: int = param(64, msg("AttentionSpec", "Tokens"), minimum=1, maximum=MAX_SEQ_LEN, step=1,
                         help=msg("AttentionSpec", "Sequence length (queries = keys). Long sequences are shown pooled; "
                              "zoom in for full resolution."))
    n_heads: int = param(4, msg("AttentionSpec", "Heads"), minimum=1, maximum=256, step=1,
                         help=msg("AttentionSpec", "Attention heads (up to 256, as the ALiBi and T5 families allow)."))
    head_dim: int = param(64, "head_dim", minimum=2, maximum=512, step=2, even=True,
                          help=msg("AttentionSpec", "Width of q, k and v per head (also the token width here)."))
    seed: int = param(0, msg("AttentionSpec", "Seed"), minimum=0, maximum=2**31 - 1, step=1,
                      help=msg("AttentionSpec", "Seeds the projections, random tokens, T5 table and Shaw vectors."))
    tokens: str = param("random", msg("AttentionSpec", "Tokens from"), choices=TOKEN_SOURCES,
                        help=msg("AttentionSpec", "repeated: one token everywhere, so only position matters; random: seeded "
                             "random tokens; sentence: the typed words, repeated to fill the length."))
    sentence: str = param(DEFAULT_SENTENCE, msg("AttentionSpec", "Sentence"),
                          help=msg("AttentionSpec", "Words embedded deterministically (a hash of each word seeds its vector)."))
    causal: bool = param(True, msg("AttentionSpec", "Causal mask"), help=msg("AttentionSpec", "Mask future keys (decoder); off: every token sees all."))
    t5_source: str = param("", msg("AttentionSpec", "Trained T5 table"),
                           help=msg("AttentionSpec", "PATH::TENSOR of a checkpoint's T5 relative bias table [buckets, heads]; empty: a "
                                "seeded random table."))
    embedding_source: str = param("", msg("AttentionSpec", "Word embeddings"),
                                  help=msg("AttentionSpec", "PATH::TENSOR of a checkpoint's word-embedding table; sentence words found "
                                       "whole in its vocabulary use it, others the hashed vector. Empty: hashed only."))

    def check(self) -> None:
        if self.tokens == "sentence" and not sentence_words(self.sentence):
            raise ParameterError(translate("AttentionSpec", "the sentence has no words; type at least one word, or choose "
                                           "random tokens."))


def sentence_words(text: str) -> list[str]:
    """Words and punctuation marks, lower-cased: the tokens of a typed sentence."""
    return re.findall(r"[\w']+|[^\w\s]", text.lower())


def word_vector(word: str, dim: int) -> torch.Tensor:
    """A deterministic unit-variance vector for a word: its SHA-256 seeds the generator."""
    import torch
    seed = int.from_bytes(hashlib.sha256(word.encode("utf-8")).digest()[:8], "little") & (2**63 - 1)
    return torch.randn(dim, generator=torch.Generator().manual_seed(seed))


def scheme_params_from_document(document: Any, scheme: str) -> tuple[tuple[str, Any], ...]:
    """The chosen scheme's family parameters from a Document, frozen for a request."""
    family = SCHEME_FAMILIES.get(scheme)
    if family is None:
        return ()
    # lists (LongRoPE factors read back from JSON) become tuples, so requests stay hashable
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in document.params.get(family, {}).items()}
    return frozen_params(values)


def scheme_spec(spec: AttentionSpec, scheme_params: tuple = ()) -> Spec | None:
    """The family spec that configures the scheme, sized to this attention (validated), or None
    for a scheme without one.

    Raises ParameterError when the family's settings do not fit, e.g. a learned table shorter
    than the sequence, with the family's own message.  Here, not with the schemes' tensors
    (``schemes``), so a request is checked before torch is loaded.
    """
    values = dict(scheme_params)
    if spec.scheme == "sinusoidal":
        from peapp.encodings.sinusoidal import SinusoidalSpec
        return SinusoidalSpec.from_dict(values).replace(n_positions=min(spec.seq_len, 1_048_576), d_model=spec.head_dim)
    if spec.scheme == "learned":
        from peapp.encodings.learned import LearnedSpec
        return LearnedSpec.from_dict(values).replace(d_model=spec.head_dim, n_positions=spec.seq_len)
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


def checkpoint_name(path: str) -> str:
    """A short name for a checkpoint: the file name, or the last two folders (".../minilm/model")."""
    parts = [p for p in path.replace(os.sep, "/").split("/") if p]
    return "/".join(parts[-2:]) if os.path.isdir(path) else (parts[-1] if parts else path)


__all__ = ["DEFAULT_SENTENCE", "KINDS", "MAX_SEQ_LEN", "POOLINGS", "SCHEMES", "SCHEME_FAMILIES", "SCHEME_LABELS",
           "SINK_KEYS", "TOKEN_SOURCES", "AttentionSpec", "checkpoint_name", "scheme_params_from_document",
           "scheme_spec", "sentence_words", "word_vector"]
