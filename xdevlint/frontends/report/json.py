"""``--format json``: a list of findings, one object each, as DESIGN specifies."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, TextIO

from xdevlint.model import FileResult, Finding, Fix


def fix_as_dict(fix: Optional[Fix]) -> Optional[Dict[str, Any]]:
    if fix is None:
        return None
    return {
        "applicability": fix.applicability.value,
        "message": fix.message,
        "edits": [
            {
                "content": edit.content,
                "location": {"line": edit.span.line, "column": edit.span.column},
                "end_location": {"line": edit.span.end_line, "column": edit.span.end_column},
            }
            for edit in fix.all_edits
        ],
    }


def finding_as_dict(finding: Finding) -> Dict[str, Any]:
    return {
        "code": finding.code,
        "name": finding.name,
        "message": finding.message,
        "path": finding.path,
        "line": finding.span.line,
        "column": finding.span.column,
        "end_line": finding.span.end_line,
        "end_column": finding.span.end_column,
        "fix": fix_as_dict(finding.fix),
        # Other places the finding rests on (a helper's callers that pass the staged path).
        "related": [
            {
                "path": related.path,
                "line": related.span.line,
                "column": related.span.column,
                "end_line": related.span.end_line,
                "end_column": related.span.end_column,
                "message": related.message,
            }
            for related in finding.related
        ],
    }


def report(results: Sequence[FileResult], out: TextIO) -> None:
    items: List[Dict[str, Any]] = [finding_as_dict(f) for r in results for f in r.findings]
    json.dump(items, out, indent=2)
    out.write("\n")
