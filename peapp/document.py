"""The Document: everything a session is, as plain data that round-trips through JSON.

It holds the chosen family, every family's parameter values, per-dock view settings and
the open checkpoint's path.  It is immutable: every edit returns a new Document, which is
what makes undo trivial in the GUI and lets a worker read it without locks.  The same file
reproduces a figure in the GUI and from the command line.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from peapp.errors import DocumentError, ParameterError

VERSION = 1


@dataclass(frozen=True)
class Document:
    family: str = "sinusoidal"
    # family name -> {parameter: value}; only values that differ from the default need be here
    params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # dock objectName -> {setting: value}
    views: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    checkpoint: str | None = None

    # ---- reading -----------------------------------------------------------------------
    def spec(self, family: str | None = None):
        """The validated spec of ``family`` (default: the chosen one)."""
        from peapp import encodings

        fam = encodings.get(family or self.family)
        return fam.make_spec(dict(self.params.get(fam.name, {})))

    def view(self, dock: str, key: str, default: Any = None) -> Any:
        return self.views.get(dock, {}).get(key, default)

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

    def with_view(self, dock: str, **values: Any) -> "Document":
        views = dict(self.views)
        views[dock] = {**self.views.get(dock, {}), **values}
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
            raise DocumentError(f"this session was saved by a newer peapp (format {version}; this one "
                                f"reads up to {VERSION}). Update peapp to open it.")
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
        doc = cls(family=family, views={k: dict(v) for k, v in views.items()}, checkpoint=checkpoint)
        try:
            doc = doc.with_family(doc.family)
            for fam, values in params.items():
                doc = doc.with_params(fam, **dict(values))
        except ParameterError as exc:
            raise DocumentError(f"session file has an invalid parameter: {exc}") from None
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
