"""``python -m peapp …``: the same as the ``peapp`` command."""

import sys

from peapp.cli import main

if __name__ == "__main__":
    sys.exit(main())
