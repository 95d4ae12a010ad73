"""The Document: everything a session is, as plain data that round-trips through JSON.

It holds the chosen family, every family's parameter values, every panel's view settings
(keyed by view id, each checked against its spec in :mod:`peapp.views`) and the open
checkpoint's path.  It is immutable: every edit returns a new Document, which is
what makes undo trivial in the GUI and lets a worker read it without locks.  The same file
reproduces a figure in the GUI and from the command line.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass, field, replace
from typing import Any, Hashable, Mapping, cast

from peapp.errors import DocumentError, ParameterError
from peapp.i18n import translate

# 2: views are keyed by view id ("heatmap"); format 1 keyed them by the dock's objectName
VERSION = 2


@dataclass(frozen=True)
class Document:
    family: str = "sinusoidal"
    # family name -> {parameter: value}; only values that differ from the default need be here
    params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # view id -> {setting: value}; only the settings that were set (the spec has the defaults)
    views: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    checkpoint: str | None = None

    # ---- reading -----------------------------------------------------------------------
    def spec(self, family: str | None = None):
        """The validated spec of ``family`` (default: the chosen one)."""
        from peapp import encodings

        fam = encodings.get(family or self.family)
        return fam.make_spec(dict(self.params.get(fam.name, {})))

    def view(self, view_id: str, key: str, default: Any = None) -> Any:
        """One setting of a panel: the stored value, else the spec's default (else ``default``)."""
        stored = self.views.get(view_id, {})
        if key in stored:
            return stored[key]
        from peapp import views

        spec = views.get(view_id)
        if spec is not None and key in spec.setting_names():
            return getattr(spec, key)  # a dataclass keeps each field's default on the class
        return default

    def view_spec(self, view_id: str):
        """The validated settings of panel ``view_id`` (a :class:`peapp.views.ViewSpec`), defaults filled in."""
        from peapp import views

        spec = views.get(view_id)
        if spec is None:
            raise ParameterError(f"no view spec is registered for {view_id!r}; known: {', '.join(views.registry())}")
        return _view_spec(cast(Hashable, spec), tuple(sorted(self.views.get(view_id, {}).items())))

    # ---- editing (each returns a new Document) -------------------------------------------
    def with_family(self, family: str) -> "Document":
        from peapp import encodings

        encodings.get(family)  # raises ParameterError for an unknown name
        return replace(self, family=family)

    def with_params(self, family: str, **values: Any) -> "Document":
        """Set parameters of ``family``; raises ParameterError (and changes nothing) if invalid."""
        from peapp import encodings

        fam = encodings.get(family)
        merged = {**self.params.get(family, {}), **values}
        spec = fam.make_spec(merged)  # validates
        params = dict(self.params)
        params[family] = spec.to_dict()
        return replace(self, params=params)

    def with_view(self, view_id: str, **values: Any) -> "Document":
        """Set settings of panel ``view_id``; raises ParameterError (and changes nothing) for an
        unknown setting, a wrong type or a value out of range, saying which and what is allowed.
        An unknown view id is refused too, naming the known ones."""
        from peapp import views as view_specs

        merged = {**self.views.get(view_id, {}), **values}
        spec = view_specs.get(view_id)
        if spec is None:
            raise ParameterError(f"unknown view {view_id!r}; known: {', '.join(sorted(view_specs.registry()))}")
        merged = spec.from_dict(merged).coerced(merged)
        views = dict(self.views)
        views[view_id] = merged
        return replace(self, views=views)

    def with_checkpoint(self, path: str | None) -> "Document":
        return replace(self, checkpoint=path)

    # ---- JSON ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"app": "peapp", "version": VERSION, "family": self.family,
                "params": {k: dict(v) for k, v in self.params.items()},
                "views": {k: dict(v) for k, v in self.views.items()},
                "checkpoint": self.checkpoint}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, sort_keys=True)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Document":
        if not isinstance(data, Mapping) or data.get("app") != "peapp":
            raise DocumentError("not a peapp session file (no \"app\": \"peapp\" field)")
        version = data.get("version")
        if not isinstance(version, int):
            raise DocumentError("session file has no valid \"version\" field")
        if version > VERSION:
            raise DocumentError(translate("Document", "this session was saved by a newer peapp (format {version}; "
                                                      "this one reads up to {supported}). Update peapp to open it.")
                                .format(version=version, supported=VERSION))
        family, views, params = data.get("family", "sinusoidal"), data.get("views") or {}, data.get("params") or {}
        checkpoint = data.get("checkpoint")
        # A hand-edited or damaged file must give this error, never a TypeError deep in a view.
        if not isinstance(family, str):
            raise DocumentError(f"session file: \"family\" must be a name such as \"rope\"; got {family!r}")
        for name, section in (("views", views), ("params", params)):
            if not isinstance(section, Mapping) or not all(isinstance(v, Mapping) for v in section.values()):
                raise DocumentError(f"session file: \"{name}\" must map names to {{setting: value}} objects")
        if checkpoint is not None and not isinstance(checkpoint, str):
            raise DocumentError(f"session file: \"checkpoint\" must be a path or null; got {checkpoint!r}")
        from peapp.views import current_id

        doc = cls(family=family, checkpoint=checkpoint)
        try:
            doc = doc.with_family(doc.family)
            for fam, values in params.items():
                doc = doc.with_params(fam, **dict(values))
        except ParameterError as exc:
            raise DocumentError(translate("Document", "session file has an invalid parameter: {problem}")
                                .format(problem=exc)) from None
        for view_id, values in views.items():
            if not isinstance(view_id, str):
                raise DocumentError(f"session file: \"views\" keys must be view names; got {view_id!r}")
            if not all(isinstance(key, str) for key in values):
                raise DocumentError(f"session file: view {view_id!r} has a setting name that is not text")
            try:
                doc = doc.with_view(current_id(view_id), **dict(values))
            except ParameterError as exc:
                raise DocumentError(translate("Document", "session file has an invalid view setting: {problem}")
                                    .format(problem=exc)) from None
        return doc

    @classmethod
    def from_json(cls, text: str | bytes) -> "Document":
        from peapp.safe_open import load_json  # depth and number length checked before parsing

        return cls.from_dict(load_json(text, "session file", DocumentError))

    def save(self, path: str | os.PathLike) -> None:
        from peapp.fileio import atomic_write_text

        atomic_write_text(path, self.to_json() + "\n")

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Document":
        from peapp.safe_open import read_bytes  # regular files only, size-capped

        return cls.from_json(read_bytes(path, "session", DocumentError))


@functools.lru_cache(maxsize=256)
def _view_spec(spec: Any, items: tuple[tuple[str, Any], ...]) -> Any:
    # Documents are immutable and a dock reads its spec on every change: build each one once.
    return spec.from_dict(dict(items))
