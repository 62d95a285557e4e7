"""xdevlint: find and fix file moves that break across mount points.

Layers, top to bottom (a module imports only from its own layer or below, which
``tests/test_layout.py`` holds): ``frontends`` -> the engine (``engine``,
``discovery``, ``config``, ``registry``, ``fixing``, the result cache, ``batch``) ->
``fixes`` and ``rules`` ->
``stages`` -> ``analysis`` -> ``model`` and ``safemove``.

Kept import-light on purpose: ``xdevlint.safemove`` is imported by fixed code at run
time and must not pull in libcst or the analyser.
"""

__version__ = "0.1.0"
