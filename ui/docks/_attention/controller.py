"""The attention inspector's controller: the request cycle and its state, no widget and no Qt.

It holds what the dock shows (the overview, the zoomed region, the shuffle test), the key of the
computation asked for, the dock's display settings last drawn, and each channel's latest
generation and whether it is still in flight; and it decides what a change needs (a new
computation, only a redraw, or nothing), which zoom to ask for and whether a result or a failure
that came back is still wanted.  The dock (:class:`ui.docks.attention.AttentionDock`) owns one
(``self.controller``), hands it plain values (a Document, a Viewport, the visible rows and columns,
the compute device) and draws and says what it answers, as Run on text's dock does with
:class:`ui.docks._run.controller.RunController`.
"""

from __future__ import annotations

import math
from typing import Any

from peapp.analysis import attention as A
from peapp.document import Document
from peapp.views import Viewport
from peapp.views.attention import attention_request, zoom_request

SIDE_CHANNELS = ("zoom", "shuffle")  # the dock's secondary requests, each on a channel of its own


class AttentionController:
    def __init__(self, channel: str) -> None:
        self.channel = channel  # the main channel; a side request's is "<channel>:<name>"
        self.view: A.AttentionView | None = None  # the overview shown
        self.zoom: A.AttentionView | None = None  # the visible region at finer resolution, drawn over it
        self.shuffle: A.ShuffleResult | None = None  # the shuffle test shown (for the current inputs)
        self.request_key: tuple | None = None  # what the last main request computes (``key``)
        self.drawn_settings: dict | None = None  # the dock's own settings when last drawn
        self.generations: dict[str, int] = {}  # channel → the generation of its latest request
        self.in_flight: set[str] = set()  # channels whose latest request has not come back

    # ---- requests -----------------------------------------------------------------------------------
    @staticmethod
    def make_request(document: Document, viewport: Viewport, device: str) -> A.AttentionRequest:
        """The overview's request for ``document`` drawn in ``viewport`` on ``device``; raises
        PeappError when the settings do not fit together."""
        return attention_request(document, viewport, device)

    @staticmethod
    def key(request: A.AttentionRequest) -> tuple:
        """What a request computes, the matrix's size on screen left out (a resize asks again only
        through the zoom)."""
        return (request.spec, request.scheme_params, request.kind, request.pooling, request.device,
                request.temperature)

    def document_changed(self, request: A.AttentionRequest, settings: dict[str, Any]) -> str:
        """What a new Document needs, given its request and the dock's settings in it: "compute"
        (another computation), "redraw" (the same one, with the head shown or a colour scale
        changed) or "" (an edit elsewhere in the Document)."""
        if self.key(request) == self.request_key:
            if settings == self.drawn_settings:
                return ""
            self.drawn_settings = settings
            return "redraw"
        self.drawn_settings = settings
        return "compute"

    def asking(self, request: A.AttentionRequest) -> bool:
        """The dock is about to ask for ``request``: the zoom goes with the previous overview.
        True when its inputs (spec, scheme parameters) differ from the last request's: then the
        shuffle test, shown or asked for, was for other inputs and is dropped (its verdict cleared)."""
        key = self.key(request)
        stale = self.request_key is not None and key[:2] != self.request_key[:2]
        if stale:
            self.shuffle = None
        self.request_key = key
        self.zoom = None
        return stale

    def submitted(self, channel: str, generation: int) -> None:
        """A request went to the worker on ``channel``: the latest there, in flight until it comes back."""
        self.generations[channel] = generation
        self.in_flight.add(channel)

    def is_latest(self, channel: str, generation: int) -> bool:
        return self.generations.get(channel) == generation

    def shuffle_request(self, document: Document, spec: A.AttentionSpec, device: str) -> A.ShuffleRequest:
        """The shuffle test for the inputs of ``spec``; raises PeappError when the family's
        parameters cannot be read."""
        params = A.scheme_params_from_document(document, spec.scheme)
        return A.ShuffleRequest(spec=spec, scheme_params=params, device=device)

    def zoom_request(self, overview: A.AttentionRequest | None, viewport: Viewport, rows: tuple[float, float],
                     cols: tuple[float, float]) -> A.AttentionRequest | None:
        """After a zoom or pan to ``rows`` × ``cols`` (the visible range, in positions): the request
        for that region at full resolution, or None — nothing shown yet, or the overview's cells
        are already about as fine as the screen there (then the zoom shown goes)."""
        view = self.view
        if view is None or overview is None:
            return None
        request = zoom_request(overview, max(view.row_bin, view.col_bin), viewport,
                               (int(math.floor(rows[0])), int(math.ceil(rows[1]))),
                               (int(math.floor(cols[0])), int(math.ceil(cols[1]))))
        if request is None:
            self.zoom = None
        return request

    def reset_zoom(self) -> bool:
        """Back to the whole matrix: True when a zoomed region was shown (then it is redrawn without)."""
        zoomed, self.zoom = self.zoom is not None, None
        return zoomed

    def cancel(self) -> tuple[str, ...]:
        """Stop waiting for anything: the channels to cancel (the main one and each side one)."""
        self.in_flight.clear()
        return (self.channel, *(self.side_channel(name) for name in SIDE_CHANNELS))

    # ---- busy state -----------------------------------------------------------------------------------
    def side_channel(self, name: str) -> str:
        return f"{self.channel}:{name}"

    def owns(self, channel: str) -> bool:
        return channel == self.channel or channel.startswith(self.channel + ":")

    @property
    def busy(self) -> bool:
        return bool(self.in_flight)

    def shows_progress(self, channel: str) -> bool:
        """Whether a progress report on ``channel`` is this dock's work in flight."""
        return channel in self.in_flight

    def ended(self, channel: str) -> None:
        """``channel``'s work came back or was stopped: no longer in flight."""
        self.in_flight.discard(channel)

    def failed(self, channel: str, generation: int) -> bool:
        """A request failed: True when it is this dock's latest on that channel (then it is said,
        and the channel is no longer busy); a superseded one is not (the newer is still running)."""
        if not self.owns(channel) or not self.is_latest(channel, generation):
            return False
        self.ended(channel)
        return True

    # ---- results --------------------------------------------------------------------------------------
    def finished(self, result: A.AttentionView) -> bool:
        """The overview came back: shown from now on (the zoom goes with the previous one).  True
        when it is the first, or of another length (then the plot shows the whole matrix)."""
        self.ended(self.channel)
        first = self.view is None or self.view.spec.seq_len != result.spec.seq_len
        self.view = result
        self.zoom = None
        return first

    def side_finished(self, name: str, result: Any, spec: A.AttentionSpec | None = None) -> bool:
        """A side result came back: True when it is to be drawn.  A shuffle test is kept when it is
        for ``spec`` (the current inputs), else dropped (and the verdict cleared); a zoom only when
        it is of the overview asked for last."""
        self.ended(self.side_channel(name))
        if name == "shuffle":
            self.shuffle = result if result.spec == spec else None
            return True
        key = self.request_key
        if name == "zoom" and self.view is not None and key is not None \
                and (result.spec, result.kind, result.pooling) == (key[0], *key[2:4]):
            self.zoom = result
            return True
        return False

    def head(self, chosen: int) -> int:
        """The head drawn for the Head setting ``chosen``: at most the overview's last."""
        n = self.view.spec.n_heads if self.view is not None else 1
        return min(int(chosen), n - 1)
