"""One strategy object per positional scheme: how it enters the seeded attention.

A scheme can act in three places, and each class below says which:

* ``added``: a table added to the token vectors before projection (sinusoidal, learned);
* :meth:`Scheme.rotate`: a transform of the projected queries and keys (RoPE);
* :meth:`Scheme.bias` / :meth:`Scheme.head_bias`: an additive term of the logits (ALiBi, T5,
  Shaw).

``content_term`` says how the *position term* (position's share of the logits) is found: for
schemes that change q and k (RoPE, the additive ones) it is the logits minus the same tokens'
content-only logits; for bias schemes it is the bias itself; NoPE has none.

The classes hold their per-model tables (slopes, bucket table, relative vectors, frequencies),
built on the model's device; :data:`SCHEME_TYPES` maps scheme names to them.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import torch

from peapp.analysis.attention.spec import AttentionSpec, checkpoint_name, scheme_params_from_document, scheme_spec
from peapp.i18n import translate
from peapp.params import Spec


class Scheme:
    """NoPE, and the defaults every scheme shares: nothing added, rotated or biased."""

    name: ClassVar[str] = "nope"
    content_term: ClassVar[bool] = False  # position term = logits − content-only logits
    bias_needs_queries: ClassVar[bool] = False  # the bias depends on q (Shaw)
    relative: ClassVar[bool] = False  # the bias depends on key − query only (a table by distance)

    def __init__(self, spec: AttentionSpec, family_spec: Spec | None, n: int, dtype: torch.dtype,
                 device: torch.device):
        self.spec, self.family_spec, self.n = spec, family_spec, n
        self.h, self.d = spec.n_heads, spec.head_dim
        self.dtype, self.device = dtype, device
        self.scale = 1.0 / math.sqrt(self.d)
        self.added: torch.Tensor | None = None  # [n, d] added to the token vectors
        self._relative_table: torch.Tensor | None = None

    @classmethod
    def extra_elements(cls, spec: AttentionSpec, n: int) -> int:
        """Tensor elements the model caches for this scheme beyond tokens, keys and normalisers."""
        return 0

    def rotate(self, projected: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        """Projected queries or keys [H, len(positions), d] as the scheme transforms them."""
        return projected

    def bias(self, rows: torch.Tensor, key_start: int, n_keys: int, q: torch.Tensor | None) -> torch.Tensor | None:
        """All heads' additive logit term [H, len(rows), n_keys − key_start], or None."""
        return None

    def relative_table(self) -> torch.Tensor | None:
        """The bias by distance, [H, 2n − 1] indexed by key − query + n − 1, for schemes whose
        bias depends on the distance only (a block's bias is then a gather of windows)."""
        return None

    def head_bias(self, h: int, rows: torch.Tensor, key_start: int, n_keys: int, q: torch.Tensor,
                  out: torch.Tensor) -> torch.Tensor | None:
        """Head ``h``'s additive term [len(rows), n_keys − key_start] written into ``out``, else None.
        ``q``: the rows' queries of this head (unscaled)."""
        table = self.relative_table()
        if table is None:
            return None
        width = n_keys - key_start
        windows = table[h].unfold(0, width, 1)  # windows[m] = table[h, m : m + width]
        return torch.index_select(windows, 0, key_start + self.n - 1 - rows, out=out)

    def note(self, attention_factor: float = 1.0) -> str:
        """The scheme's settings in a few words (shown in captions)."""
        return translate("AttentionSchemes", "nothing added anywhere")

    def view_extras(self) -> dict[str, Any]:
        """Scheme-specific arrays an attention view carries (ALiBi slopes, T5 staircase)."""
        return {}


class Sinusoidal(Scheme):
    name = "sinusoidal"
    content_term = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        from peapp.encodings import sinusoidal
        fs: Any = self.family_spec
        self.added = sinusoidal.rows(torch.arange(self.n), self.d, fs.base, fs.layout).to(self.dtype).to(self.device)

    @classmethod
    def extra_elements(cls, spec: AttentionSpec, n: int) -> int:
        return spec.n_heads * n * spec.head_dim + n * spec.head_dim  # content keys + the table

    def note(self, attention_factor: float = 1.0) -> str:
        fs: Any = self.family_spec
        if fs.layout == "interleaved":
            return translate("AttentionSchemes", "interleaved layout, base {base}").format(base=f"{fs.base:g}")
        return translate("AttentionSchemes", "concatenated layout, base {base}").format(base=f"{fs.base:g}")


