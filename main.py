"""Double-click entry point: start the Positional Encoding Explorer (optionally opening PATH)."""

import sys

from ui.app import main

if __name__ == "__main__":
    sys.exit(main())
