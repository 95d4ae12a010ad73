"""The core's CLI subcommands (listed in ``peapp.cli.CORE_COMMANDS``); GUI ones are in ``ui/commands/``."""

import sys
import time
from typing import Any, Callable


def run_with_progress(job: Any, command: str, quiet: bool = False,
                      on_partial: Callable[[Any], None] | None = None, every: float = 5.0) -> Any:
    """Run a job (peapp.jobs) here, as the GUI's executor does, saying how far it is on stderr at
    most every ``every`` seconds.  Ctrl-C stops it at its next progress point (KeyboardInterrupt
    reaches ``peapp.cli``, which says "interrupted")."""
    from peapp.jobs import run_job

    last = [time.monotonic()]

    def progress(fraction: float) -> None:
        now = time.monotonic()
        if not quiet and now - last[0] >= every:
            last[0] = now
            print(f"peapp {command}: {100 * fraction:.0f} % done", file=sys.stderr, flush=True)

    return run_job(job, on_progress=progress, on_partial=on_partial)
