"""The "Run on text" panel's computation: the Document's checkpoint run on the chosen text.

Qt-free.  A :class:`TextRunRequest` names the checkpoint, the text (sample, file or typed) and
what to pool; ``compute`` loads the model (kept for the next request: loading is the slow part),
tokenises the text with the checkpoint's own tokenizer and calls :func:`peapp.model_run.run_model`.
The helpers below turn a :class:`peapp.model_run.RunResult` into what the panel draws (grid
colours and order, tick labels, the class caption), so the CLI and the GUI agree.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from peapp.errors import CheckpointError, ParameterError
from peapp.i18n import Message, msg, shown, translate
from peapp.jobs import ProgressFn, Request

# How much of the progress bar loading takes when the model is not loaded yet
_LOAD_SHARE = 0.4
MAP_BINS = 256  # pooled cells per axis of the large map (a cell is one token up to 256 tokens)
THUMB_BINS = 32  # cells per axis of every head's thumbnail
MAX_ZOOM_BINS = 512  # cells per axis of a zoomed region (a token per cell up to 512 tokens)
GRID_STATISTICS_LABELS = {"sink_first": msg("TextRun", "weight on token 0"),
                          "previous_token": msg("TextRun", "weight on the previous token"),
                          "local": msg("TextRun", "weight within the local window"), "entropy": msg("TextRun", "entropy (nats)"),
                          "mean_distance": msg("TextRun", "mean attended distance")}


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def resolve_text(source: str, text: str = "", text_file: str = "") -> tuple[str, str]:
    """(the text, a short description of where it came from) for a RunView's text settings; the
    description is a marked message when it is words (shown translated: ``peapp.i18n.shown``)."""
    if source == "sample":
        from peapp.model_run.sample_text import SAMPLE_TEXT_LABEL, sample_text

        return sample_text(), SAMPLE_TEXT_LABEL
    if source == "file":
        from peapp.safe_open import read_text

        if not text_file:
            raise ParameterError(translate("TextRun", "no text file chosen: open a .txt file."))
        return read_text(text_file, "text", ParameterError), os.path.basename(text_file)
    if source == "typed":
        return text, msg("TextRun", "typed text")
    raise ParameterError(translate("TextRun", "no text chosen: type or paste some, open a .txt file, or pick the sample "
                                        "text."))


class _ModelCache:
    """The last loaded model, reused while the checkpoint file (and device) is unchanged, and
    lent to one job at a time (:meth:`lend`).  What a job does to attention and frequencies is
    its own calls' (a strategy, per-call frequencies), but transformers' dynamic and LongRoPE
    rotary modules rewrite their own buffers during a forward pass, and each job's memory check
    counts the machine for itself alone."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # guards _key / _loaded
        self._lent = threading.Lock()  # held by the job the model is lent to
        self._key: tuple | None = None
        self._loaded: Any = None

    @staticmethod
    def key(path: str, device: str, dtype: str = "float32") -> tuple:
        try:
            info = os.stat(path)
            stamp: tuple = (info.st_mtime_ns, info.st_size)
        except OSError:
            stamp = ()
        return (os.path.abspath(path), device, dtype, stamp)  # a model per dtype

    @staticmethod
    def _serves(cached: tuple | None, loaded: Any, key: tuple) -> bool:
        """Whether the model loaded for ``cached`` answers ``key``: the same file and device, and the
        same dtype asked for — or an explicit dtype that the model already is (a panel's Precision
        auto resolved to bfloat16, then bfloat16 chosen: the same weights, not loaded twice)."""
        if cached is None or loaded is None:
            return False
        if key == cached:
            return True
        (path, device, dtype, stamp), (cached_path, cached_device, _, cached_stamp) = key, cached
        return (path, device, stamp) == (cached_path, cached_device, cached_stamp) and dtype == getattr(
            loaded, "dtype", None)

    @contextlib.contextmanager
    def lend(self, path: str, device: str, progress: ProgressFn | None,
             dtype: str = "float32") -> Iterator[tuple[Any, bool]]:
        """Inside: (the loaded model, whether it was already loaded), no other job holding it.
        A job waiting for the model calls ``progress(0.0)``, so a cancelled one stops waiting
        (the worker's hook raises :class:`peapp.jobs.Cancelled`)."""
        while not self._lent.acquire(timeout=0.05):
            if progress is not None:
                progress(0.0)
        try:
            yield self._get(path, device, progress, dtype)
        finally:
            self._lent.release()

    def _get(self, path: str, device: str, progress: ProgressFn | None, dtype: str = "float32") -> tuple[Any, bool]:
        from peapp.model_run import load_model

        key = self.key(path, device, dtype)
        with self._lock:
            if self._serves(self._key, self._loaded, key):
                return self._loaded, True
            self._key, self._loaded = None, None  # free the old model before loading the next
        loaded = load_model(path, device=device, progress=progress, dtype=dtype)
        with self._lock:
            self._key, self._loaded = key, loaded
        return loaded, False

    def clear(self) -> None:
        with self._lock:
            self._key, self._loaded = None, None


