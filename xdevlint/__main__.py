"""``python -m xdevlint``."""

from xdevlint.frontends.cli import run

run()
