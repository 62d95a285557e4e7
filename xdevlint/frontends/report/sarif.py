"""``--format sarif``: a SARIF 2.1.0 log, as GitHub code scanning and other viewers read it.

* ``tool.driver.rules`` comes from each code's documentation (the same text as
  ``xdevlint rule CODE``), in ``help``; no ``helpUri``, since xdevlint has no web page:
  ``properties.documentation`` names the command and the ``docs/rules/`` page instead.
* Paths are URIs relative to ``%SRCROOT%``, the working directory, which is where
  CI checks out the repository; a path outside it is an absolute ``file:`` URI.
* Columns are Unicode code points (``columnKind``), as xdevlint counts them, and
  ``endColumn`` is exclusive, as SARIF wants.
* ``partialFingerprints.primaryLocationLineHash`` hashes the rule, the path and the
  reported line's text with its whitespace collapsed, then numbers repeats of that
  triple (``HASH:2``). No line number goes in, so an alert survives code moving above
  it and re-indenting; GitHub uses this key instead of computing its own.
* A finding with a fix gets ``fixes`` with one replacement per textual edit.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, TextIO, Tuple
from urllib.parse import quote

from xdevlint import __version__, registry
from xdevlint.model import FileResult, Finding, Fix, Span
from xdevlint.rules.rule import DOC_SECTIONS
from xdevlint.stages.source import DecodeError, decode
from xdevlint.stages.suppress import split_lines

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
VERSION = "2.1.0"
SRCROOT = "%SRCROOT%"
#: Every finding means a real hazard (or an unchecked file): errors, as the exit code says.
LEVEL = "error"

def documentation(code: str) -> Dict[str, str]:
    """Where a rule is documented, as shipped: the ``xdevlint rule`` command (from the
    docstrings in the installed package) and the pages generated from the same
    docstrings into the source repository's ``docs/rules/``. No web page: xdevlint
    publishes none, and a link must not point at nothing. The full text is in ``help``."""
    return {"command": f"xdevlint rule {code}", "page": f"docs/rules/{code}.md"}


def _markdown(code: str, name: str, sections: Dict[str, str]) -> str:
    ordered = [h for h in DOC_SECTIONS if h in sections] + [h for h in sections if h not in DOC_SECTIONS]
    body = "".join(f"\n\n## {heading}\n{sections[heading]}" for heading in ordered)
    return f"# {name} ({code}){body}\n"


def first_sentence(text: str) -> str:
    """Up to the first full stop that ends a sentence (not the one in ``os.rename``)."""
    return re.split(r"(?<=\.)\s", " ".join(text.split()), maxsplit=1)[0]


def _descriptor(code: str, name: str, sections: Dict[str, str]) -> Dict[str, Any]:
    markdown = _markdown(code, name, sections)
    what = sections.get("What it does", name)
    return {
        "id": code,
        "name": name,
        "shortDescription": {"text": first_sentence(what)},
        "fullDescription": {"text": " ".join(what.split())},
        "help": {"text": markdown, "markdown": markdown},
        "defaultConfiguration": {"level": LEVEL},
        "properties": {"documentation": documentation(code)},
    }


def rule_descriptors() -> List[Dict[str, Any]]:
    """Every code's descriptor, XDV000 and XDV001 included, from its documentation."""
    return [_descriptor(doc.CODE, doc.NAME, doc.documentation()) for doc in registry.documented()]


def artifact_location(path: str, cwd: str) -> Dict[str, str]:
    absolute = os.path.abspath(path)
    try:
        relative = Path(os.path.relpath(absolute, cwd)).as_posix()
    except ValueError:  # another drive on Windows
        relative = os.pardir
    if relative.split("/")[0] != os.pardir:
        return {"uri": quote(relative), "uriBaseId": SRCROOT}
    return {"uri": Path(absolute).as_uri()}


def region(span: Span) -> Dict[str, int]:
    return {
        "startLine": span.line,
        "startColumn": span.column,
        "endLine": span.end_line,
        "endColumn": span.end_column,
    }


def fingerprint(code: str, uri: str, line_text: str) -> str:
    normalized = " ".join(line_text.split())
    return hashlib.sha256("\0".join((code, uri, normalized)).encode("utf-8")).hexdigest()[:16]


def _fixes(fix: Optional[Fix], location: Dict[str, str]) -> Optional[List[Dict[str, Any]]]:
    if fix is None or not fix.all_edits:
        return None  # SARIF needs at least one artifact change; a fix without text has none
    replacements = [
        {"deletedRegion": region(edit.span), "insertedContent": {"text": edit.content}} for edit in fix.all_edits
    ]
    return [
        {
            "description": {"text": f"{fix.message} ({fix.applicability.value} fix)"},
            "artifactChanges": [{"artifactLocation": dict(location), "replacements": replacements}],
        }
    ]


def _source_lines(result: FileResult) -> Optional[List[str]]:
    if result.source is None:
        return None
    try:
        text, _ = decode(result.source)
    except DecodeError:
        return None
    return split_lines(text)


def build(results: Sequence[FileResult], cwd: Optional[str] = None) -> Dict[str, Any]:
    """The SARIF log for ``results``, as a JSON-ready dict."""
    cwd = os.path.abspath(cwd or os.getcwd())
    descriptors = rule_descriptors()
    index = {descriptor["id"]: position for position, descriptor in enumerate(descriptors)}
    seen: Dict[Tuple[str, str, str], int] = {}
    sarif_results = []
    for result in results:
        lines = _source_lines(result)
        for finding in result.findings:
            sarif_results.append(_result(finding, lines, cwd, index, seen))
    return {
        "$schema": SCHEMA,
        "version": VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "xdevlint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "rules": descriptors,
                    }
                },
                "invocations": [{"executionSuccessful": True}],
                "originalUriBaseIds": {SRCROOT: {"uri": Path(cwd).as_uri().rstrip("/") + "/"}},
                "columnKind": "unicodeCodePoints",
                "results": sarif_results,
            }
        ],
    }


def _result(
    finding: Finding,
    lines: Optional[List[str]],
    cwd: str,
    index: Dict[str, int],
    seen: Dict[Tuple[str, str, str], int],
) -> Dict[str, Any]:
    location = artifact_location(finding.path, cwd)
    number = finding.span.line
    line_text = lines[number - 1] if lines is not None and 0 < number <= len(lines) else finding.message
    digest = fingerprint(finding.code, location["uri"], line_text)
    key = (finding.code, location["uri"], digest)
    seen[key] = occurrence = seen.get(key, 0) + 1
    item: Dict[str, Any] = {
        "ruleId": finding.code,
        "level": LEVEL,
        "message": {"text": finding.message},
        "locations": [{"physicalLocation": {"artifactLocation": location, "region": region(finding.span)}}],
        "partialFingerprints": {"primaryLocationLineHash": f"{digest}:{occurrence}"},
    }
    if finding.related:
        item["relatedLocations"] = [
            {
                "id": number,
                "physicalLocation": {"artifactLocation": artifact_location(related.path, cwd), "region": region(related.span)},
                "message": {"text": related.message},
            }
            for number, related in enumerate(finding.related)
        ]
    if finding.code in index:
        item["ruleIndex"] = index[finding.code]
    fixes = _fixes(finding.fix, location)
    if fixes:
        item["fixes"] = fixes
    return item


def report(results: Sequence[FileResult], out: TextIO) -> None:
    json.dump(build(results), out, indent=2, ensure_ascii=False)
    out.write("\n")
