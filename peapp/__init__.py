"""peapp — the Qt-free core of the Positional Encoding Explorer.

Everything a panel of the desktop app shows can be computed here with the same call, from a
script or a notebook: ``peapp.encodings`` (one module per family, each with a validated
parameter spec), ``peapp.analysis`` (similarity, shift maps, spectra), ``peapp.document``
(the JSON-serialisable state of a session) and ``peapp.jobs`` (the immutable requests the
GUI's worker thread runs).  Nothing in this package imports Qt or ``ui``, not even inside a
function: the import contracts in pyproject.toml and tests/core/test_layering.py check it.  The
GUI's own subcommands (``peapp gui``, ``peapp render``) live in ``ui/commands/`` and reach the
command line through entry points.
"""

__version__ = "0.1.0"
