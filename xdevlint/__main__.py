"""``python -m xdevlint``."""

from xdevlint.frontends.cli import run

# Guarded: worker processes start with ``spawn``, which imports the main module again.
if __name__ == "__main__":
    run()
