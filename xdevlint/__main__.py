"""``python -m xdevlint``."""

from xdevlint.cli import run

run()
