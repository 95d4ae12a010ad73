"""The libraries peapp imports only on the paths that need them, and the one line it says when one
is missing.

Running a checkpoint (Run on text, Probes, ``peapp run`` / ``peapp probe``) needs transformers,
tokenizers, safetensors and huggingface_hub (transformers' own dependency); a GGUF file also
needs gguf and accelerate; the Training lab saves its runs with safetensors.  They are imported
lazily, so a trimmed install (or a bundle built without one) meets a missing one only there:
:func:`require` checks before the work starts (finding, not importing), and
:func:`missing_library` turns an ``ImportError`` met later into a :class:`MissingLibraryError`
that names the module and how to get it — the GUI's worker, the CLI and the self-test use it, so
the panel says so in one line and everything else keeps working.
"""

from __future__ import annotations

import importlib.util
import sys

from peapp.errors import PeappError
from peapp.i18n import translate

# pyproject.toml's pins (tests/core/test_libraries.py keeps them equal): what `pip install` gets
PINS = {
    "torch": "torch==2.13.0",
    "numpy": "numpy==2.4.6",
    "safetensors": "safetensors==0.8.0",
    "gguf": "gguf==0.19.0",
    "transformers": "transformers==5.24.0",
    "accelerate": "accelerate==1.15.0",
    "tokenizers": "tokenizers==0.23.3",
}
RUN_LIBRARIES = ("transformers", "tokenizers", "safetensors", "huggingface_hub")
GGUF_LIBRARIES = ("gguf", "accelerate")
# module name → distribution name, where pip's name differs (transformers' own dependencies)
_DISTRIBUTIONS = {"yaml": "PyYAML", "huggingface_hub": "huggingface_hub"}


class MissingLibraryError(PeappError):
    """A library that this work needs cannot be imported; the message says how to get it."""

    def __init__(self, message: str, library: str):
        super().__init__(message)
        self.library = library


def _frozen() -> bool:
    return bool(getattr(sys, "frozen", False))  # a PyInstaller bundle


def _install_command(library: str, reinstall: bool = False) -> str:
    requirement = PINS.get(library) or _DISTRIBUTIONS.get(library, library)
    return f'pip install {"--force-reinstall " if reinstall else ""}"{requirement}"'


def error_for(module: str, detail: str = "") -> MissingLibraryError:
    """The error for ``module`` (``transformers`` or a submodule of it) not importable."""
    library = module.split(".")[0]
    if _frozen():
        text = translate("Libraries", "the library {module} is missing from this build of the app; build it again "
                                      "with make bundle (packaging/README.md).").format(module=module)
    elif module != library and _findable(library):
        text = translate("Libraries", "{library} is incomplete here (it has no {module}); reinstall it: "
                                      "{command}").format(library=library, module=module,
                                                          command=_install_command(library, reinstall=True))
    else:
        text = translate("Libraries", "the library {library} is not installed; install it: {command}").format(
            library=library, command=_install_command(library))
    if detail:
        text = f"{text} ({detail})"
    return MissingLibraryError(text, library)


def _findable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a parent missing, or a module whose __spec__ is None
        return name in sys.modules and sys.modules[name] is not None


def require(*names: str) -> None:
    """Raise :class:`MissingLibraryError` for the first of ``names`` that cannot be found (nothing
    is imported: start-up and the first run do not pay for it)."""
    for name in names:
        if not _findable(name):
            raise error_for(name)


def missing_library(exc: BaseException) -> MissingLibraryError | None:
    """``exc`` (or what caused it: transformers re-raises an import failure as its own
    ``ModuleNotFoundError``) as a :class:`MissingLibraryError`, when it is a module that could not be
    found; None for anything else (an ``ImportError`` of a name inside a module is a bug or a
    version mismatch, not a missing library)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, MissingLibraryError):
            return current
        if isinstance(current, ModuleNotFoundError) and current.name:
            return error_for(current.name)
        current = current.__cause__  # not __context__: an import tried and handled before is no cause
    return None
