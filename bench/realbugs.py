"""Recall on real bugs: does xdevlint report the EXDEV renames, temp leaks and swallowed move errors
that public projects really shipped, and does it go quiet once they were fixed?

`realbugs.txt` lists bug sites from public reports, each at a PyPI release that has the bug and
the release that fixed it (its header gives the format). This downloads both releases
(`pip download --no-deps`: wheel, else sdist; the whole distribution, so the project tree is
present), runs xdevlint over each unpacked distribution directory, and reports per site:

- on its line: a finding of the kind's codes on the site's statement (any line of it);
- in its function: such a finding anywhere in the enclosing function (weaker);
- quieter after the fix: at FIXED, the function of the same qualified name has fewer findings
  of the kind's codes than at BAD (a function gone counts as none);
- for renames, XDV103 on the line (a separate `--select XDV103` pass, when the CLI knows the
  code) and ruff's blunt peer, `PTH104`/`PTH105` (every `os.rename`/`os.replace`), on the line.

    python bench/realbugs.py                    # everything; writes bench/realbugs-results.md
    python bench/realbugs.py --only fsspec      # some packages only (repeatable)

The report is markdown: a table per site and a summary per kind. The exit status is 0 whatever
the recall; 2 when something cannot be downloaded, unpacked, read or run.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:  # run as a script or loaded by path (tests): ecosystem.py is beside it
    sys.path.insert(0, str(BENCH))

from ecosystem import Pin, normalize, write_text  # noqa: E402

BUGS_FILE = BENCH / "realbugs.txt"
RESULTS_FILE = BENCH / "realbugs-results.md"
DEFAULT_CACHE = Path("~/.cache/xdevlint-realbugs")

#: The codes that count as reporting each kind of bug.
KIND_CODES: Dict[str, Tuple[str, ...]] = {
    "rename": ("XDV101", "XDV102"),
    "leak": ("XDV201", "XDV203"),
    "swallow": ("XDV202",),
}
#: Off by default (issue 30): run in a pass of its own, only when the CLI knows it.
OPT_IN_CODE = "XDV103"
#: ruff's rules for `os.rename` and `os.replace`: the peer that flags every rename.
RUFF_CODES = ("PTH104", "PTH105")
MODULE_LEVEL = "<module>"
FIELDS = 7
SEPARATOR = " | "
SDIST_SUFFIXES = (".tar.gz", ".tgz", ".tar.bz2", ".zip")


class RealBugsError(Exception):
    """The measurement cannot go on; the message says why."""


@dataclass(frozen=True)
class Site:
    kind: str
    bad: Pin
    fixed: Pin
    path: str
    line: int
    function: str
    report: str
    note: str

    @property
    def package(self) -> str:
        return self.bad.name

    @property
    def key(self) -> str:
        return f"{self.bad.spec} {self.path}:{self.line}"


def parse_bugs(text: str, where: str = "realbugs.txt") -> List[Site]:
    """The sites of a bug list; a malformed line is an error naming its file and line."""
    sites: List[Site] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue

        def bad(why: str) -> RealBugsError:
            return RealBugsError(f"{where}:{number}: {why}: {raw!r}")

        parts = [part.strip() for part in line.split(SEPARATOR, FIELDS - 1)]
        if len(parts) != FIELDS:
            raise bad(f"expected {FIELDS} fields separated by {SEPARATOR!r} "
                      "(KIND | NAME==BAD | NAME==FIXED | PATH:LINE | FUNCTION | REPORT | NOTE)")
        kind, bad_spec, fixed_spec, location, function, report, note = parts
        if kind not in KIND_CODES:
            raise bad(f"kind {kind!r} is not one of {', '.join(KIND_CODES)}")
        try:
            bad_pin, fixed_pin = Pin.parse(bad_spec), Pin.parse(fixed_spec)
        except Exception as error:  # ecosystem's own error type: its message says what is wrong
            raise bad(str(error)) from None
        if normalize(bad_pin.name) != normalize(fixed_pin.name) or bad_pin.version == fixed_pin.version:
            raise bad("BAD and FIXED must be two releases of one package")
        path, colon, line_text = location.rpartition(":")
        if not colon or not path or not line_text.isdigit() or int(line_text) < 1:
            raise bad(f"the site {location!r} is not PATH:LINE")
        if path.startswith("/") or ".." in Path(path).parts:
            raise bad(f"the path {path!r} must be relative, inside the distribution")
        if not re.fullmatch(r"<module>|[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", function):
            raise bad(f"the function {function!r} is not a qualified name")
        if not re.match(r"https?://", report):
            raise bad(f"the report {report!r} is not a URL")
        if not note:
            raise bad("the note is empty")
        sites.append(Site(kind, bad_pin, fixed_pin, path, int(line_text), function, report, note))
    if not sites:
        raise RealBugsError(f"{where}: no bug sites")
    return sites


def read_bugs(path: Path) -> List[Site]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RealBugsError(f"cannot read {path}: {error.strerror}") from None
    return parse_bugs(text, str(path))


# --- the distributions ------------------------------------------------------------------

def distribution_pin(filename: str) -> Optional[Tuple[str, str]]:
    """(normalized name, version) of a wheel or sdist file name; None for anything else."""
    if filename.endswith(".whl"):
        parts = filename.split("-")
        return (normalize(parts[0]), parts[1]) if len(parts) >= 5 else None
    for suffix in SDIST_SUFFIXES:
        if filename.endswith(suffix):
            name, dash, version = filename[: -len(suffix)].rpartition("-")
            return (normalize(name), version) if dash else None
    return None


def find_distribution(downloads: Path, pin: Pin) -> Optional[Path]:
    """The downloaded wheel (preferred) or sdist of exactly this pin, if any."""
    if not downloads.is_dir():
        return None
    want = (normalize(pin.name), pin.version)
    found = [p for p in sorted(downloads.iterdir()) if distribution_pin(p.name) == want]
    wheels = [p for p in found if p.name.endswith(".whl")]
    return (wheels or found or [None])[0]


def download(downloads: Path, pins: Sequence[Pin]) -> None:
    """`pip download` the releases alone: no dependencies; a wheel when there is one, else the sdist."""
    downloads.mkdir(parents=True, exist_ok=True)
    for pin in pins:  # one by one, so that an old sdist whose metadata fails to build names itself
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                   "--dest", str(downloads), pin.spec]
        done = subprocess.run(command, capture_output=True, encoding="utf-8")
        if done.returncode != 0 or find_distribution(downloads, pin) is None:
            raise RealBugsError(f"pip download failed for {pin.spec}:\n{done.stderr[-2000:]}")


def _extract(archive: Path, into: Path) -> None:
    if archive.name.endswith((".whl", ".zip")):
        with zipfile.ZipFile(archive) as handle:
            for member in handle.namelist():
                target = (into / member).resolve()
                if not target.is_relative_to(into.resolve()):
                    raise RealBugsError(f"{archive.name}: member {member!r} would land outside the tree")
            handle.extractall(into)
    else:
        with tarfile.open(archive) as handle:
            handle.extractall(into, filter="data")


def unpack(archive: Path, dest: Path) -> None:
    """Extract beside `dest`, then rename into place (a half-unpacked tree never looks whole).

    An sdist's single top directory (`name-1.0/`) is lifted, so that a path inside the
    distribution reads the same for a wheel and an sdist.
    """
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    try:
        _extract(archive, staging)
        entries = list(staging.iterdir())
        root = entries[0] if not archive.name.endswith(".whl") and len(entries) == 1 and entries[0].is_dir() else staging
        os.rename(root, dest)
    except (OSError, zipfile.BadZipFile, tarfile.TarError) as error:
        raise RealBugsError(f"cannot unpack {archive}: {error}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def prepare(cache: Path, pins: Iterable[Pin]) -> Dict[Pin, str]:
    """Each release's tree, `src/NAME-VERSION` relative to `cache`, fetching only what is missing."""
    downloads, sources = cache / "dl", cache / "src"
    wanted = sorted(set(pins), key=lambda pin: (normalize(pin.name), pin.version))
    missing = [pin for pin in wanted
               if not (sources / pin.dirname).is_dir() and find_distribution(downloads, pin) is None]
    if missing:
        download(downloads, missing)
    trees: Dict[Pin, str] = {}
    for pin in wanted:
        if not (sources / pin.dirname).is_dir():
            archive = find_distribution(downloads, pin)
            assert archive is not None  # download() checked it
            unpack(archive, sources / pin.dirname)
        trees[pin] = f"src/{pin.dirname}"
    return trees


