"""The seeded single-layer attention of an :class:`AttentionSpec`: tokens, projections, keys.

* tokens: ``seq_len`` vectors of width ``d = head_dim`` — one repeated token (only position can
  matter), seeded random tokens, or a typed sentence whose words are embedded deterministically
  (each word's vector is seeded by a hash of the word, so the same word always gets the same
  vector);
* per head seeded projections W_q, W_k, W_v of shape [d, head_dim] (std 1/√d, so q and k have
  unit-variance components);
* a scheme strategy (:mod:`peapp.analysis.attention.schemes`) that adds to the tokens, rotates
  q and k, or adds a bias to the logits.

The model is a :class:`peapp.analysis.attention.blocks.BlockSource`: the block machinery
computes its views.
"""

from __future__ import annotations

import math
import threading
from typing import Any

import numpy as np
import torch

from peapp.analysis.attention.blocks import BlockSource
from peapp.device import resolve_device
from peapp.analysis.attention.schemes import scheme_spec, scheme_type
from peapp.analysis.attention.spec import AttentionSpec, sentence_words, word_vector
from peapp.analysis.attention.threads import Workspace, run_tasks

# Positions per chunk when building keys (bounds the rotation's temporaries).
KEY_CHUNK = 2048


class AttentionModel(BlockSource):
    """Token vectors, projections and cached keys for one (spec, scheme parameters)."""

    def __init__(self, spec: AttentionSpec, scheme_params: tuple = (), *, dtype: torch.dtype = torch.float32,
                 permutation: torch.Tensor | None = None, n_tokens: int | None = None,
                 with_values: bool = False, device: str | torch.device = "cpu"):
        self.spec = spec
        self.device = resolve_device(device)
        self.family_spec = scheme_spec(spec, scheme_params)
        self.n = spec.seq_len if n_tokens is None else n_tokens
        self.h, self.d = spec.n_heads, spec.head_dim
        self.dtype = dtype
        self.causal = spec.causal
        self.scale = 1.0 / math.sqrt(self.d)
        gen = torch.Generator().manual_seed(spec.seed)
        # Weights come from `seed` and tokens from `seed + 1`, never from the scheme: every scheme
        # with the same seed sees the same tokens and weights, so NoPE is the content-only baseline.
        # (Drawn on the CPU generator, then moved: the same numbers on every device.)
        self.wq = (torch.randn(self.h, self.d, self.d, generator=gen).to(dtype) * self.scale).to(self.device)
        self.wk = (torch.randn(self.h, self.d, self.d, generator=gen).to(dtype) * self.scale).to(self.device)
        self.wv = (torch.randn(self.h, self.d, self.d, generator=gen).to(dtype) * self.scale).to(self.device)
        self.words: tuple[str, ...] = ()
        self.embedded: tuple[str, ...] = ()  # sentence words whose vectors came from a checkpoint
        self.x = self._tokens().to(self.device)
        if permutation is not None:
            self.x = self.x[permutation.to(self.device)]
        self.scheme = scheme_type(spec.scheme)(spec, self.family_spec, self.n, dtype, self.device)
        self.pe = self.scheme.added
        # the scheme's tables, under the names callers read
        self.inv_freq: torch.Tensor | None = getattr(self.scheme, "inv_freq", None)
        self.attention_factor: float = getattr(self.scheme, "attention_factor", 1.0)
        self.slopes: torch.Tensor | None = getattr(self.scheme, "slopes", None)
        self.t5_table: torch.Tensor | None = getattr(self.scheme, "t5_table", None)
        self.shaw_vectors: torch.Tensor | None = getattr(self.scheme, "shaw_vectors", None)
        everything = torch.arange(self.n, device=self.device)
        # Keys are stored transposed ([H, d, n] contiguous, ``kt``; ``k`` is the [H, n, d] view):
        # q·kᵀ then reads them in the layout the matrix product wants, and one head's keys are
        # one contiguous block (a head's keys stay in cache while its rows are processed).
        self.kt = self._key_storage(rotate=True, add_pe=True)
        self.k = self.kt.transpose(1, 2)
        self._k0t: torch.Tensor | None = None  # content keys (no position), built when first needed
        self.v = self._project(self.wv, everything, rotate=False) if with_values else None
        self._lse: torch.Tensor | None = None  # [H, n] row normalisers, filled as views compute them
        self._lse_known: np.ndarray | None = None

    def _key_storage(self, *, rotate: bool, add_pe: bool) -> torch.Tensor:
        """Keys [H, d, n], projected (and rotated) in chunks of positions so the temporaries of
        the rotation stay small (a 65,536-token model would otherwise hold several key-sized copies)."""
        out = torch.empty(self.h, self.d, self.n, dtype=self.dtype, device=self.device)

        def chunk(lo: int, ws: Workspace) -> None:  # chunks write disjoint columns: run on all workers
            positions = torch.arange(lo, min(self.n, lo + KEY_CHUNK), device=self.device)
            out[:, :, lo:lo + len(positions)] = self._project(self.wk, positions, rotate=rotate,
                                                              add_pe=add_pe).transpose(1, 2)

        run_tasks(list(range(0, self.n, KEY_CHUNK)), chunk, lambda fraction: None, 0.0, 1.0, device=self.device)
        return out

    @property
    def k0t(self) -> torch.Tensor | None:
        """Content keys [H, d, n] (tokens only, no position) for the RoPE / additive position term."""
        if self._k0t is None and self.scheme.content_term:
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
        trained: dict[str, torch.Tensor] = {}
        if spec.embedding_source:
            from peapp.analysis.checkpoint_tables import model_word_vectors
            trained = model_word_vectors(unique, d, spec.embedding_source)
            self.embedded = tuple(w for w in unique if w in trained)
        table = torch.stack([trained[w] if w in trained else word_vector(w, d) for w in unique]).to(self.dtype)
        index = torch.tensor([unique.index(w) for w in words], dtype=torch.long)
        return table[index.repeat(math.ceil(n / len(words)))[:n]]

    def _project(self, w: torch.Tensor, positions: torch.Tensor, *, rotate: bool,
                 add_pe: bool = True) -> torch.Tensor:
        """[H, len(positions), d]: tokens (plus added position) through each head's matrix."""
        x = self.x[positions]
        if add_pe and self.pe is not None:
            x = x + self.pe[positions]
        out = torch.matmul(x.unsqueeze(0), w)
        if rotate:
            out = self.scheme.rotate(out, positions)
        return out

    def queries(self, rows: torch.Tensor) -> torch.Tensor:
        return self._project(self.wq, rows, rotate=True)

    def content_queries(self, rows: torch.Tensor) -> torch.Tensor:
        return self._project(self.wq, rows, rotate=False, add_pe=False)

    # ---- all heads at once (full matrices, outputs, tests) ----
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
            future = torch.arange(key_start, n_keys, device=self.device).reshape(1, -1) > rows.reshape(-1, 1)
            # only keys after the earliest query can be in anyone's future: fill just those columns
            lo = max(0, int(rows.min()) + 1 - key_start) if len(rows) else 0
            if lo < out.shape[-1]:
                out[..., lo:].masked_fill_(future[:, lo:].unsqueeze(0), mask_value)
        return out, extra, future

    def position_bias(self, rows: torch.Tensor, n_keys: int, q: torch.Tensor | None = None,
                      key_start: int = 0) -> torch.Tensor | None:
        """The additive position part for bias schemes (ALiBi, T5, Shaw) for keys [key_start, n_keys), else None."""
        if q is None and self.scheme.bias_needs_queries:
            q = self.queries(rows)
        return self.scheme.bias(rows, key_start, n_keys, q)

    def position_term(self, rows: torch.Tensor, logits: torch.Tensor, extra: torch.Tensor | None,
                      c0: int, c1: int, key_start: int = 0) -> torch.Tensor:
        """Position's share of the logits of keys [c0, c1) (``logits`` and ``extra`` start at key
        ``key_start``; masked entries are not meaningful, the caller masks)."""
        region = logits[..., c0 - key_start:c1 - key_start]
        k0t = self.k0t
        if k0t is not None:
            content = torch.matmul(self.content_queries(rows), k0t[:, :, c0:c1])
            return region - content.mul_(self.scale)
        if extra is not None:
            return extra[..., c0 - key_start:c1 - key_start].clone()
        return torch.zeros_like(region)

    # ---- one head, a block of query rows: what the views compute ----
    def relative_table(self) -> torch.Tensor | None:
        """ALiBi's or T5's bias by distance, [H, 2n − 1] indexed by key − query + n − 1, else None.

        Both depend on the distance only, so a block's bias is a gather of windows of this table
        (no per-block distance or bucket arithmetic).  Same values as :meth:`position_bias`."""
        return self.scheme.relative_table()

    def head_bias(self, h: int, rows: torch.Tensor, key_start: int, n_keys: int, q: torch.Tensor,
                  out: torch.Tensor) -> torch.Tensor | None:
        """Head ``h``'s additive position part [len(rows), n_keys − key_start] (ALiBi, T5, Shaw)
        written into ``out``, else None.  ``q``: the rows' queries of this head (unscaled)."""
        return self.scheme.head_bias(h, rows, key_start, n_keys, q, out)

    def note(self) -> str:
        """The scheme's settings in a few words (shown in captions)."""
        return self.scheme.note(self.attention_factor)