class Learned(Scheme):
    name = "learned"
    content_term = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        from peapp.encodings.learned import LearnedTable
        fs: Any = self.family_spec
        table = LearnedTable.random(fs.max_positions, self.d, fs.seed)
        # GPT-2/BERT init has std 0.02 against token embeddings of similar size; our tokens
        # have std 1, so the table is rescaled to std 1 to stay comparable.
        self.added = (table.lookup(torch.arange(self.n)) / 0.02).to(self.dtype).to(self.device)

    @classmethod
    def extra_elements(cls, spec: AttentionSpec, n: int) -> int:
        return spec.n_heads * n * spec.head_dim + n * spec.head_dim

    def note(self, attention_factor: float = 1.0) -> str:
        fs: Any = self.family_spec
        return translate("AttentionSchemes", "seeded {rows}-row table (seed {seed}), rescaled to std 1 like the tokens").format(
            rows=f"{fs.max_positions:,}", seed=fs.seed)


class Rope(Scheme):
    name = "rope"
    content_term = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        fs: Any = self.family_spec
        inv_freq, self.attention_factor = fs.inv_freq(self.n)
        self.inv_freq: torch.Tensor = inv_freq.to(self.device)

    @classmethod
    def extra_elements(cls, spec: AttentionSpec, n: int) -> int:
        return spec.n_heads * n * spec.head_dim  # content keys

    def rotate(self, projected: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        from peapp.encodings import rope
        fs: Any = self.family_spec
        return rope.apply(projected, positions, self.inv_freq, fs.layout, self.attention_factor)

    def note(self, attention_factor: float = 1.0) -> str:
        fs: Any = self.family_spec
        note = (translate("AttentionSchemes", "half-split pairs") if fs.layout == "half"
                else translate("AttentionSchemes", "interleaved pairs"))
        note += translate("AttentionSchemes", ", base {base}").format(base=f"{fs.base:g}")
        if fs.rotary_dim != fs.head_dim:
            note += translate("AttentionSchemes", ", {rotary} of {dims} dims rotate").format(rotary=fs.rotary_dim, dims=fs.head_dim)
        kind = getattr(fs, "rope_type", None)
        if kind not in (None, "default"):
            note += translate("AttentionSchemes", ", {kind} scaling").format(kind=_rope_type_name(kind))
        if self.attention_factor != 1.0:
            note += translate("AttentionSchemes", ", attention factor {factor}").format(factor=f"{self.attention_factor:.4g}")
        return note


def _rope_type_name(kind: str) -> str:
    """A RoPE scaling type as captions name it."""
    # English keeps the config's own value (rope_type); a translation may write the field's name
    names = {"linear": translate("AttentionSchemes", "linear"), "dynamic": translate("AttentionSchemes", "dynamic"),
             "ntk": translate("AttentionSchemes", "ntk"), "yarn": translate("AttentionSchemes", "yarn"),
             "llama3": translate("AttentionSchemes", "llama3"), "longrope": translate("AttentionSchemes", "longrope")}
    return names.get(kind, kind)


class Alibi(Scheme):
    name = "alibi"
    relative = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        from peapp.encodings.alibi import slopes
        self.slopes: torch.Tensor = slopes(self.h).to(self.dtype).to(self.device)

    def bias(self, rows: torch.Tensor, key_start: int, n_keys: int, q: torch.Tensor | None) -> torch.Tensor:
        keys = torch.arange(key_start, n_keys, dtype=self.dtype, device=self.device)
        distance = rows.to(self.dtype).reshape(-1, 1) - keys.reshape(1, -1)
        if not self.spec.causal:
            distance = distance.abs()
        # Canonical ALiBi: −slope·(i − j); masked keys are handled by the caller's mask.
        return -self.slopes.reshape(-1, 1, 1) * distance.unsqueeze(0)

    def relative_table(self) -> torch.Tensor:
        if self._relative_table is None:
            rel = torch.arange(-(self.n - 1), self.n, device=self.device)  # key − query
            distance = (-rel).to(self.dtype)  # query − key, as in bias
            if not self.spec.causal:
                distance = distance.abs()
            self._relative_table = (-self.slopes.reshape(-1, 1) * distance.unsqueeze(0)).contiguous()
        return self._relative_table

    def note(self, attention_factor: float = 1.0) -> str:
        return translate("AttentionSchemes", "canonical form −slope·(i − j)")

    def view_extras(self) -> dict[str, Any]:
        return {"slopes": self.slopes.to(torch.float32).cpu().numpy()}


class T5(Scheme):
    name = "t5"
    relative = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        from peapp.encodings.relative import random_t5_table
        fs: Any = self.family_spec
        if self.spec.t5_source:
            from peapp.analysis.checkpoint_tables import trained_t5_table
            table = trained_t5_table(self.spec.t5_source, fs.num_buckets, self.h)
        else:
            table = random_t5_table(fs.num_buckets, self.h, self.spec.seed)
        self.t5_table: torch.Tensor = table.to(self.dtype).to(self.device)

    def bias(self, rows: torch.Tensor, key_start: int, n_keys: int, q: torch.Tensor | None) -> torch.Tensor:
        from peapp.encodings.relative import t5_bias
        fs: Any = self.family_spec
        # relative positions only: shift queries instead of keys
        return t5_bias(self.t5_table, len(rows), n_keys - key_start, not self.spec.causal, fs.max_distance,
                       query_positions=(rows - key_start).cpu())

    def relative_table(self) -> torch.Tensor:
        if self._relative_table is None:
            from peapp.encodings.relative import t5_bucket
            fs: Any = self.family_spec
            rel = torch.arange(-(self.n - 1), self.n)  # key − query
            buckets = t5_bucket(rel, not self.spec.causal, fs.num_buckets, fs.max_distance).to(self.device)
            self._relative_table = self.t5_table[buckets].T.contiguous()
        return self._relative_table

    def note(self, attention_factor: float = 1.0) -> str:
        fs: Any = self.family_spec
        source = self.spec.t5_source
        table = (translate("AttentionSchemes", "trained bias table {tensor} of {checkpoint}").format(
            tensor=source.rpartition("::")[2], checkpoint=checkpoint_name(source.rpartition("::")[0]))
                 if source else translate("AttentionSchemes", "seeded bias table"))
        return translate("AttentionSchemes", "{buckets} buckets, max distance {distance}, {table}; q·k is scaled by "
                         "1/√d here too (T5 folds it into its weights)").format(
            buckets=fs.num_buckets, distance=fs.max_distance, table=table)

    def view_extras(self) -> dict[str, Any]:
        """The bucket staircase: relative positions, their buckets and the bias table."""
        from peapp.encodings.relative import t5_bucket
        fs: Any = self.family_spec
        reach = max(2 * fs.max_distance, 16)
        rel = torch.arange(-reach, reach + 1)
        buckets = t5_bucket(rel, not self.spec.causal, fs.num_buckets, fs.max_distance)
        return {"t5_relative": rel.numpy(), "t5_buckets": buckets.numpy(),
                "t5_table": self.t5_table.to(torch.float32).cpu().numpy()}


class Shaw(Scheme):
    name = "shaw"
    bias_needs_queries = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        fs: Any = self.family_spec
        k = fs.max_distance
        generator = torch.Generator().manual_seed(self.spec.seed + 7919)
        self.shaw_vectors: torch.Tensor = torch.randn(self.h, 2 * k + 1, self.d, generator=generator).to(
            self.dtype).to(self.device)

    def bias(self, rows: torch.Tensor, key_start: int, n_keys: int, q: torch.Tensor | None) -> torch.Tensor:
        from peapp.encodings.relative import shaw_distance
        assert q is not None  # bias_needs_queries: the model passes them
        k: int = self.family_spec.max_distance  # type: ignore[union-attr]
        per_distance = torch.matmul(q, self.shaw_vectors.transpose(1, 2)) * self.scale  # [H, B, 2k+1]
        index = shaw_distance(len(rows), n_keys - key_start, k, query_positions=(rows - key_start).cpu()) + k
        return torch.gather(per_distance, 2, index.to(self.device).unsqueeze(0).expand(self.h, -1, -1))

    def head_bias(self, h: int, rows: torch.Tensor, key_start: int, n_keys: int, q: torch.Tensor,
                  out: torch.Tensor) -> torch.Tensor:
        k: int = self.family_spec.max_distance  # type: ignore[union-attr]
        per_distance = torch.matmul(q, self.shaw_vectors[h].T) * self.scale  # [B, 2k+1]
        keys = torch.arange(key_start, n_keys, device=self.device)
        index = (keys.reshape(1, -1) - rows.reshape(-1, 1)).clamp_(-k, k).add_(k)
        return torch.gather(per_distance, 1, index, out=out)

    def note(self, attention_factor: float = 1.0) -> str:
        fs: Any = self.family_spec
        return translate("AttentionSchemes", "distances clipped to ±{distance}, seeded relative vectors").format(distance=fs.max_distance)


SCHEME_TYPES: dict[str, type[Scheme]] = {cls.name: cls for cls in (Scheme, Sinusoidal, Learned, Rope, Alibi, T5, Shaw)}


def scheme_type(name: str) -> type[Scheme]:
    """The strategy class of a scheme name (AttentionSpec validates the name)."""
    return SCHEME_TYPES[name]


__all__ = [
    "SCHEME_TYPES",
    "T5",
    "Alibi",
    "Learned",
    "Rope",
    "Scheme",
    "Shaw",
    "Sinusoidal",
    "checkpoint_name",
    "scheme_params_from_document",
    "scheme_spec",
    "scheme_type",
]
