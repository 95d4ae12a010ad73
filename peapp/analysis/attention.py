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

Views never hold an L × L matrix.  The work is split into tasks of one head and a block of query
rows (each row against all its keys, so its softmax is exact), run on every core by worker
threads while each torch op uses one thread (see _run_tasks), with the block's buffers reused.
Each block is pooled (mean or max) into at most ``max_bins`` × ``max_bins`` cells of the
requested region, and adds to the distance profile (along its diagonals), the entropy of its
rows and the attention each key receives.  Rows longer than WHOLE_ROW_KEYS take two passes: their
normalisers (log-sum-exp, cached for later zooms) over key blocks, then the weights key block by
key block.  Where a view would touch more than ``entry_budget`` logits, each row bin uses evenly
spaced sample rows (still exact over all keys) and the view says so.  Memory is estimated and
checked before anything large is allocated; ``progress`` is called between tasks and may raise
:class:`peapp.jobs.Cancelled`.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import threading
from contextlib import contextmanager
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
# Views work on one head and a block of query rows at a time: BLOCK_ENTRIES logits (rows × keys,
# 2 MB), so the block and the weights computed from it stay in cache across the passes over them
# (softmax, entropy, profile, pooling), and the worker's buffers are reused block after block.
BLOCK_ENTRIES = 1 << 19
# Long rows: at least this many rows per block, because each block re-reads the head's keys
# (16 rows of 65,536 keys: 4 MB).
MIN_BLOCK_ROWS = 16
# At most this many rows per block: with a causal mask a block computes the triangle of future keys
# of its rows too (b²/2 wasted logits), so short early rows do not make tall blocks.
MAX_BLOCK_ROWS = 256
# Buffers of block size per worker (logits, weights, bias, position term) plus slack.
_BLOCK_TENSORS = 5
# Rows with more keys than this are computed in two passes over key blocks of KEY_BLOCK keys (see
# attention_view).
WHOLE_ROW_KEYS = 8192
KEY_BLOCK = 8192
# Worker threads of a view; None: as many as torch's intra-op threads (the cores).
WORKERS: int | None = None
# Row normalisers (log-sum-exp over all keys) of rows not seen before are computed for up to
# LSE_ROWS rows at a time against key blocks of LSE_BLOCK_ENTRIES / rows keys (one head), combined
# by log-add-exp; measured fastest with blocks of ~1M logits and 256–512 rows.
LSE_ROWS = 256
LSE_BLOCK_ENTRIES = 1 << 20
MIN_KEY_BLOCK = 256  # narrowest key block
# Positions per chunk when building keys (bounds the rotation's temporaries).
_KEY_CHUNK = 2048
# Logits per stripe of attention_outputs (the shuffle test; H × rows × keys).
STRIPE_ENTRIES = 1 << 20
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
        # Keys are stored transposed ([H, d, n] contiguous, ``kt``; ``k`` is the [H, n, d] view):
        # q·kᵀ then reads them in the layout the matrix product wants, and one head's keys are
        # one contiguous block (a head's keys stay in cache while its rows are processed).
        self.kt = self._key_storage(rotate=True, add_pe=True)
        self.k = self.kt.transpose(1, 2)
        self._k0t: torch.Tensor | None = None  # content keys (no position), built when first needed
        self._relative_table: torch.Tensor | None = None
        self.v = self._project(self.wv, everything, rotate=False) if with_values else None
        self._lse: torch.Tensor | None = None  # [H, n] row normalisers, filled as views compute them
        self._lse_known: np.ndarray | None = None

    def _key_storage(self, *, rotate: bool, add_pe: bool) -> torch.Tensor:
        """Keys [H, d, n], projected (and rotated) in chunks of positions so the temporaries of
        the rotation stay small (a 65,536-token model would otherwise hold several key-sized copies)."""
        out = torch.empty(self.h, self.d, self.n, dtype=self.dtype)

        def chunk(lo: int, ws: _Workspace) -> None:  # chunks write disjoint columns: run on all workers
            positions = torch.arange(lo, min(self.n, lo + _KEY_CHUNK))
            out[:, :, lo:lo + len(positions)] = self._project(self.wk, positions, rotate=rotate,
                                                              add_pe=add_pe).transpose(1, 2)

        _run_tasks(list(range(0, self.n, _KEY_CHUNK)), chunk, lambda fraction: None, 0.0, 1.0)
        return out

    @property
    def k0t(self) -> torch.Tensor | None:
        """Content keys [H, d, n] (tokens only, no position) for the RoPE / additive position term."""
        if self._k0t is None and self.spec.scheme in ("rope", "sinusoidal", "learned"):
            self._k0t = self._key_storage(rotate=False, add_pe=False)
        return self._k0t

    @property
    def k0(self) -> torch.Tensor | None:
        """Content keys as [H, n, d]."""
        k0t = self.k0t
        return None if k0t is None else k0t.transpose(1, 2)

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
            content = torch.matmul(self.content_queries(rows), self.k0t[:, :, c0:c1])
            return region - content.mul_(self.scale)
        if extra is not None:
            return extra[..., c0 - key_start:c1 - key_start].clone()
        return torch.zeros_like(region)

    # ---- one head, a block of query rows: what the views compute ----
    def relative_table(self) -> torch.Tensor | None:
        """ALiBi's or T5's bias by distance, [H, 2n − 1] indexed by key − query + n − 1, else None.

        Both depend on the distance only, so a block's bias is a gather of windows of this table
        (no per-block distance or bucket arithmetic).  Same values as :meth:`position_bias`."""
        if self.spec.scheme not in ("alibi", "t5"):
            return None
        if self._relative_table is None:
            rel = torch.arange(-(self.n - 1), self.n)  # key − query
            if self.spec.scheme == "alibi":
                distance = (-rel).to(self.dtype)  # query − key, as in position_bias
                if not self.spec.causal:
                    distance = distance.abs()
                table = -self.slopes.reshape(-1, 1) * distance.unsqueeze(0)
            else:
                from peapp.encodings.relative import t5_bucket
                fs = self.family_spec
                table = self.t5_table[t5_bucket(rel, not self.spec.causal, fs.num_buckets, fs.max_distance)].T
            self._relative_table = table.contiguous()
        return self._relative_table

    def head_bias(self, h: int, rows: torch.Tensor, key_start: int, n_keys: int, q: torch.Tensor,
                  out: torch.Tensor) -> torch.Tensor | None:
        """Head ``h``'s additive position part [len(rows), n_keys − key_start] (ALiBi, T5, Shaw)
        written into ``out``, else None.  ``q``: the rows' queries of this head (unscaled)."""
        width = n_keys - key_start
        table = self.relative_table()
        if table is not None:
            windows = table[h].unfold(0, width, 1)  # windows[m] = table[h, m : m + width]
            return torch.index_select(windows, 0, key_start + self.n - 1 - rows, out=out)
        if self.spec.scheme == "shaw":
            k = self.family_spec.max_distance
            per_distance = torch.matmul(q, self.shaw_vectors[h].T) * self.scale  # [B, 2k+1]
            index = (torch.arange(key_start, n_keys).reshape(1, -1) - rows.reshape(-1, 1)).clamp_(-k, k).add_(k)
            return torch.gather(per_distance, 1, index, out=out)
        return None

    def head_logits(self, h: int, rows: torch.Tensor, q: torch.Tensor, key_start: int, n_keys: int,
                    out: torch.Tensor, bias_out: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor | None]:
        """Head ``h``'s logits of ascending query ``rows`` against keys [key_start, n_keys), written
        into ``out``: q·k/√d (+ bias), future keys _MASKED.  ``q``: the rows' queries of this head.

        Returns (logits, bias or None).  The same values as :meth:`logits` for one head, without
        temporaries the size of the block (the caller reuses ``out`` and ``bias_out``)."""
        torch.mm(q * self.scale, self.kt[h, :, key_start:n_keys], out=out)
        bias = self.head_bias(h, rows, key_start, n_keys, q, bias_out)
        if bias is not None:
            out.add_(bias)
        if self.spec.causal and len(rows):
            lo = max(0, int(rows[0]) + 1 - key_start)  # only keys after the first row can be masked
            # and only rows before the last key: the others see every key of the block
            last = int(torch.searchsorted(rows, n_keys - 1))
            if lo < out.shape[1] and last:
                future = torch.arange(key_start + lo, n_keys).reshape(1, -1) > rows[:last].reshape(-1, 1)
                out[:last, lo:].masked_fill_(future, _MASKED)
        return out, bias

    def head_position(self, h: int, cq: torch.Tensor | None, logits: torch.Tensor, bias: torch.Tensor | None,
                      k0: int, k1: int, key_start: int, out: torch.Tensor) -> torch.Tensor:
        """Head ``h``'s position term for keys [k0, k1) (``logits``/``bias`` start at key_start);
        ``cq``: the rows' content queries (RoPE and additive schemes).  Same as :meth:`position_term`."""
        region = logits[:, k0 - key_start:k1 - key_start]
        if self.spec.scheme in ("rope", "sinusoidal", "learned"):
            content = torch.mm(cq, self.k0t[h, :, k0:k1], out=out).mul_(self.scale)
            return torch.sub(region, content, out=content)
        if bias is not None:
            return bias[:, k0 - key_start:k1 - key_start]
        return out.zero_()

    # ---- per-row softmax normalisers, cached ----
    def _init_lse(self) -> None:
        if self._lse is None:
            self._lse = torch.zeros(self.h, self.n)
            self._lse_known = np.zeros(self.n, dtype=bool)

    def row_lse(self, rows: np.ndarray, progress: ProgressFn | None = None) -> torch.Tensor:
        """log Σ_j exp(logit_ij) over every key row i may see, [H, len(rows)].

        Rows computed before (by any view of this model) are reused.  The others are computed per
        head in blocks of rows, each row against all its keys (in key blocks of LSE_BLOCK_ENTRIES
        combined by log-add-exp if a row is longer), on all workers: a zoom into a long sequence
        needs O(rows × L × head_dim) work but only a block of memory per worker."""
        self._init_lse()
        missing = np.unique(rows[~self._lse_known[rows]])
        if len(missing):
            rows_t = torch.from_numpy(missing.astype(np.int64))
            q = self.queries(rows_t)
            keys = missing + 1 if self.spec.causal else np.full(len(missing), self.n)
            # Many rows per block, keys in blocks: each key block is read once for LSE_ROWS rows
            # (16 rows against all 65,536 keys re-read a head's 16 MB of keys per block: 2.5× slower).
            blocks = [(a, min(len(missing), a + LSE_ROWS)) for a in range(0, len(missing), LSE_ROWS)]
            tasks = [(h, a, b) for h in range(self.h) for a, b in blocks]

            def work(task: tuple[int, int, int], ws: _Workspace) -> None:
                h, a, b = task
                n_keys = int(keys[b - 1])
                step = max(MIN_KEY_BLOCK, LSE_BLOCK_ENTRIES // (b - a))
                total = torch.full((b - a,), float("-inf"))
                for k0 in range(0, n_keys, step):
                    k1 = min(n_keys, k0 + step)
                    # causal: rows before the key block see none of it (sampled rows of a long
                    # sequence spread over many key blocks: half the block would be masked)
                    first = a + (int(np.searchsorted(missing[a:b], k0)) if self.spec.causal else 0)
                    logits, _ = self.head_logits(h, rows_t[first:b], q[h, first:b], k0, k1,
                                                 ws.take("logits", b - first, k1 - k0), ws.take("bias", b - first, k1 - k0))
                    block = _row_lse(logits, ws.take("probs", b - first, k1 - k0))
                    total[first - a:] = torch.logaddexp(total[first - a:], block)
                self._lse[h, _as_index(rows_t[a:b])] = total

            _run_tasks(tasks, work, progress or (lambda fraction: None), 0.0, 1.0)
            self._lse_known[missing] = True
        return self._lse[:, rows]

    def remember_lse(self, rows: np.ndarray, lse: torch.Tensor) -> None:
        """Keep normalisers a view computed anyway (rows over all their keys)."""
        self._init_lse()
        self._lse[:, rows] = lse.to(torch.float32)
        self._lse_known[rows] = True


def _as_index(rows: torch.Tensor) -> slice | torch.Tensor:
    """A slice for ascending consecutive positions (a view, no index tensor), else the positions."""
    first, last = int(rows[0]), int(rows[-1])
    return slice(first, last + 1) if last - first + 1 == len(rows) else rows


def _weights(logits: torch.Tensor, lse: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    """exp(logits − lse) for a block [B, K] of rows whose log-sum-exp over all keys is ``lse`` [B].

    The block's fused softmax times exp(block lse − lse) per row: exp_ on underflowing inputs
    (masked −1e30, ALiBi's far keys, results in the denormal range) measured 10–30× slower than on
    ordinary ones, and the softmax kernel does not have that slow path.  A fully masked row has
    block lse ≈ −1e30, so its uniform softmax is scaled by exp(−1e30 − lse) = 0."""
    if not logits.shape[-1]:
        return logits
    probs = torch._softmax(logits, -1, False, out=out)
    block_lse = logits.amax(-1).sub_(probs.amax(-1).log_())
    return probs.mul_(block_lse.sub_(lse).exp_().unsqueeze(-1))


def _row_lse(logits: torch.Tensor, probs_out: torch.Tensor) -> torch.Tensor:
    """log Σ exp over each row of ``logits`` [B, K], via the fused softmax: at a row's largest
    logit m the weight is exp(m − lse), so lse = m − log(max weight) — one exp pass, not two, and
    no temporaries (``probs_out`` is reused).  A fully masked row gives ≈ _MASKED, not −inf."""
    probs = torch._softmax(logits, -1, False, out=probs_out)
    return logits.amax(-1).sub_(probs.amax(-1).log_())


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


def _row_blocks(keys: np.ndarray, align: int = 1) -> list[tuple[int, int]]:
    """Split rows into index ranges [a, b) of one head's work: rows × keys (``keys[i]``: the keys
    row i needs, non-decreasing) within BLOCK_ENTRIES, at least MIN_BLOCK_ROWS rows, and a
    multiple of ``align`` rows where that fits (blocks then start on row-bin boundaries)."""
    out, a, total = [], 0, len(keys)
    while a < total:
        longest = min(total - a, MAX_BLOCK_ROWS, max(1, BLOCK_ENTRIES // max(1, int(keys[a]))))
        sizes = np.arange(1, longest + 1)
        fits = int(np.count_nonzero(sizes * keys[a:a + longest] <= BLOCK_ENTRIES))
        b = max(fits, min(MIN_BLOCK_ROWS, total - a))
        if align > 1 and b >= align and a + b < total:
            b -= b % align
        out.append((a, a + b))
        a += b
    return out


class _Workspace:
    """One worker's reusable buffers: a block's logits, weights, bias and position term are
    written into the same memory block after block (a fresh allocation per block costs page
    faults that measured as much as the matrix product itself)."""

    def __init__(self, slot: int):
        self.slot = slot
        self._buffers: dict[str, torch.Tensor] = {}

    def take(self, name: str, rows: int, cols: int) -> torch.Tensor:
        need = rows * cols
        buffer = self._buffers.get(name)
        if buffer is None or buffer.numel() < need:
            buffer = self._buffers[name] = torch.empty(max(need, 1))
        return buffer[:need].view(rows, cols)


def _worker_count() -> int:
    """Threads a view runs on: one per core torch would use."""
    return max(1, WORKERS or torch.get_num_threads())


@contextmanager
def _single_threaded_ops():
    """Each torch op on one thread while the workers run (restored afterwards).

    The workers parallelise over blocks instead.  On a shared 2-core machine, two-thread ops
    (OpenMP, a barrier per op) measured 3–10× slower whenever another process held a core:
    thousands of small ops each waited for the descheduled thread.  Independent blocks do not
    wait for each other."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _run_tasks(tasks: list, work: Callable[[Any, _Workspace], None], progress: ProgressFn,
               start: float, stop: float) -> None:
    """Run ``work(task, workspace)`` for every task on up to _worker_count() threads.

    Tasks must be independent (each writes its own slots, or its worker's accumulators, found by
    ``workspace.slot``).  The calling thread works too and reports progress from ``start`` to
    ``stop`` after each of its tasks and while it waits for the others' last ones; when progress
    raises (Cancelled), the other workers stop after their current task and the exception
    propagates.  An exception in a worker stops all
    and is raised here.  Every thread is joined before returning."""
    workers = min(_worker_count(), len(tasks))
    lock = threading.Lock()
    state = {"next": 0, "done": 0}
    stop_event = threading.Event()
    errors: list[BaseException] = []

    def take() -> int | None:
        with lock:
            if stop_event.is_set() or state["next"] >= len(tasks):
                return None
            state["next"] += 1
            return state["next"] - 1

    def finished() -> None:
        with lock:
            state["done"] += 1

    def helper(slot: int) -> None:
        ws = _Workspace(slot)
        try:
            while (index := take()) is not None:
                work(tasks[index], ws)
                finished()
        except BaseException as exc:  # re-raised by the calling thread
            errors.append(exc)
            stop_event.set()

    with _single_threaded_ops():
        if workers <= 1:
            ws = _Workspace(0)
            for i, task in enumerate(tasks):
                work(task, ws)
                progress(start + (stop - start) * (i + 1) / len(tasks))
            return
        threads = [threading.Thread(target=helper, args=(slot,), name=f"attention-worker-{slot}")
                   for slot in range(1, workers)]
        for thread in threads:
            thread.start()
        try:
            ws = _Workspace(0)
            while (index := take()) is not None:
                work(tasks[index], ws)
                finished()
                progress(start + (stop - start) * state["done"] / len(tasks))
            while any(thread.is_alive() for thread in threads):  # the others' last tasks: stay cancellable
                threads[-1].join(timeout=0.05)
                threads.sort(key=lambda thread: thread.is_alive())
                progress(start + (stop - start) * state["done"] / len(tasks))
        except BaseException:
            stop_event.set()
            raise
        finally:
            for thread in threads:
                thread.join()
    if errors:
        raise errors[0]


def _skewed_sums(part: torch.Tensor) -> torch.Tensor:
    """Σ_i part[i, j] grouped by j − i, for a small block [b, m]: index j − i + b − 1 (m + b − 1 sums).

    The block is copied into the middle of rows padded with b − 1 zeros on each side; read with a
    row stride one longer, each diagonal of the block becomes a column."""
    b, m = part.shape
    width = m + 2 * (b - 1)
    padded = torch.zeros(b, width)
    padded[:, b - 1:b - 1 + m] = part
    return padded.as_strided((b, m + b - 1), (width + 1, 1)).sum(0)


def _add_diagonal_sums(out: torch.Tensor, block: torch.Tensor, start: int) -> None:
    """out[start + j − i] += block[i, j] for a contiguous block [b, w] (w ≥ b): the distance
    profile of consecutive query rows, without a loop over rows or a copy of the block.

    A view with row stride w + 1 lines up block[i, i + c] in column c, covering the offsets
    0 … w − b that every row has; the two b × (b − 1) corners (offsets below 0 and above w − b)
    are summed through a small padded copy."""
    b, w = block.shape
    out[start:start + w - b + 1] += block.as_strided((b, w - b + 1), (w + 1, 1)).sum(0)
    if b > 1:
        out[start - (b - 1):start] += _skewed_sums(block[:, :b - 1])[:b - 1]  # offsets −(b−1) … −1
        out[start + w - b + 1:start + w] += _skewed_sums(block[:, w - b + 1:])[b - 1:]  # w−b+1 … w−1


def _add_profile(out: torch.Tensor, probs: torch.Tensor, rows: np.ndarray, n: int, key_start: int = 0) -> None:
    """Add each row's weights (keys key_start … key_start + k − 1) to ``out`` indexed by
    key − query + n − 1."""
    b, k = probs.shape
    if int(rows[-1]) - int(rows[0]) == b - 1 and k >= b:  # consecutive rows: along the diagonals
        _add_diagonal_sums(out, probs, n - 1 - int(rows[0]) + key_start)
        return
    for i, row in enumerate(rows):  # sampled rows: one slice per row
        lo = n - 1 - int(row) + key_start
        out[lo:lo + k] += probs[i]


def _accumulate(acc: torch.Tensor, region: torch.Tensor, row_cells: torch.Tensor, aligned_bin: int,
                col_bin: int, n_col_bins: int, use_max: bool, nonnegative: bool, offset: int = 0) -> torch.Tensor | None:
    """Pool one head's block ``region`` [B, w] (the region's columns offset … offset + w − 1) into
    its cells ``acc`` [row bins, col bins]: sum (mean) or max.  ``row_cells``: each row's row bin.

    ``aligned_bin`` > 0: the rows are whole consecutive row bins of that height starting at a bin
    boundary, so rows are summed in groups first (one pass, then the small result is pooled by
    columns; the row-group sums are returned).  Otherwise each row is pooled by columns and added
    to its row bin (returns None)."""
    b, w = region.shape
    if aligned_bin and not use_max:
        grouped = _group_rows(region, aligned_bin)
        first = int(row_cells[0])
        acc[first:first + len(grouped)] += _pool_span(grouped, offset, col_bin, n_col_bins, False, nonnegative)
        return grouped
    cells = _pool_span(region, offset, col_bin, n_col_bins, use_max, nonnegative)
    if use_max:
        acc.scatter_reduce_(0, row_cells.reshape(-1, 1).expand(-1, cells.shape[1]), cells, "amax")
    else:
        acc.index_add_(0, row_cells, cells)
    return None


def _group_rows(block: torch.Tensor, size: int) -> torch.Tensor:
    """Sums of consecutive groups of ``size`` rows of a block [B, w] (B a multiple of size).

    For small groups, ``size`` slice additions: measured 2× faster than a reduction over the
    middle axis of a [B/size, size, w] view."""
    groups = block.view(block.shape[0] // size, size, block.shape[1])
    if size > 16:
        return groups.sum(1)
    out = groups[:, 0].clone()
    for i in range(1, size):
        out += groups[:, i]
    return out


def estimate_view_bytes(spec: AttentionSpec, row_bins: int, col_bins: int, kind: str = "softmax",
                        rows: int | None = None) -> int:
    """Memory a view needs: cached model (content keys only for the position term of RoPE and
    the additive schemes), a chunk of key-building temporaries, each worker's block buffers and
    accumulators, the queries of the evaluated rows, outputs and profile."""
    h, n, d = spec.n_heads, spec.seq_len, spec.head_dim
    rows = n if rows is None else rows
    workers = _worker_count()
    block = max(BLOCK_ENTRIES, MIN_BLOCK_ROWS * n, LSE_BLOCK_ENTRIES)
    per_worker = block * 4 * _BLOCK_TENSORS + (h * row_bins * col_bins + 3 * h * n) * 4
    content = kind == "position" and spec.scheme in ("rope", "sinusoidal", "learned")
    model = model_bytes(spec) - (0 if content else 4 * h * n * d * (spec.scheme in ("rope", "sinusoidal", "learned")))
    building = 6 * h * min(n, _KEY_CHUNK) * d * 4
    queries = h * rows * d * 4 * (2 if content else 1)
    outputs = h * row_bins * col_bins * 8 * 2 + row_bins * col_bins * 4
    profile = h * (2 * n) * 8 * 2 + h * rows * 4 * 2
    return model + building + workers * per_worker + queries + outputs + profile


def attention_view(spec: AttentionSpec, scheme_params: tuple = (), kind: str = "softmax",
                   pooling: str = "mean", rows: tuple[int, int | None] = (0, None),
                   cols: tuple[int, int | None] = (0, None), max_bins: int = 512,
                   progress: ProgressFn | None = None, entry_budget: int = ENTRY_BUDGET,
                   memory_budget: int | None = None, with_profile: bool = True) -> AttentionView:
    """All heads' ``kind`` matrix over a region, pooled to at most ``max_bins`` per side.

    ``with_profile`` False skips the distance profile and entropy (a zoom needs only the region).
    The work is split into (head, block of query rows) tasks run on every core; see _run_tasks.
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
    eval_rows, rows_per_bin = _rows_to_evaluate(r0, r1, row_bin, keys_per_row, h, entry_budget)
    estimated = estimate_view_bytes(spec, n_row_bins, n_col_bins, kind, len(eval_rows))
    ensure_fits((estimated,), 1, what="the attention view", budget=memory_budget,
                suggestion="use fewer tokens, heads or a smaller head_dim")
    progress = progress or (lambda fraction: None)
    scheme_spec(spec, scheme_params)  # validate the scheme's settings before the expensive part
    progress(0.0)
    model = get_model(spec, scheme_params)
    progress(0.02)

    use_max = pooling == "max"
    nonnegative = kind == "softmax"
    fill = float("-inf") if use_max else 0.0  # what a masked entry contributes to a cell
    rows_t = torch.from_numpy(eval_rows.astype(np.int64))
    row_cells = (rows_t - r0) // row_bin
    dense = len(eval_rows) == r1 - r0  # every row of the region (not sampled)
    aligned_bin = row_bin if dense and not use_max and row_bin > 1 else 0
    q = model.queries(rows_t)
    cq = model.content_queries(rows_t) if kind == "position" and model.k0t is not None else None
    col_starts = torch.arange(c0, c1, col_bin)
    col_widths = (torch.clamp(col_starts + col_bin, max=c1) - col_starts).to(torch.float32)

    # Per worker (slot): cells, distance-profile sums and received weights; summed at the end.
    sums: dict[int, dict[str, torch.Tensor]] = {}

    def accumulators(slot: int) -> dict[str, torch.Tensor]:
        if slot not in sums:
            # weights ≥ 0 and a masked weight (0) counts as an entry: a max of weights starts at 0
            sums[slot] = {"cells": torch.full((h, n_row_bins, n_col_bins), 0.0 if nonnegative else fill),
                          "profile": torch.zeros(h, 2 * n - 1) if with_profile else None,
                          "received": torch.zeros(h, n) if with_profile else None}
        return sums[slot]

    entropy = torch.zeros(h, len(eval_rows) if with_profile else 0)

    def pool(task_h: int, a: int, b: int, ws: _Workspace, logits: torch.Tensor, bias: torch.Tensor | None,
             probs: torch.Tensor | None, key_start: int, k0: int, k1: int) -> torch.Tensor | None:
        """Pool the block's region columns [k0, k1) into the worker's cells (returns the row-group
        sums of the region when it pooled them, see _accumulate)."""
        if kind == "softmax":
            region = probs[:, k0 - key_start:k1 - key_start]
        elif kind == "logits":
            region = logits[:, k0 - key_start:k1 - key_start]
        else:
            region = model.head_position(task_h, None if cq is None else cq[task_h, a:b], logits, bias, k0, k1,
                                         key_start, ws.take("position", b - a, k1 - k0))
        if spec.causal and kind != "softmax" and k1 > k0:  # masked entries do not count (see counts)
            lo = max(0, int(eval_rows[a]) + 1 - k0)
            if lo < k1 - k0:
                future = torch.arange(k0 + lo, k1).reshape(1, -1) > rows_t[a:b].reshape(-1, 1)
                region[:, lo:].masked_fill_(future, fill)
        block_aligned = aligned_bin if (b - a) % max(1, aligned_bin) == 0 and int(eval_rows[a] - r0) % max(1, aligned_bin) == 0 else 0
        return _accumulate(accumulators(ws.slot)["cells"][task_h], region, row_cells[a:b], block_aligned,
                           col_bin, n_col_bins, use_max, nonnegative, offset=k0 - c0)

    keys = eval_rows + 1 if spec.causal else np.full(len(eval_rows), n)  # keys each row sees
    if with_profile and int(keys[-1]) > WHOLE_ROW_KEYS:
        # Long rows, two passes: each row's normaliser first (cached; many rows against key blocks),
        # then the weights exp(logit − lse) key block by key block.  Whole rows of 65,536 keys fit
        # only 16-row blocks that re-read the head's 16 MB of keys per block: the matrix product
        # measured 2–3× slower that way than in both passes together.
        lse_all = model.row_lse(eval_rows, lambda f: progress(0.02 + 0.38 * f))
        # Tasks are (head, key block): the block's keys stay in cache while every row that sees
        # them passes, RUN_ROWS at a time (causal: only rows at or after the block's first key).
        spans = [(k0, min(int(keys[-1]), k0 + KEY_BLOCK)) for k0 in range(0, int(keys[-1]), KEY_BLOCK)]
        run = max(1, LSE_BLOCK_ENTRIES // KEY_BLOCK)
        weighted = torch.zeros(h, len(eval_rows))  # Σ_j p·logit per row, summed over the workers' parts

        def work(task: tuple[int, int, int], ws: _Workspace) -> None:
            task_h, k0, k1 = task
            acc = accumulators(ws.slot)
            if "weighted" not in acc:
                acc["weighted"] = torch.zeros(h, len(eval_rows))
            first = int(np.searchsorted(eval_rows, k0)) if spec.causal else 0
            for a in range(first, len(eval_rows), run):
                b = min(len(eval_rows), a + run)
                end = min(k1, int(keys[b - 1]))  # causal: no row of the run sees keys past its last row
                logits, bias = model.head_logits(task_h, rows_t[a:b], q[task_h, a:b], k0, end,
                                                 ws.take("logits", b - a, end - k0), ws.take("bias", b - a, end - k0))
                probs = _weights(logits, lse_all[task_h, a:b], ws.take("probs", b - a, end - k0))
                acc["weighted"][task_h, a:b] += torch.mul(probs, logits, out=ws.take("product", b - a, end - k0)).sum(-1)
                _add_profile(acc["profile"][task_h], probs, eval_rows[a:b], n, key_start=k0)
                acc["received"][task_h, k0:end] += probs.sum(0)
                if max(c0, k0) < min(c1, end):
                    pool(task_h, a, b, ws, logits, bias, probs, k0, max(c0, k0), min(c1, end))

        _run_tasks([(hh, k0, k1) for hh in range(h) for k0, k1 in spans], work, progress, 0.4, 1.0)
        for part in sums.values():
            weighted += part.get("weighted", 0)
        entropy = lse_all - weighted
    elif with_profile:  # every row against all its keys: the profile and entropy need whole rows
        blocks = _row_blocks(keys, align=aligned_bin or 1)

        def work(task: tuple[int, int, int], ws: _Workspace) -> None:
            task_h, a, b = task
            n_keys = int(keys[b - 1])
            part = rows_t[a:b]
            logits, bias = model.head_logits(task_h, part, q[task_h, a:b], 0, n_keys,
                                             ws.take("logits", b - a, n_keys), ws.take("bias", b - a, n_keys))
            probs = torch._softmax(logits, -1, False, out=ws.take("probs", b - a, n_keys))
            # log-sum-exp without another exp pass: at the largest logit, p = exp(top − lse)
            lse = logits.amax(-1).sub_(probs.amax(-1).log_())
            model._lse[task_h, _as_index(part)] = lse
            # −Σ p log p with log p = logit − lse; masked logits are −1e30 with p = 0 (0·−1e30 = 0).
            # For weights the products overwrite the logits (not needed after this; one buffer less
            # in cache).  torch.linalg.vecdot measured 10× slower than this product and row sum.
            product = logits if kind == "softmax" else ws.take("product", b - a, n_keys)
            entropy[task_h, a:b] = lse - torch.mul(probs, logits, out=product).sum(-1)
            acc = accumulators(ws.slot)
            _add_profile(acc["profile"][task_h], probs, eval_rows[a:b], n)
            k1 = max(c0, min(c1, n_keys))  # causal: the region's columns after the block's last row are masked
            k0 = c0
            grouped = pool(task_h, a, b, ws, logits, bias, probs, 0, k0, k1)
            if grouped is not None and kind == "softmax" and (k0, k1) == (0, n_keys):
                acc["received"][task_h, :n_keys] += grouped.sum(0)  # the row groups of the weights already summed
            else:
                acc["received"][task_h, :n_keys] += probs.sum(0)

        model._init_lse()
        _run_tasks([(hh, a, b) for hh in range(h) for a, b in blocks], work, progress, 0.02, 1.0)
        model._lse_known[eval_rows] = True
    else:  # a region only: its columns, plus (for weights) each row's normaliser over all keys, cached
        lse_rows = model.row_lse(eval_rows, lambda f: progress(0.02 + 0.78 * f)) if kind == "softmax" else None
        keys = np.clip(eval_rows + 1, c0, c1) - c0 if spec.causal else np.full(len(eval_rows), c1 - c0)
        blocks = _row_blocks(np.maximum(keys, 1), align=aligned_bin or 1)

        def work(task: tuple[int, int, int], ws: _Workspace) -> None:
            task_h, a, b = task
            k1 = c0 + int(keys[b - 1])
            logits, bias, probs = torch.empty(b - a, 0), None, None
            if k1 > c0:
                logits, bias = model.head_logits(task_h, rows_t[a:b], q[task_h, a:b], c0, k1,
                                                 ws.take("logits", b - a, k1 - c0), ws.take("bias", b - a, k1 - c0))
            if kind == "softmax":  # masked logits are −1e30: weight 0
                probs = _weights(logits, lse_rows[task_h, a:b], ws.take("probs", b - a, logits.shape[1]))
            pool(task_h, a, b, ws, logits, bias, probs, c0, c0, k1)

        base = 0.8 if kind == "softmax" else 0.02
        _run_tasks([(hh, a, b) for hh in range(h) for a, b in blocks], work, progress, base, 1.0)

    parts = list(sums.values())
    acc = parts[0]["cells"]
    for part in parts[1:]:
        acc = torch.maximum(acc, part["cells"]) if use_max else acc.add_(part["cells"])
    if use_max:
        values = acc.masked_fill(torch.isneginf(acc), float("nan"))
    else:
        # entries per cell: every column of the cell, or for masked logits / position only keys ≤ the query
        if spec.causal and kind != "softmax":
            width = torch.clamp(rows_t.reshape(-1, 1) + 1 - col_starts.reshape(1, -1), min=0)
            row_counts = torch.minimum(width.to(torch.float32), col_widths.reshape(1, -1))
        else:
            row_counts = col_widths.reshape(1, -1).expand(len(eval_rows), -1)
        counts = torch.zeros(n_row_bins, n_col_bins).index_add_(0, row_cells, row_counts.contiguous())
        values = acc / counts.unsqueeze(0)  # 0/0 → NaN: every entry of the cell masked

    distances, profile = np.zeros(0, dtype=np.int64), np.zeros((h, 0), dtype=np.float32)
    received, last_query = torch.zeros(h, 0), torch.zeros(h, 0)
    if with_profile:
        prof_sum = sum(part["profile"] for part in parts).flip(-1)  # key − query + n − 1 → query − key + n − 1
        # rows evaluated per distance d = row − j: the allowed keys j of each row, as a difference array
        last_key = eval_rows if spec.causal else np.full(len(eval_rows), n - 1)
        prof_count = np.zeros(2 * n, dtype=np.int64)
        np.add.at(prof_count, n - 1 + eval_rows - last_key, 1)
        np.add.at(prof_count, n + eval_rows, -1)
        counts_per_index = np.cumsum(prof_count)[: 2 * n - 1]
        seen = counts_per_index > 0
        profile = (prof_sum.numpy()[:, seen] / counts_per_index[seen]).astype(np.float32)
        distances = np.arange(-(n - 1), n)[seen]
        received = sum(part["received"] for part in parts) / len(eval_rows)
        last_query = last_query_weights(model)
    entropy_positions = eval_rows if with_profile else eval_rows[:0]

    extras: dict[str, Any] = {}
    if spec.scheme == "alibi":
        extras["slopes"] = model.slopes.to(torch.float32).numpy()
    if spec.scheme == "t5":
        extras.update(_t5_staircase(model))
    extras["scheme_note"] = scheme_note(model)
    return AttentionView(
        spec=spec, kind=kind, pooling=pooling, values=values.to(torch.float32).numpy(),
        row_start=r0, row_stop=r1, col_start=c0, col_stop=c1, row_bin=row_bin, col_bin=col_bin,
        rows_per_bin=rows_per_bin, distances=distances, profile=profile,
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


def _pool_span(region: torch.Tensor, offset: int, size: int, n_bins: int, use_max: bool,
               nonnegative: bool) -> torch.Tensor:
    """_pool_region for one block [B, w] whose first column is column ``offset`` of the region (a
    key block of long rows): [B, n_bins]; a bin cut by the block's start gets the block's part."""
    first, skip = divmod(offset, size)
    if not first and not skip:
        return _pool_region(region.unsqueeze(0), size, n_bins, use_max, nonnegative)[0]
    b, w = region.shape
    out = torch.full((b, n_bins), 0.0 if not use_max or nonnegative else float("-inf"))
    if skip:
        head = region[:, :min(w, size - skip)]
        out[:, first] = head.amax(-1) if use_max else head.sum(-1)
        region, first = region[:, head.shape[1]:], first + 1
    if region.shape[1]:
        out[:, first:] = _pool_region(region.unsqueeze(0), size, n_bins - first, use_max, nonnegative)[0]
    return out


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
