"""Run on text's controller: the requests and the state of one request cycle, no widget.

It holds the result on screen, the request in flight, the zoom, and decides what a change of
the settings needs: a forward pass (another text, model, Tokens, device, precision, or Run pressed), or
nothing but a redraw — changing Layer or Head, or clicking a head in the grid, after a run that
kept every head (:class:`peapp.model_run.kept.KeptRun`) shows that head from what the run kept.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from peapp.i18n import translate
from peapp.model_run import text_run as T
from peapp.memory import human_bytes as human


class RunController:
    def __init__(self) -> None:
        self.result: T.TextRunResult | None = None
        self.request: T.TextRunRequest | None = None  # the last request asked for (run or browsed)
        self.result_request: T.TextRunRequest | None = None  # the request the shown result answers
        self.running = False
        self.zoom: T.ZoomedMap | None = None  # the visible region recomputed exactly from kept q/k
        # the NoPE figure: (run id, layer) → its EntropyResult, or the one-line reason it has none
        self.nope: dict[tuple[int, int], Any] = {}

    # ---- requests -----------------------------------------------------------------------------------
    @staticmethod
    def make_request(values: dict[str, Any], checkpoint: str, device: str, dtype: str) -> T.TextRunRequest | None:
        """The run for the panel's ``values``; ``device`` and ``dtype`` as the app resolves them (its
        Preferences, and the panel's Precision: ``ui.settings.compute_dtype``)."""
        if values["text_source"] == "none" or not checkpoint:
            return None
        return T.TextRunRequest(checkpoint=checkpoint, text_source=values["text_source"], text=values["text"],
                                text_file=values["text_file"], recorded_sha256=values["text_sha256"],
                                max_tokens=values["max_tokens"], layer=values["layer"], head=values["head"],
                                device=device, dtype=dtype)

    def browsable(self, request: T.TextRunRequest) -> bool:
        """Whether ``request`` differs from the shown result's only in Layer / Head, and the run kept
        that layer's heads: then it is shown without running the model."""
        done, result = self.result_request, self.result
        if done is None or result is None or result.run.kept is None:
            return False
        same_run = dataclasses.replace(request, layer=done.layer, head=done.head) == done
        return same_run and result.run.kept.can_browse(request.layer)

    def needs_run(self, request: T.TextRunRequest | None) -> bool:
        """A forward pass is needed for ``request`` (it is recorded as asked for either way)."""
        if request is None or request == self.request:
            return False
        if self.browsable(request):
            self.request = request
            return False
        return True

    def submitted(self, request: T.TextRunRequest) -> None:
        self.request = request
        self.running = True

    def finished(self, result: T.TextRunResult) -> None:
        self.running = False
        self.result = result
        self.zoom = None
        self.nope = {}  # the previous run's entropies go with it
        self.result_request = self.request

    # ---- the NoPE temperature figure: entropies from the run's kept q and k ---------------------------
    def nope_layers(self) -> tuple[int, ...]:
        from peapp.model_run.temperature import run_nope_layers

        return run_nope_layers(self.result.run) if self.result is not None else ()

    def nope_layer(self, values: dict[str, Any]) -> int | None:
        """The NoPE layer the figure draws: Layer when it is a NoPE layer, else the first (None: none)."""
        layers = self.nope_layers()
        if not layers:
            return None
        return values["layer"] if values["layer"] in layers else layers[0]

    def nope_request(self, values: dict[str, Any]) -> T.NopeEntropyRequest | None:
        """The request for the figure's layer, or None (no NoPE layer, or already computed)."""
        layer = self.nope_layer(values)
        if layer is None or (id(self.result.run), layer) in self.nope:
            return None
        return T.NopeEntropyRequest(run_id=id(self.result.run), layer=layer, result=self.result)

    def nope_done(self, request: T.NopeEntropyRequest, outcome: Any) -> bool:
        """Keep an EntropyResult (or a failure's message) that came back; False when it is another run's."""
        if self.result is None or request.run_id != id(self.result.run):
            return False
        self.nope[(request.run_id, request.layer)] = outcome
        return True

    def nope_shown(self, values: dict[str, Any]) -> Any:
        """What the figure draws for ``values``: an EntropyResult, a message (str), or None (pending)."""
        layer = self.nope_layer(values)
        return None if layer is None else self.nope.get((id(self.result.run), layer))

    # ---- what the figures show ------------------------------------------------------------------------
    def chosen(self, values: dict[str, Any]) -> tuple[int, int]:
        run = self.result.run
        return min(values["layer"], run.layers - 1), min(values["head"], run.heads - 1)

    def map_of(self, run, layer: int, head: int) -> tuple[np.ndarray, tuple[int, int, int, int], tuple[float, float], bool]:
        """(values, region, cell size in tokens, full map?) of a head: the run's pooled map of its
        layer, or the one it kept for browsing; else (a run that could not keep them) its head-grid
        thumbnail until that layer is run."""
        if self.result.layer == layer:
            return run.attention_map[head], run.map_region, run.map_bin, True
        kept = run.kept
        if kept is not None and kept.can_browse(layer):
            values, region, cell = kept.head_map(layer, head)
            return values, region, cell, True
        thumb = run.thumbnails[layer, head]
        n = run.n_tokens
        return thumb, (0, n, 0, n), (n / thumb.shape[0], n / thumb.shape[1]), False

    def zoom_request(self, layer: int, rows: tuple[int, int], cols: tuple[int, int], pixels: int):
        """The request for the visible region of ``layer``'s map, or None (already fine enough, or
        nothing kept to recompute it from)."""
        if self.result is None or not self.map_of(self.result.run, layer, 0)[3]:
            return None
        return T.zoom_request(self.result, rows, cols, pixels, layer=layer)

    def zoomed(self, zoom: T.ZoomedMap) -> bool:
        """Take a zoom that came back; False when it belongs to another run."""
        if self.result is None or zoom.run_id != id(self.result.run):
            return False
        self.zoom = zoom
        return True

    def shown_zoom(self, layer: int, head: int) -> np.ndarray | None:
        """The zoomed values of ``layer`` × ``head`` when the zoom is of the map on screen, else None."""
        if self.zoom is None or self.result is None or self.zoom.layer != layer:
            return None
        if not self.map_of(self.result.run, layer, head)[3]:
            return None
        return self.zoom.values[head]

    def browse_note(self) -> str:
        """One sentence: what the run kept for browsing heads and its memory, or why it kept less."""
        kept = self.result.run.kept if self.result is not None else None
        if kept is None:
            return ""
        if kept.maps is None:
            return translate("Run", "Changing the layer runs the model again: {why}.").format(why=kept.missing)
        text = translate("Run", "Every head is browsed without running again (kept: pooled maps {maps}").format(
            maps=human(kept.pooled_nbytes))
        if kept.qk:
            return text + translate("Run", ", each layer's q and k for zooming {qk}).").format(qk=human(kept.qk_nbytes))
        return text + translate("Run", "; zoom detail only in layer {layer}: {why}).").format(
            layer=self.result.layer, why=kept.missing)
