"""xdevlint: find and fix file moves that break across mount points.

Kept import-light on purpose: ``xdevlint.safemove`` is imported by fixed code at run
time and must not pull in libcst or the analyser.
"""

__version__ = "0.1.0"