MODEL_CACHE = _ModelCache()


@dataclass(frozen=True)
class TextRunResult:
    """One run and what it was run on."""

    run: Any  # peapp.model_run.RunResult
    checkpoint: str
    family: str
    architecture: str
    source: str  # how the model was loaded: folder / gguf (converted now) / gguf (cache)
    load_seconds: float
    reused_model: bool
    text_label: str
    text_sha256: str
    recorded_sha256: str  # the hash the Document recorded ("" if none): differs when a file changed
    text_chars: int
    truncated: bool
    layer: int
    head: int
    notes: tuple[str, ...] = ()  # what loading had to say (a cache rebuilt, or not writable)
    context_cut: int | None = None  # the text was cut at the model's context (a learned table's rows), not at max_tokens
    # the config's temperature fields (peapp.model_run.temperature.config_fields): the NoPE figure's settings
    temperature_config: dict[str, Any] = field(default_factory=dict)

    @property
    def text_changed(self) -> bool:
        return bool(self.recorded_sha256) and self.recorded_sha256 != self.text_sha256

    def to_json(self) -> dict[str, Any]:
        doc = self.run.to_json()
        doc.update({"path": self.checkpoint, "architecture": self.architecture, "load_source": self.source,
                    "text": {"source": self.text_label, "sha256": self.text_sha256, "characters": self.text_chars,
                             "truncated": self.truncated}})
        return doc


@dataclass(frozen=True)
class TextRunRequest(Request):
    travels: ClassVar[bool] = False  # a model run: computed where it is asked (peapp.request_process)
    checkpoint: str
    text_source: str
    text: str = ""
    text_file: str = ""
    recorded_sha256: str = ""
    max_tokens: int = 512
    layer: int = 0
    head: int = 0
    device: str = "cpu"
    dtype: str = "float32"  # peapp.model_run.placement.DTYPES: the panel's Precision (its auto: Preferences')
    map_bins: int = MAP_BINS
    thumb_bins: int = THUMB_BINS
    keep_all: bool = True  # keep every head's map (and q, k) so that browsing heads needs no new run

    def compute(self, progress: ProgressFn) -> TextRunResult:
        from peapp.model_run import RunOptions, run_model, tokenize
        from peapp.model_run.temperature import config_fields

        if not self.checkpoint:
            raise CheckpointError(translate("TextRun", "no checkpoint is open: open one (File > Open, or File > Open "
                                                 "Sample) first."))
        text, label = resolve_text(self.text_source, self.text, self.text_file)
        digest = text_sha256(text)
        with MODEL_CACHE.lend(self.checkpoint, self.device, lambda f: progress(_LOAD_SHARE * f),
                              self.dtype) as (loaded, reused):
            ids, tokens, truncated = tokenize(loaded, text, self.max_tokens)
            options = RunOptions(layer=self.layer, head=self.head, heads=None, map_bins=self.map_bins,
                                 thumb_bins=self.thumb_bins, keep_map_qk=True, keep_all=self.keep_all)
            start = 0.0 if reused else _LOAD_SHARE
            run = run_model(loaded, ids, options, tokens=tokens, progress=lambda f: progress(start + (1 - start) * f))
        return TextRunResult(run=run, checkpoint=self.checkpoint, family=loaded.family,
                             architecture=loaded.architecture, source=loaded.source,
                             load_seconds=loaded.load_seconds, reused_model=reused, text_label=label,
                             text_sha256=digest, recorded_sha256=self.recorded_sha256, text_chars=len(text),
                             truncated=truncated, layer=self.layer, head=self.head,
                             notes=() if reused else tuple(loaded.notes),
                             context_cut=loaded.trained_context if truncated and loaded.scheme == "learned_absolute"
                             and loaded.trained_context and self.max_tokens > loaded.trained_context else None,
                             temperature_config=config_fields(loaded.config))


