"""``--output-format concise``: ``path:line:col: CODE [*] message``, one line per finding."""

from xdevlint.frontends.report.text import report_concise as report

__all__ = ["report"]
