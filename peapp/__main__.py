import sys

from peapp.cli import main

sys.exit(main())