@dataclass(frozen=True)
class TextRunZoomRequest(Request):
    """A region of a layer's map of the last run, recomputed exactly from the q and k it kept (no
    new run): equal requests are the same region of the same run (``run_id``: the run object's id)."""

    travels: ClassVar[bool] = False  # a model run: computed where it is asked (peapp.request_process)
    run_id: int
    rows: tuple[int, int]
    cols: tuple[int, int]
    bins: int
    result_run: Any = field(default=None, compare=False, hash=False, repr=False)  # (Request.run is a method)
    layer: int | None = None  # None: the layer the run pooled its map of

    def compute(self, progress: ProgressFn) -> "ZoomedMap":
        from peapp.model_run.runner import zoom_map

        run = self.result_run
        layer = run.options.layer if self.layer is None else self.layer
        if layer != run.options.layer or run.map_qk is None:
            values, region, cell = run.kept.region(layer, self.rows, self.cols, self.bins, tuple(run.kept.heads))
        else:
            values, region, cell = zoom_map(run, self.rows, self.cols, self.bins)
        return ZoomedMap(run_id=self.run_id, values=values, region=region, cell=cell, layer=layer)


@dataclass(frozen=True)
class NopeEntropyRequest(Request):
    """A NoPE layer's attention entropy with and without the temperature, from the q and k the shown
    run kept (:func:`peapp.model_run.temperature.kept_entropy`: no second forward pass); equal
    requests are the same layer of the same run (``run_id``: the run object's id)."""

    travels: ClassVar[bool] = False  # the run's tensors: computed where it is asked (peapp.request_process)
    run_id: int
    layer: int
    result: Any = field(default=None, compare=False, hash=False, repr=False)  # the TextRunResult

    def compute(self, progress: ProgressFn) -> Any:
        from peapp.model_run.temperature import kept_entropy

        res = self.result
        source = translate("Temperature", "{name}: the q and k of this run").format(name=os.path.basename(
            os.path.normpath(res.checkpoint)))
        return kept_entropy(res.run, res.temperature_config, self.layer, source)


@dataclass(frozen=True)
class ZoomedMap:
    run_id: int
    values: np.ndarray  # [heads, rows, cols] mean weight per cell, NaN where every cell is masked
    region: tuple[int, int, int, int]
    cell: tuple[int, int]
    layer: int = 0


