"""The attention inspector's requests and state: building the request from the Document and
the matrix's viewport, the side requests (shuffle test, zoomed region), the busy state of each
channel and the last results.  A mixin of :class:`ui.docks.attention.AttentionDock` (it reads the
dock's widgets for the viewport, the message line and the progress bar)."""

from __future__ import annotations

from typing import Any

import numpy as np

from peapp.i18n import shown, translate
from peapp.analysis import attention as A
from peapp.document import Document
from peapp.errors import PeappError
from peapp.views.attention import attention_request, zoom_request
from ui import settings as preferences
from ui.docks.base import viewport_of


class AttentionRequests:
    """Requests, busy state per channel and results of the attention dock (mixed into it)."""

    # ---- requests ---------------------------------------------------------------------------------
    def viewport(self):
        """The large matrix's size on screen: the overview is computed at about this many cells."""
        return viewport_of(self.plot.getViewBox())

    def make_request(self, document: Document) -> A.AttentionRequest:
        return attention_request(document, self.viewport(), preferences.compute_device())

    @staticmethod
    def _key(request: A.AttentionRequest) -> tuple:
        return (request.spec, request.scheme_params, request.kind, request.pooling, request.device,
                request.temperature)

    def _request_or_message(self, document: Document) -> A.AttentionRequest | None:
        try:
            request = self.make_request(document)
        except PeappError as exc:  # shown; the previous picture stays
            self.message.setText(str(exc))
            self.ctx.status(f"{shown(self.title)}: {exc}")
            return None
        self.message.clear()
        return request

    def on_document_changed(self, document: Document) -> None:
        self._sync_controls(document)
        request = self._request_or_message(document)
        if request is None:
            return
        if self._key(request) == self._request_key:
            # Same computation: redraw only if this dock's own display settings (head shown,
            # colour scale) changed — not for edits elsewhere in the Document.
            settings = self.settings(document)
            if settings != self._drawn_settings:
                self._drawn_settings = settings
                self._draw()
            return
        self._drawn_settings = self.settings(document)
        self.refresh(request)

    def refresh(self, request=None):
        if not self.can_compute():  # the backend loads: drawn when it is ready
            return None
        if request is None:
            request = self._request_or_message(self.ctx.document)
            if request is None:
                return None
        key = self._key(request)
        if self._request_key is not None and key[:2] != self._request_key[:2]:
            self._set_shuffle(None)  # the test was for other inputs
        self._request_key = key
        self._zoom = None
        generation = super().refresh(request)
        if generation is not None:
            self._set_busy(self.object_name, True)
        return generation

    def submit_side(self, name: str, request) -> int:
        generation = super().submit_side(name, request)
        self._set_busy(f"{self.object_name}:{name}", True)
        return generation

    def run_shuffle(self) -> None:
        try:
            spec = self.spec()
            params = A.scheme_params_from_document(self.ctx.document, spec.scheme)
        except PeappError as exc:
            self.message.setText(str(exc))
            return
        self.shuffle_label.setText(translate("Attention", "Shuffling the tokens and recomputing the outputs…"))
        self.submit_side("shuffle", A.ShuffleRequest(spec=spec, scheme_params=params,
                                                     device=preferences.compute_device()))

    def _request_zoom(self) -> None:
        """After a zoom or pan: recompute the visible region at full resolution if the overview is pooled."""
        view = self._view
        if view is None or self._last_request is None:
            return
        (x0, x1), (y0, y1) = self.plot.getViewBox().viewRange()
        request = zoom_request(self._last_request, max(view.row_bin, view.col_bin), self.viewport(),
                               (int(np.floor(y0)), int(np.ceil(y1))), (int(np.floor(x0)), int(np.ceil(x1))))
        if request is None:
            self._zoom = None
            self.zoom_image.setVisible(False)
            self.zoom_mask_image.setVisible(False)
            return
        self.submit_side("zoom", request)

    def cancel(self) -> None:
        """Stop this dock's running and pending computations; the last picture stays."""
        for channel in (self.object_name, f"{self.object_name}:zoom", f"{self.object_name}:shuffle"):
            self.ctx.worker.cancel(channel)
        self._busy_channels.clear()
        self._update_busy()
        self.ctx.status(translate("Attention", "{panel}: cancelled; the previous picture is kept.").format(
            panel=shown(self.title)))

    # ---- progress ---------------------------------------------------------------------------------
    def _set_busy(self, channel: str, busy: bool) -> None:
        if busy:
            self._busy_channels.add(channel)
            self.progress.setValue(0)
        else:
            self._busy_channels.discard(channel)
        self._update_busy()

    def _update_busy(self) -> None:
        busy = bool(self._busy_channels)
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)

    @property
    def busy(self) -> bool:
        return bool(self._busy_channels)

    def _on_progress(self, channel: str, generation: int, fraction: float) -> None:
        if channel in self._busy_channels:
            self.progress.setValue(int(fraction * 1000))

    def _on_any_failed(self, channel: str, generation: int, message: str) -> None:
        if channel == self.object_name and generation != self._generation:
            return  # a superseded request; the newer one is still running
        if channel == self.object_name or channel.startswith(self.object_name + ":"):
            self._set_busy(channel, False)
            if channel.endswith(":shuffle"):
                self.shuffle_label.setText(translate("Attention", "Shuffle test failed: {message}").format(message=message))
            else:
                self.message.setText(message)

    # ---- results ----------------------------------------------------------------------------------
    def show_result(self, result: A.AttentionView) -> None:
        self._set_busy(self.object_name, False)
        first = self._view is None or self._view.spec.seq_len != result.spec.seq_len
        self._view = result
        self._zoom = None
        self.zoom_image.setVisible(False)
        self.zoom_mask_image.setVisible(False)
        self._draw()
        self._draw_plots()
        if first:
            self.reset_zoom()
        else:
            self._request_zoom()

    def show_side_result(self, name: str, result: Any) -> None:
        self._set_busy(f"{self.object_name}:{name}", False)
        if name == "shuffle":
            self._set_shuffle(result if result.spec == self.spec() else None)
        elif name == "zoom" and self._view is not None and self._request_key is not None \
                and (result.spec, result.kind, result.pooling) == (self._request_key[0], *self._request_key[2:4]):
            self._zoom = result
            self._draw_zoom()

