"""Loading the compute backend: torch, and what the first views compute with.

One function for every process that computes: the app's compute thread
(``ui.main_window._LoadBackend``), a script's ``MainWindow(load_backend="now")`` and the second
process of ``peapp render`` (``peapp.request_process``).
"""

from __future__ import annotations

import gc
import sys


def freeze_imports() -> None:
    """Move every object alive now to the permanent generation, where no collection looks again.

    torch's import leaves ~200,000 objects that live as long as the process; every full
    collection walked them (80 ms each on this machine) and so did interpreter exit (a cold
    ``peapp render`` spent 0.5-1 s of its ~4 s there).  Garbage alive at this moment is never
    freed, so this is for the moment after the process's first ``import torch`` only
    (:func:`load`), not for repeated use.
    """
    gc.freeze()


def load(collect: bool = True) -> bool:
    """Import torch, the encodings and the heatmap's analysis; after the process's first import
    of torch, freeze it out of the cycle collector.  Returns whether this was that first import
    (False when something had imported torch already: a script, a test).

    ``collect=False``: no collection runs meanwhile (the import makes no garbage worth a look, and
    collections during it took 0.2-0.3 s of its ~2.3 s, measured).  For a process that does
    nothing else (``peapp.request_process``); the app's GUI thread holds its collector itself
    while the compute thread imports (``ui.gui_thread_gc.hold``).
    """
    first = "torch" not in sys.modules
    hold = not collect and gc.isenabled()  # held here, given back after (a caller's own hold stays)
    if hold:
        gc.disable()
    try:
        import torch  # noqa: F401 - the slow import

        from peapp import encodings
        from peapp.analysis import heatmap  # noqa: F401

        encodings.families()
        if first:
            freeze_imports()
    finally:
        if hold:
            gc.enable()
    return first


__all__ = ["freeze_imports", "load"]