def zoom_request(result: TextRunResult, rows: tuple[int, int], cols: tuple[int, int],
                 pixels: int, layer: int | None = None) -> TextRunZoomRequest | None:
    """The request for the visible ``rows`` × ``cols`` of ``layer``'s map (default: the layer run)
    drawn ``pixels`` wide, or None when its cells are already about as fine as the screen there (or
    the run kept no q/k of that layer)."""
    run = result.run
    layer = run.options.layer if layer is None else layer
    own = layer == run.options.layer and run.map_qk is not None
    if not own and (run.kept is None or not run.kept.can_zoom(layer)):
        return None
    n = run.n_tokens
    r0, r1 = max(0, rows[0]), min(n, rows[1])
    c0, c1 = max(0, cols[0]), min(n, cols[1])
    if r1 <= r0 or c1 <= c0:
        return None
    pixels = max(16, min(MAX_ZOOM_BINS, pixels))
    needed = max(1, -(-max(r1 - r0, c1 - c0) // pixels))
    if max(run.map_bin) <= 1.5 * needed:
        return None
    return TextRunZoomRequest(run_id=id(run), rows=(r0, r1), cols=(c0, c1), bins=pixels, result_run=run, layer=layer)


def learned_context(checkpoint: str) -> int | None:
    """The most tokens ``checkpoint`` reads when its positions are a learned table (the table's
    positions), else None; from the headers only (``peapp inspect``'s detection), None when they
    cannot be read (the run will say why)."""
    from peapp.checkpoints.detect import detect
    from peapp.checkpoints.reader import open_cached
    from peapp.errors import PeappError

    try:
        components, _ = detect(open_cached(checkpoint))
    except (PeappError, OSError, ValueError):
        return None
    rows = [int(c.params["positions"]) for c in components
            if c.kind == "learned_absolute" and isinstance(c.params.get("positions"), int)]
    return min(rows) if rows else None


# ---- what the panel draws, from a RunResult -------------------------------------------------------
def display_token(token: str) -> str:
    """A token as a label: byte-level BPE's space (Ġ) and newline (Ċ), SentencePiece's ▁ shown plainly."""
    shown = token.replace("Ġ", "␣").replace("▁", "␣").replace("Ċ", "⏎").replace("\n", "⏎")
    return shown if shown.strip() else repr(token)


def mean_distance(run: Any) -> np.ndarray:
    """[L, H] mean attended distance: Σ_d d · (weight at d) over the distance profile, normalised."""
    profile = np.nan_to_num(run.distance_profile)
    n = profile.shape[-1]
    counts = np.arange(n, 0, -1, dtype=np.float64)  # queries with a key at distance d
    if not run.causal:
        counts[1:] *= 2
    mass = profile * counts
    d = np.arange(n, dtype=np.float64)
    total = mass.sum(-1)
    return np.where(total > 0, (mass * d).sum(-1) / np.maximum(total, 1e-300), np.nan)


def grid_statistic(run: Any, name: str) -> np.ndarray:
    """[L, H]: the statistic that colours the head grid."""
    if name == "mean_distance":
        return mean_distance(run)
    values = {"sink_first": run.sink_first, "previous_token": run.previous_token, "local": run.local,
              "entropy": run.entropy}.get(name)
    if values is None:
        raise ParameterError(translate("TextRun", "unknown grid statistic {name}").format(name=repr(name)))
    return np.asarray(values, dtype=np.float64)


def grid_order(values: np.ndarray, sort: bool) -> np.ndarray:
    """[L, H]: which head each grid column shows per layer (sorted highest first, or in order)."""
    layers, heads = values.shape
    if not sort:
        return np.tile(np.arange(heads), (layers, 1))
    return np.argsort(-np.nan_to_num(values, nan=-np.inf), axis=1, kind="stable")


# the class thresholds in words, for translation (the runner's CLASS_THRESHOLDS are the English, also in --json)
_THRESHOLD_TEXTS = {"previous_token": msg("TextRun", "mean weight on the previous token ≥ 0.5"),
                    "sink": msg("TextRun", "mean weight on token 0 ≥ 0.5"),
                    "local": msg("TextRun", "mean weight within distance ≤ {window} ≥ 0.7")}


def _threshold(name: str, thresholds: dict[str, str], local_window: int) -> str:
    """A threshold in the current language when it is the one the runner uses, else as given."""
    template = _THRESHOLD_TEXTS.get(name)
    if template is not None and template.format(window=local_window) == thresholds[name]:
        return translate("TextRun", template).format(window=local_window)
    return thresholds[name]


def class_caption(local_window: int, thresholds: dict[str, str]) -> str:
    return translate("TextRun", "Classes, in this order: previous-token if {previous}; sink if {sink}; local if {local}; "
                     "else broad / content (local window {window} tokens).").format(
        previous=_threshold("previous_token", thresholds, local_window), sink=_threshold("sink", thresholds, local_window),
        local=_threshold("local", thresholds, local_window), window=local_window)


def shown_label(label: str) -> str:
    """A text's description (``resolve_text``) or a class label, in the current language."""
    return shown(label) if isinstance(label, Message) else label


# RunResult.term_kind (English in --json) as the panel shows it
TERM_KIND_LABELS = {"content (rotation removed)": msg("TextRun", "content (rotation removed)"),
                    "position table": msg("TextRun", "position table")}
CLASS_LABELS = {"previous_token": msg("TextRun", "previous-token"), "sink": msg("TextRun", "sink"), "local": msg("TextRun", "local"),
                "broad": msg("TextRun", "broad / content")}


_POSITION_NAMES = {"rope": "RoPE", "nope": "NoPE", "alibi": "ALiBi", "learned_absolute (input)": "learned",
                   "none": "none"}


def layer_label(info: dict[str, Any]) -> str:
    """A layer's scheme in a few words for an axis, e.g. "RoPE 10k, window 512" or "NoPE"
    (from :attr:`peapp.model_run.runner.RunResult.layer_schemes`)."""
    name = _POSITION_NAMES.get(str(info.get("position")), str(info.get("position")))
    rope = info.get("rope") or {}
    theta = rope.get("theta")
    if isinstance(theta, (int, float)) and theta > 0:
        name += " " + (f"{theta / 1e6:g}M" if theta >= 1e6 else f"{theta / 1e3:g}k" if theta >= 1e3 else f"{theta:g}")
    if info.get("sliding_window"):
        return translate("TextRun", "{scheme}, window {window}").format(scheme=name, window=info["sliding_window"])
    return name


def layer_labels(run: Any) -> list[str] | None:
    """Every layer's :func:`layer_label`, or None where all layers are alike (nothing to tell apart)."""
    labels = [layer_label(info) for info in getattr(run, "layer_schemes", None) or ()]
    return labels if len(set(labels)) > 1 else None