def locate(tree: Path, path: str) -> Optional[str]:
    """`path` inside `tree`, as a path relative to `tree`: the exact one, else the one file that ends so."""
    if (tree / path).is_file():
        return path
    matches = sorted(p.relative_to(tree).as_posix() for p in tree.rglob(Path(path).name)
                     if p.is_file() and p.relative_to(tree).as_posix().endswith("/" + path))
    if len(matches) > 1:
        raise RealBugsError(f"{path} is ambiguous in {tree}: {', '.join(matches)}")
    return matches[0] if matches else None


# --- the tools --------------------------------------------------------------------------

@dataclass(frozen=True)
class Hit:
    path: str  # relative to the tree
    line: int
    code: str


def known_codes() -> Set[str]:
    """The rule codes the installed xdevlint knows."""
    done = subprocess.run([sys.executable, "-m", "xdevlint", "rules", "--output-format", "json"],
                          capture_output=True, encoding="utf-8")
    if done.returncode != 0:
        raise RealBugsError(f"xdevlint rules exited {done.returncode}:\n{done.stderr[-2000:]}")
    return {str(rule["code"]) for rule in json.loads(done.stdout)}


def run_xdevlint(cache: Path, tree: str, select: Optional[str] = None) -> List[Hit]:
    """xdevlint's findings in one distribution tree, paths relative to the tree."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    command = [sys.executable, "-m", "xdevlint", "--isolated", "--no-cache", "--format", "json"]
    if select:
        command += ["--select", select]
    done = subprocess.run([*command, tree], cwd=cache, env=env, capture_output=True, encoding="utf-8")
    if done.returncode not in (0, 1):
        raise RealBugsError(f"xdevlint exited {done.returncode} on {tree}:\n{done.stderr[-3000:]}")
    prefix = tree.rstrip("/") + "/"
    return [Hit(Path(item["path"]).as_posix().removeprefix(prefix), int(item["line"]), str(item["code"]))
            for item in json.loads(done.stdout)]


def ruff_command() -> Optional[List[str]]:
    """The environment's ruff: beside the interpreter, else on PATH; None when there is none."""
    beside = Path(sys.executable).with_name("ruff")
    found = str(beside) if beside.is_file() else shutil.which("ruff")
    return [found] if found else None


