"""``python -m peapp …``: the same as the ``peapp`` command."""

from peapp.cli import run

if __name__ == "__main__":
    run()