def model_bytes(spec: AttentionSpec, n_tokens: int | None = None, with_values: bool = False) -> int:
    """Estimated memory of a model's cached tensors (tokens, keys, content keys, values, PE)."""
    n = spec.seq_len if n_tokens is None else n_tokens
    per_head = spec.n_heads * n * spec.head_dim
    count = n * spec.head_dim + per_head  # tokens + keys
    count += scheme_type(spec.scheme).extra_elements(spec, n)
    if with_values:
        count += per_head
    count += spec.n_heads * n  # cached row normalisers
    return 4 * count


_cache_lock = threading.Lock()
_cache: dict[tuple[Any, ...], AttentionModel] = {}


def get_model(spec: AttentionSpec, scheme_params: tuple = (), device: str | torch.device = "cpu") -> AttentionModel:
    """The model for (spec, params, device), reusing the last one (zooming keeps the keys)."""
    resolved = resolve_device(device)
    key = (spec, tuple(scheme_params), str(resolved))
    with _cache_lock:
        model = _cache.get(key)
        if model is None:
            _cache.clear()  # one model at a time: its keys can be hundreds of MB
            model = AttentionModel(spec, scheme_params, device=resolved)
            _cache[key] = model
        return model


__all__ = ["KEY_CHUNK", "AttentionModel", "get_model", "model_bytes"]