def run_ruff(ruff: Sequence[str], cache: Path, tree: str) -> List[Hit]:
    done = subprocess.run(
        [*ruff, "check", "--isolated", "--no-cache", "--exit-zero", "--select", ",".join(RUFF_CODES),
         "--output-format", "json", tree],
        cwd=cache, capture_output=True, encoding="utf-8",
    )
    if done.returncode != 0:
        raise RealBugsError(f"ruff exited {done.returncode} on {tree}:\n{done.stderr[-2000:]}")
    root = (cache / tree).resolve()
    hits: List[Hit] = []
    for item in json.loads(done.stdout):
        if item.get("code") not in RUFF_CODES:  # syntax errors have no code
            continue
        path = Path(item["filename"])
        path = path if path.is_absolute() else cache / path
        hits.append(Hit(path.resolve().relative_to(root).as_posix(), int(item["location"]["row"]), item["code"]))
    return hits


# --- where a site is in its source ------------------------------------------------------

def parse_source(tree: Path, path: str) -> Optional[ast.Module]:
    """The module, or None when the running Python cannot parse it (Python 2 code)."""
    try:
        return ast.parse((tree / path).read_bytes())
    except (SyntaxError, ValueError):
        return None


def statement_span(module: Optional[ast.Module], line: int) -> Tuple[int, int]:
    """The lines of the innermost statement (or `except` clause) that starts at or covers `line`.

    A compound statement counts up to its body: the `with`/`try`/`if` header, not its block.
    """
    if module is None:
        return line, line
    best: Optional[Tuple[int, int]] = None
    for node in ast.walk(module):
        if not isinstance(node, (ast.stmt, ast.ExceptHandler)):
            continue
        start = node.lineno
        end = node.end_lineno or start
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.AST):
            end = max(start, min(getattr(child, "lineno", end) for child in body) - 1)
        if start <= line <= end and (best is None or end - start < best[1] - best[0]):
            best = (start, end)
    return best or (line, line)


def function_spans(module: Optional[ast.Module]) -> Dict[str, Tuple[int, int]]:
    """Every function's qualified name (`Class.method`, `outer.inner`) and its lines, decorators included."""
    spans: Dict[str, Tuple[int, int]] = {}
    if module is None:
        return spans

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                if not isinstance(child, ast.ClassDef):
                    start = min([child.lineno] + [d.lineno for d in child.decorator_list])
                    spans.setdefault(name, (start, child.end_lineno or child.lineno))
                walk(child, name + ".")
            else:
                walk(child, prefix)

    walk(module, "")
    return spans


