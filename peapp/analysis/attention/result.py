"""What the attention inspector gets back, without torch: :class:`AttentionView` and
:class:`ShuffleResult`, with the captions and summaries built from them.

They live apart from the code that computes them (``view``, ``shuffle``, ``blocks``: torch), as
the requests do (``request``), so that the panel, a session and ``peapp render attention``
import no torch until something is computed, and a render's second process
(``peapp.request_process``) can answer them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from peapp.analysis.attention.spec import SCHEME_LABELS, SINK_KEYS, AttentionSpec, checkpoint_name
from peapp.i18n import shown, translate

# largest relative output change still counted as "unchanged" by the shuffle test
EQUIVARIANCE_TOL = 1e-6


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
    # Attention sink: mean share of a query's attention on key 0 / on keys 0 … sink_keys − 1, [H]
    sink_keys: int = SINK_KEYS
    sink: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    sink_first: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    # NoPE with Llama 4's temperature: (attn_scale, floor_scale), and [H, R] the entropy of the same
    # rows with each query multiplied by the scale (peapp.analysis.temperature.entropy_by_position)
    temperature: tuple = ()
    temperature_entropy: np.ndarray | None = None

    @property
    def sampled(self) -> bool:
        return self.rows_per_bin < self.row_bin

    @property
    def full_resolution(self) -> bool:
        return self.row_bin == 1 and self.col_bin == 1

    @property
    def reduction(self) -> str:
        if self.full_resolution:
            return translate("AttentionView", "full resolution")
        pooled = {"mean": translate("AttentionView", "mean of {rows} × {cols} entries"),
                  "max": translate("AttentionView", "max of {rows} × {cols} entries")}[self.pooling]
        text = pooled.format(rows=f"{self.row_bin:,}", cols=f"{self.col_bin:,}")
        if self.sampled:
            sampled = (translate("AttentionView", " ({n} query row of every {every}, each exact over all keys)")
                       if self.rows_per_bin == 1 else
                       translate("AttentionView", " ({n} evenly spaced query rows of every {every}, each exact over all keys)"))
            text += sampled.format(n=self.rows_per_bin, every=f"{self.row_bin:,}")
        return text

    def cell_ranges(self, row_cell: int, col_cell: int) -> tuple[range, range]:
        """Query and key positions covered by one displayed cell."""
        r = self.row_start + row_cell * self.row_bin
        c = self.col_start + col_cell * self.col_bin
        return range(r, min(r + self.row_bin, self.row_stop)), range(c, min(c + self.col_bin, self.col_stop))

    def masked_cells(self) -> np.ndarray:
        """[row bins, col bins] True where the causal mask hides every entry of a cell (all its
        keys lie after all its queries): no weight at all, which is not a weight of 0."""
        rows, cols = self.values.shape[1:]
        if not self.spec.causal:
            return np.zeros((rows, cols), bool)
        last_query = np.minimum(self.row_start + (np.arange(rows) + 1) * self.row_bin, self.row_stop) - 1
        first_key = self.col_start + np.arange(cols) * self.col_bin
        return first_key[None, :] > last_query[:, None]

    def partly_masked(self, row_cell: int, col_cell: int) -> bool:
        """Whether some (not all) entries of a pooled cell are masked (their weight counts as 0 in a mean)."""
        rows, cols = self.cell_ranges(row_cell, col_cell)
        return self.spec.causal and cols.stop - 1 > rows.start and not cols.start > rows.stop - 1

    def token(self, position: int) -> str:
        """The word at a position (sentence tokens), else ''."""
        return self.words[position % len(self.words)] if self.words else ""

    def token_source(self, position: int) -> str:
        """Where the word at a position got its vector: 'model' (checkpoint embeddings) or 'hash'."""
        return "model" if self.token(position) in self.embedded else "hash"


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
    return translate("AttentionView", "first 10% of keys {first}, middle 80% {middle}, last 10% {last}").format(
        first=f"{first / total:.0%}", middle=f"{middle / total:.0%}", last=f"{last / total:.0%}")


def _embedding_note(view: AttentionView) -> str:
    if not view.spec.embedding_source:
        return translate("AttentionView", " (each word's vector seeded by its hash)")
    path, _, tensor = view.spec.embedding_source.rpartition("::")
    distinct = sorted(set(view.words))
    hashed = [w for w in distinct if w not in view.embedded]
    text = translate("AttentionView", " ({found} of {distinct} distinct words from {tensor} of {checkpoint}, scaled to unit "
                     "std").format(found=len(view.embedded), distinct=len(distinct), tensor=tensor,
                                   checkpoint=checkpoint_name(path))
    if view.spec.head_dim != _embedding_width(view.spec.embedding_source):
        text += translate("AttentionView", " and projected to {dims} dims by a fixed random map").format(dims=view.spec.head_dim)
    text += (translate("AttentionView", "; hashed, not whole words in its vocabulary: {words})").format(words=", ".join(hashed))
             if hashed else ")")
    return text


def _embedding_width(source: str) -> int:
    from peapp.analysis.checkpoint_tables import embedding_table
    return int(embedding_table(source).weight.shape[1])


def caption(view: AttentionView) -> str:
    spec = view.spec
    what = {"logits": translate("AttentionView", "attention logits q·k/√d (+ bias)"),
            "position": translate("AttentionView", "the position term of the logits"),
            "softmax": translate("AttentionView", "attention weights (softmax; each row sums to 1)")}[view.kind]
    if spec.tokens == "sentence":
        tokens = translate("AttentionView", "the sentence's {n} tokens repeated{note}").format(n=len(view.words),
                                                                                   note=_embedding_note(view))
    else:
        tokens = {"repeated": translate("AttentionView", "one repeated token (only position can matter)"),
                  "random": translate("AttentionView", "seeded random tokens")}[spec.tokens]
    mask = translate("AttentionView", "causal mask (future keys get no weight)") if spec.causal else translate("AttentionView", "no mask")
    note = f" — {view.scheme_note}" if view.scheme_note else ""
    text = translate("AttentionView", "{scheme}{note}: {what}, {heads} heads × {n} tokens, {tokens}, {mask}. Rows are "
                     "queries, columns keys; ").format(scheme=shown(SCHEME_LABELS[spec.scheme]), note=note, what=what,
                                                       heads=spec.n_heads, n=f"{spec.seq_len:,}", tokens=tokens,
                                                       mask=mask)
    text += (translate("AttentionView", "full resolution.") if view.full_resolution else
             translate("AttentionView", "each cell is the {reduction}; zoom in for full resolution.").format(
                 reduction=view.reduction))
    return text


@dataclass(frozen=True)
class ShuffleResult:
    """Shuffle the tokens, keep positions: are the outputs the same permutation of the originals?"""

    spec: AttentionSpec
    n_tokens: int  # tokens tested (the first SHUFFLE_MAX_TOKENS of longer sequences)
    permutation: np.ndarray  # shuffled[i] = original token permutation[i]
    change: np.ndarray  # [n] per position: |O'_i − O_π(i)| / |O_π(i)| over heads and dims
    max_abs: float  # largest absolute difference of any output component
    equivariant: bool

    @property
    def summary(self) -> str:
        """The verdict in words, in the current language (built when shown, so a language switch
        retells a result without running the test again)."""
        return _shuffle_summary(self.spec, self.n_tokens, self.change, self.max_abs, self.equivariant)


def _shuffle_summary(spec: AttentionSpec, n: int, change: np.ndarray, max_abs: float, equivariant: bool) -> str:
    if n < spec.seq_len:
        scope = translate("AttentionShuffle", "{n} tokens (the first {n} of {total})").format(
            n=f"{n:,}", total=f"{spec.seq_len:,}")
    else:
        scope = translate("AttentionShuffle", "{n} tokens").format(n=f"{n:,}")
    if equivariant:
        why = translate("AttentionShuffle", "no position information and no mask: attention sees a bag of tokens") \
            if spec.scheme == "nope" \
            else translate("AttentionShuffle", "the tokens are all the same, so shuffling changes nothing") \
            if spec.tokens == "repeated" \
            else translate("AttentionShuffle", "order does not reach the outputs")
        return translate("AttentionShuffle", "Equivariant: shuffling {scope} only shuffled the outputs (largest "
                         "difference {max_abs}, within {tolerance}) — {why}.").format(
            scope=scope, max_abs=f"{max_abs:.1e}", tolerance=f"{EQUIVARIANCE_TOL:g}", why=why)
    moved = int((change > 1e-3).sum())
    scheme = shown(SCHEME_LABELS[spec.scheme])
    if spec.scheme == "nope" and spec.causal:
        why = translate("AttentionShuffle", "no position encoding, but the causal mask alone leaks order: each token "
                        "sees a different prefix")
    elif spec.causal:
        why = translate("AttentionShuffle", "{scheme} and the causal mask both make order matter").format(scheme=scheme)
    else:
        why = translate("AttentionShuffle", "{scheme} makes order matter").format(scheme=scheme)
    return translate("AttentionShuffle", "Not equivariant: after shuffling {scope}, outputs differ from the shuffled "
                     "originals by up to {max_abs} (median relative change {median}, {moved} of {n} positions changed "
                     "by more than 0.1%) — {why}.").format(
        scope=scope, max_abs=f"{max_abs:.3g}", median=f"{float(np.median(change)):.1%}", moved=f"{moved:,}",
        n=f"{n:,}", why=why)


__all__ = ["EQUIVARIANCE_TOL", "AttentionView", "ShuffleResult", "caption", "received_summary",
           "uniform_causal_received"]
