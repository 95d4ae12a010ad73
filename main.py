"""Double-click entry point: start the Positional Encoding Explorer (optionally opening PATH)."""

import multiprocessing
import sys

from ui.app import main

if __name__ == "__main__":
    # In a PyInstaller bundle the Training lab's worker processes are this executable started
    # again: this hands them to multiprocessing instead of opening a second window.
    multiprocessing.freeze_support()
    sys.exit(main())