def function_span(tree: Path, path: Optional[str], function: str) -> Optional[Tuple[int, int]]:
    """The lines of `function` in `path`; the whole file for `<module>`; None when either is gone."""
    if path is None:
        return None
    module = parse_source(tree, path)
    if function == MODULE_LEVEL:
        return 1, max(1, len((tree / path).read_bytes().splitlines()))
    return function_spans(module).get(function)


# --- the verdicts -----------------------------------------------------------------------

@dataclass
class Verdict:
    site: Site
    on_line: bool = False
    in_function: bool = False
    bad_count: int = 0
    fixed_count: int = 0
    fixed_state: str = ""  # "", "function gone", "file gone"
    opt_in_on_line: Optional[bool] = None
    ruff_on_line: Optional[bool] = None
    codes: Tuple[str, ...] = ()

    @property
    def quieter(self) -> bool:
        return self.fixed_count < self.bad_count


@dataclass
class Run:
    """Every tool's findings per tree, by pass."""

    default: Dict[str, List[Hit]] = field(default_factory=dict)
    opt_in: Dict[str, List[Hit]] = field(default_factory=dict)
    ruff: Dict[str, List[Hit]] = field(default_factory=dict)


def hits_in(hits: Iterable[Hit], path: str, span: Tuple[int, int], codes: Sequence[str]) -> List[Hit]:
    return [h for h in hits if h.path == path and span[0] <= h.line <= span[1] and h.code in codes]


def judge(site: Site, cache: Path, trees: Dict[Pin, str], run: Run) -> Verdict:
    bad_tree, fixed_tree = cache / trees[site.bad], cache / trees[site.fixed]
    path = locate(bad_tree, site.path)
    if path is None:
        raise RealBugsError(f"{site.bad.spec}: no file {site.path} in {bad_tree}")
    module = parse_source(bad_tree, path)
    span = statement_span(module, site.line)
    function = function_span(bad_tree, path, site.function)
    if function is None:
        raise RealBugsError(f"{site.bad.spec}: no function {site.function} in {path}")
    if not function[0] <= site.line <= function[1]:
        raise RealBugsError(f"{site.bad.spec}: {path}:{site.line} is not inside {site.function}")
    codes = KIND_CODES[site.kind]
    bad_hits = run.default[trees[site.bad]]
    on_line = hits_in(bad_hits, path, span, codes)
    verdict = Verdict(site, on_line=bool(on_line), codes=tuple(sorted({h.code for h in on_line})))
    verdict.bad_count = len(hits_in(bad_hits, path, function, codes))
    verdict.in_function = verdict.bad_count > 0

    fixed_path = locate(fixed_tree, site.path)
    fixed_function = function_span(fixed_tree, fixed_path, site.function)
    if fixed_function is None:
        verdict.fixed_state = "file gone" if fixed_path is None else "function gone"
    else:
        assert fixed_path is not None
        verdict.fixed_count = len(hits_in(run.default[trees[site.fixed]], fixed_path, fixed_function, codes))
    if run.opt_in and site.kind == "rename":
        verdict.opt_in_on_line = bool(hits_in(run.opt_in[trees[site.bad]], path, span, (OPT_IN_CODE,)))
    if run.ruff and site.kind == "rename":
        verdict.ruff_on_line = bool(hits_in(run.ruff[trees[site.bad]], path, span, RUFF_CODES))
    return verdict


# --- the report -------------------------------------------------------------------------

def mark(value: Optional[bool]) -> str:
    return "-" if value is None else ("yes" if value else "no")


def ratio(count: int, total: int) -> str:
    return f"{count}/{total} ({100 * count / total:.0f}%)" if total else "0/0"


def render(verdicts: Sequence[Verdict], opt_in: bool, ruff: bool, head: Sequence[str]) -> str:
    lines = ["# xdevlint on real bugs", "", *head, ""]
    lines += ["## Summary per kind", ""]
    columns = ["kind", "sites", "on its line", "in its function", "quieter after the fix"]
    if opt_in:
        columns.append(f"{OPT_IN_CODE} on its line")
    if ruff:
        columns.append("ruff PTH104/PTH105 on its line")
    lines += ["| " + " | ".join(columns) + " |", "|---|" + "---:|" * (len(columns) - 1)]
    by_kind: Dict[str, List[Verdict]] = defaultdict(list)
    for verdict in verdicts:
        by_kind[verdict.site.kind].append(verdict)
    for kind in [*KIND_CODES, "all"]:
        group = verdicts if kind == "all" else by_kind.get(kind, [])
        if not group:
            continue
        n = len(group)
        row = [kind if kind != "all" else "**all**", str(n), ratio(sum(v.on_line for v in group), n),
               ratio(sum(v.in_function for v in group), n), ratio(sum(v.quieter for v in group), n)]
        renames = [v for v in group if v.site.kind == "rename"]
        if opt_in:
            row.append(ratio(sum(bool(v.opt_in_on_line) for v in renames), len(renames)) if renames else "-")
        if ruff:
            row.append(ratio(sum(bool(v.ruff_on_line) for v in renames), len(renames)) if renames else "-")
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "## Per site", ""]
    columns = ["#", "kind", "release (bad → fixed)", "site", "function", "on line", "codes", "in function",
               "findings bad → fixed", "quieter"]
    if opt_in:
        columns.append(OPT_IN_CODE)
    if ruff:
        columns.append("ruff")
    columns += ["report", "shape"]
    lines += ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for number, v in enumerate(verdicts, 1):
        s = v.site
        after = f"{v.fixed_count}" + (f" ({v.fixed_state})" if v.fixed_state else "")
        row = [str(number), s.kind, f"{s.bad.spec} → {s.fixed.version}", f"`{s.path}:{s.line}`", f"`{s.function}`",
               mark(v.on_line), ", ".join(v.codes) or "-", mark(v.in_function), f"{v.bad_count} → {after}", mark(v.quieter)]
        if opt_in:
            row.append(mark(v.opt_in_on_line))
        if ruff:
            row.append(mark(v.ruff_on_line))
        row += [s.report, s.note.replace("|", "\\|")]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


# --- the command ------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bugs", type=Path, default=BUGS_FILE, help="the bug list (default bench/realbugs.txt)")
    parser.add_argument("--output", type=Path, default=RESULTS_FILE,
                        help="where the markdown report goes (default bench/realbugs-results.md)")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE,
                        help=f"where releases are downloaded and unpacked (default {DEFAULT_CACHE}); reused")
    parser.add_argument("--only", action="append", metavar="NAME",
                        help="only the sites of this package (repeatable)")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        sites = read_bugs(args.bugs)
        if args.only:
            wanted = {normalize(name) for name in args.only}
            sites = [s for s in sites if normalize(s.package) in wanted]
            if not sites:
                raise RealBugsError(f"no site of {', '.join(args.only)} in {args.bugs}")
        cache = args.cache.expanduser().resolve()
        trees = prepare(cache, [pin for s in sites for pin in (s.bad, s.fixed)])
        opt_in = OPT_IN_CODE in known_codes()
        ruff = ruff_command()
        run = Run()
        rename_bad = {trees[s.bad] for s in sites if s.kind == "rename"}
        for pin, tree in trees.items():
            print(f"checking {pin.spec}", file=sys.stderr)
            run.default[tree] = run_xdevlint(cache, tree)
            if tree in rename_bad:
                if opt_in:
                    run.opt_in[tree] = run_xdevlint(cache, tree, select=OPT_IN_CODE)
                if ruff:
                    run.ruff[tree] = run_ruff(ruff, cache, tree)
        verdicts = [judge(site, cache, trees, run) for site in sites]
    except RealBugsError as error:
        print(f"realbugs: error: {error}", file=sys.stderr)
        return 2
    version = subprocess.run([sys.executable, "-m", "xdevlint", "--version"], capture_output=True, encoding="utf-8")
    head = [
        f"`python bench/realbugs.py`: {len(sites)} sites of "
        f"{len({s.report for s in sites})} reports in {len({normalize(s.package) for s in sites})} packages; "
        f"{version.stdout.strip() or 'xdevlint'}, Python {sys.version.split()[0]}.",
        "",
        "A site is *on its line* when a finding of its kind's codes (rename: "
        f"{', '.join(KIND_CODES['rename'])}; leak: {', '.join(KIND_CODES['leak'])}; swallow: "
        f"{', '.join(KIND_CODES['swallow'])}) falls on its statement; *in its function* when one falls "
        "anywhere in the enclosing function; *quieter* when the fixed release's function of the same "
        "name has fewer such findings than the buggy one (a function gone has none).",
    ]
    if not opt_in:
        head += ["", f"{OPT_IN_CODE} column left out: this xdevlint does not know the code."]
    if ruff is None:
        head += ["", "ruff column left out: no ruff beside the interpreter or on PATH."]
    text = render(verdicts, opt_in, ruff is not None, head)
    print(text)
    write_text(args.output, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
