"""The ``xdevlint`` command: a thin shell over discovery, the engine and the reporters.

Only argparse is imported up front: ``--version`` and ``--help`` answer without the
engine, and the engine itself imports libcst only for a file that needs it.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, NoReturn, Optional, Sequence, TextIO, Tuple

from xdevlint import __version__
from xdevlint.frontends.report import FORMATS

if TYPE_CHECKING:
    from xdevlint.config import ConfigResolver
    from xdevlint.fixing import FixRun
    from xdevlint.frontends.report import Reporter
    from xdevlint.model import FileResult

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse exits 2 on usage errors already; keep its message, add our name."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"xdevlint: error: {message}\n")


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {value!r}")
    return number


def _seconds(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = 0.0
    if not number > 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, got {value!r}")
    return number


def _codes(value: str) -> List[str]:
    return [code.strip().upper() for code in value.split(",") if code.strip()]


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="xdevlint",
        usage="xdevlint [check] [OPTIONS] [PATH ...]\n       xdevlint rule CODE|--all [--output-format json]\n"
        "       xdevlint rules [--output-format json]\n       xdevlint doctor [--output-format json]\n"
        "       xdevlint server",
        description="Find file moves that break across mount points (EXDEV). "
        "`xdevlint check` (or plain `xdevlint`) checks files; `xdevlint rules` lists the rules, "
        "`xdevlint rule CODE` explains one.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or directories to check ('-' for stdin; default: .)")
    parser.add_argument("--version", action="version", version=f"xdevlint {__version__}")
    parser.add_argument(
        "--config", metavar="FILE|KEY=VALUE", action="append", default=[],
        help="a configuration file (pyproject.toml, xdevlint.toml) to use instead of the closest one, "
        "or a TOML KEY = VALUE setting that overrides it (repeatable), e.g. --config 'ignore = [\"XDV203\"]'",
    )
    parser.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    parser.add_argument("--select", type=_codes, metavar="CODES", help="comma-separated rule codes or prefixes to enable")
    parser.add_argument("--extend-select", type=_codes, metavar="CODES", help="enable these on top of the selection")
    parser.add_argument("--ignore", type=_codes, metavar="CODES", help="comma-separated rule codes or prefixes to disable")
    parser.add_argument("--extend-ignore", type=_codes, metavar="CODES", help="disable these on top of the ignored ones")
    parser.add_argument("--exclude", type=lambda v: [p for p in v.split(",") if p], metavar="GLOBS", help="replace the excluded paths")
    parser.add_argument("--extend-exclude", type=lambda v: [p for p in v.split(",") if p], metavar="GLOBS", help="exclude these paths too")
    parser.add_argument(
        "--respect-gitignore", action=argparse.BooleanOptionalAction, default=None,
        help="skip files git ignores (.gitignore, .git/info/exclude, global excludes; default: on)",
    )
    parser.add_argument(
        "--force-exclude", action=argparse.BooleanOptionalAction, default=None,
        help="apply the excludes to files and directories named on the command line too (for pre-commit; "
        "default: off, as force-exclude in the configuration)",
    )
    parser.add_argument(
        "--max-file-size", metavar="SIZE",
        help="report larger files as XDV000 instead of checking them, e.g. 20MB, 512kB (0: no limit; default: 20MB)",
    )
    parser.add_argument(
        "--output-format", "--format", dest="format", choices=FORMATS, default="text", help="output format (default: text)"
    )
    parser.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto",
        help="colour the text output: auto (a terminal, unless NO_COLOR; FORCE_COLOR forces it), always, never",
    )
    parser.add_argument("--stdin-filename", metavar="NAME", help="the name of the file read from stdin")
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings remain")
    parser.add_argument("--output-file", metavar="FILE", help="write the report to FILE (replaced atomically) instead of stdout")
    parser.add_argument("--statistics", action="store_true", help="print how many findings each code has instead of the findings")
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="print the findings only: no summary, no warning, no progress line"
    )
    speed = parser.add_argument_group("speed")
    speed.add_argument(
        "-j", "--jobs", type=_positive, metavar="N",
        help="check files in N processes (default: the CPUs this process may use; 1: no worker processes)",
    )
    speed.add_argument("--no-cache", action="store_true", help="neither read nor write the result cache")
    speed.add_argument(
        "--cache-dir", type=Path, metavar="DIR",
        help="keep the result cache in DIR (default: $XDEVLINT_CACHE_DIR, else .xdevlint_cache in the project root)",
    )
    speed.add_argument(
        "--timeout", type=_seconds, metavar="SECONDS",
        help="report a file as XDV000 when a worker process spends longer than this on it (default: 120)",
    )
    fixing = parser.add_argument_group("fixing")
    fixing.add_argument("--fix", action="store_true", help="apply safe fixes, rewriting files in place (atomically)")
    fixing.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff, also apply unsafe fixes")
    fixing.add_argument("--diff", action="store_true", help="print the fixes as a unified diff and write nothing; exit 1 if any file would change")
    fixing.add_argument("--show-fixes", action="store_true", help="after fixing, list what was fixed in each file")
    fixing.add_argument(
        "--add-noqa", action="store_true",
        help="add a `# noqa: CODE` comment for each finding (rewriting files in place) and exit",
    )
    fixing.add_argument(
        "--vendor-safemove", metavar="PATH",
        help="write xdevlint.safemove into PATH (a package directory, as _safemove.py, or a .py file) and exit",
    )
    return parser


def _overrides(args: argparse.Namespace) -> Dict[str, Any]:
    from xdevlint import registry
    from xdevlint.config import ConfigError

    overrides: Dict[str, Any] = {}
    for option in ("select", "extend_select", "ignore", "extend_ignore"):
        value = getattr(args, option)
        if value is not None:
            for code in value:
                if not registry.is_known_selector(code):
                    raise ConfigError(f"--{option.replace('_', '-')}", code, "unknown rule selector; see `xdevlint rules`")
            overrides[option] = tuple(value)
    if args.respect_gitignore is not None:
        overrides["respect_gitignore"] = args.respect_gitignore
    if args.force_exclude is not None:
        overrides["force_exclude"] = args.force_exclude
    if args.max_file_size is not None:
        from xdevlint.config import parse_size

        overrides["max_file_size"] = parse_size(args.max_file_size, "--max-file-size", args.max_file_size)
    for option in ("exclude", "extend_exclude"):
        value = getattr(args, option)
        if value is not None:
            overrides[option] = tuple(value)
    return overrides


def _config_arguments(values: Sequence[str]) -> Tuple[Optional[Path], Dict[str, Any]]:
    """``--config`` values: at most one file, and TOML ``KEY = VALUE`` settings (as ruff
    reads them: a value naming an existing file is a file, one with ``=`` a setting)."""
    from xdevlint.config import ConfigError, from_table, parse_setting

    explicit: Optional[Path] = None
    table: Dict[str, Any] = {}
    for value in values:
        if os.path.isfile(value) or "=" not in value:
            if explicit is not None:
                raise ConfigError("--config", value, "only one configuration file may be given")
            explicit = Path(value)
            continue
        table.update(parse_setting(value))
    if not table:
        return explicit, {}
    try:
        settings = from_table(table, None)  # validates each key as the file's would be
    except ConfigError as error:
        raise ConfigError("--config", error.key, error.message) from None
    return explicit, {key.replace("-", "_"): getattr(settings, key.replace("-", "_")) for key in table}


def check(args: argparse.Namespace, stdin: TextIO, fixing: Optional["FixRun"] = None) -> List["FileResult"]:
    from xdevlint.batch import Settings, check_files
    from xdevlint.config import ConfigResolver
    from xdevlint.discovery import STDIN, discover
    from xdevlint.engine import lint_source
    from xdevlint.frontends import progress
    from xdevlint.pool import DEFAULT_TIMEOUT, available_cpus

    explicit, inline = _config_arguments(args.config)
    resolver = ConfigResolver(explicit, {**inline, **_overrides(args)}, isolated=args.isolated)
    edits = args.format in ("json", "sarif")  # the formats that print a fix's edits
    paths = tuple(args.paths) or (STDIN,) if args.stdin_filename and not args.paths else tuple(args.paths) or (".",)
    found = list(discover(paths, resolver.for_path))  # ``--force-exclude`` is in the configuration
    if not found and not args.quiet:  # as ruff: a run that checked nothing should not look like a clean one
        sys.stderr.write("warning: No Python files found under the given path(s)\n")
    if fixing is not None and not fixing.diff:
        # Every configuration is read before the first file is written: a broken one
        # found midway would otherwise stop a run that already rewrote half the tree.
        for candidate in found:
            if candidate.path != STDIN and candidate.problem is None:
                resolver.for_path(candidate.path)
    stdin_result: Optional["FileResult"] = None
    stdin_at = next((i for i, candidate in enumerate(found) if candidate.path == STDIN), None)
    if stdin_at is not None:
        del found[stdin_at]
        name = args.stdin_filename or STDIN
        config = resolver.for_path(name if name != STDIN else os.path.join(os.getcwd(), STDIN))
        data = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read().encode()
        if not (name != STDIN and config.is_excluded(name) and config.force_exclude):
            stdin_result = fixing.process(data, name, config, from_stdin=True) if fixing else lint_source(data, name, config, edits=edits)
    settings = Settings(
        jobs=args.jobs or available_cpus(),
        cache=not args.no_cache,
        cache_dir=args.cache_dir,
        edits=edits,
        timeout=args.timeout or DEFAULT_TIMEOUT,
    )
    bar = progress.Progress(len(found), sys.stderr) if found and progress.wanted(sys.stderr, args.quiet, args.format) else None
    try:
        results = check_files(found, resolver.for_path, settings, fixing, bar)
    finally:
        if bar is not None:
            bar.close()
    if stdin_result is not None:
        assert stdin_at is not None
        results.insert(stdin_at, stdin_result)
    return [_without_unselected(result, resolver) for result in results]


def _without_unselected(result: "FileResult", resolver: "ConfigResolver") -> "FileResult":
    """``result`` without the XDV000 its configuration ignores (``--ignore XDV000``)."""
    from dataclasses import replace

    from xdevlint.model import ANALYSIS_ERROR_CODE

    if not any(f.code == ANALYSIS_ERROR_CODE for f in result.findings):
        return result
    path = result.path if result.path != "-" else os.path.join(os.getcwd(), "-")
    if resolver.for_path(path).reports(ANALYSIS_ERROR_CODE, result.path):
        return result
    return replace(result, findings=tuple(f for f in result.findings if f.code != ANALYSIS_ERROR_CODE))


def _documentation_parser(command: str) -> argparse.ArgumentParser:
    parser = _Parser(prog=f"xdevlint {command}")
    if command == "rule":
        parser.add_argument("code", nargs="?", metavar="CODE", help="the code to explain, e.g. XDV101")
        parser.add_argument("--all", action="store_true", help="explain every code")
    else:
        parser.add_argument("--select", type=_codes, metavar="CODES", help="list only these codes or prefixes")
    parser.add_argument(
        "--output-format", "--format", dest="format", choices=("text", "json"), default="text", help="(default: text)"
    )
    return parser


def explain(argv: Sequence[str], out: TextIO) -> int:
    """``xdevlint rule CODE|--all``: the documentation, as Markdown or JSON."""
    parser = _documentation_parser("rule")
    args = parser.parse_args(argv)
    if (args.code is None) == (not args.all):
        parser.error("give one CODE, or --all")
    from xdevlint import registry

    if args.all:
        documented = registry.documented()
    else:
        found = registry.documentation_for(args.code)
        if found is None:
            sys.stderr.write(f"xdevlint: error: unknown rule {args.code!r}; see `xdevlint rules`\n")
            return EXIT_ERROR
        documented = (found,)
    if args.format == "json":
        import json

        entries = [_rule_entry(doc, explanation=True) for doc in documented]
        json.dump(entries if args.all else entries[0], out, indent=2)
        out.write("\n")
        return EXIT_CLEAN
    from xdevlint.rules.documented import markdown

    out.write("\n".join(markdown(doc) for doc in documented))
    return EXIT_CLEAN


def list_rules(argv: Sequence[str], out: TextIO) -> int:
    """``xdevlint rules``: one line per code (its summary), or JSON."""
    args = _documentation_parser("rules").parse_args(argv)
    from xdevlint import registry

    selectors = args.select or ["ALL"]
    for selector in selectors:
        if not registry.is_known_selector(selector):
            sys.stderr.write(f"xdevlint: error: --select: {selector}: unknown rule selector\n")
            return EXIT_ERROR
    documented = [doc for doc in registry.documented() if registry.matches(doc.CODE, selectors)]
    if args.format == "json":
        import json

        json.dump([_rule_entry(doc, explanation=False) for doc in documented], out, indent=2)
        out.write("\n")
        return EXIT_CLEAN
    width = max((len(doc.NAME) for doc in documented), default=0)
    for doc in documented:
        out.write(f"{doc.CODE}  {doc.NAME:<{width}}  {doc.summary()}\n")
    return EXIT_CLEAN


def doctor(argv: Sequence[str], out: TextIO) -> int:
    """``xdevlint doctor``: the configured locations on this machine, and the pairs of
    them a rename cannot cross here."""
    parser = _Parser(prog="xdevlint doctor", description="Where the configured locations are on this machine, "
                     "and between which of them a rename fails with EXDEV here.")
    parser.add_argument("--config", metavar="FILE", type=Path, help="the configuration whose locations to resolve")
    parser.add_argument("--isolated", action="store_true", help="the built-in locations only")
    parser.add_argument(
        "--output-format", "--format", dest="format", choices=("text", "json"), default="text", help="(default: text)"
    )
    args = parser.parse_args(argv)
    from xdevlint.config import ConfigError, ConfigResolver
    from xdevlint.frontends.doctor import places, report

    try:
        config = ConfigResolver(args.config, isolated=args.isolated).for_path(os.path.join(os.getcwd(), "x.py"))
    except ConfigError as error:
        sys.stderr.write(f"xdevlint: error: {error}\n")
        return EXIT_ERROR
    report(places(config.locations), out, args.format)
    return EXIT_CLEAN


def language_server(argv: Sequence[str]) -> int:
    """``xdevlint server``: a Language Server on stdin and stdout (needs ``xdevlint[server]``)."""
    _Parser(prog="xdevlint server", description="A Language Server (LSP) on stdin and stdout, for editors.").parse_args(argv)
    try:
        from xdevlint.frontends.server import serve
    except ImportError as error:
        sys.stderr.write(f"xdevlint: error: the server needs pygls ({error}); install `xdevlint[server]`\n")
        return EXIT_ERROR
    serve()
    return EXIT_CLEAN


def _rule_entry(documented: Any, explanation: bool) -> Dict[str, Any]:
    """A code as JSON, in the shape of ``ruff rule --output-format json``."""
    from xdevlint.rules.documented import markdown

    entry: Dict[str, Any] = {
        "code": documented.CODE,
        "name": documented.NAME,
        "summary": documented.summary(),
        "message": documented.MESSAGE,
        "fix": documented.FIX_TITLE,
    }
    if explanation:
        entry["explanation"] = markdown(documented)
    return entry


def main(argv: Optional[Sequence[str]] = None, stdout: Optional[TextIO] = None, stdin: Optional[TextIO] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    out = stdout or sys.stdout
    # The commands, as ruff's: `check` (the default, so `xdevlint PATH` still checks),
    # `rule`, `rules`. A directory named like a command is checked as `./rules`.
    if argv[:1] == ["rule"]:
        return explain(argv[1:], out)
    if argv[:1] == ["rules"]:
        return list_rules(argv[1:], out)
    if argv[:1] == ["doctor"]:
        return doctor(argv[1:], out)
    if argv[:1] == ["server"]:
        return language_server(argv[1:])
    if argv[:1] == ["check"]:
        argv = argv[1:]
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.statistics and args.format == "sarif":
        parser.error("--statistics cannot be combined with --format sarif")
    if args.vendor_safemove is not None:
        return vendor_safemove(args.vendor_safemove, out)
    from xdevlint.config import ConfigError
    from xdevlint.frontends.report import reporter, statistics_reporter, write_atomically

    if args.add_noqa and (args.fix or args.diff or args.paths == ["-"] or args.stdin_filename):
        parser.error("--add-noqa rewrites files: it cannot be combined with --fix, --diff or stdin")
    fixing = None
    if args.fix or args.diff:  # the fixer (difflib, the writer) only when fixing
        from xdevlint.fixing import FixRun

        fixing = FixRun(unsafe=args.unsafe_fixes, diff=args.diff)
    try:
        results = check(args, stdin or sys.stdin, fixing)
    except ConfigError as error:
        sys.stderr.write(f"xdevlint: error: {error}\n")
        return EXIT_ERROR
    if fixing is not None and (args.diff or fixing.stdin_output is not None):
        return _fix_output(args, fixing, results, out)
    if args.add_noqa:
        return add_noqa(results, args.quiet)
    report = statistics_reporter(args.format) if args.statistics else _styled(reporter(args.format), args)
    if args.output_file:
        buffer = io.StringIO()
        report(results, buffer)
        try:
            write_atomically(args.output_file, buffer.getvalue())
        except OSError as error:
            sys.stderr.write(f"xdevlint: error: cannot write {args.output_file}: {error.strerror or error}\n")
            return EXIT_ERROR
    else:
        report(results, out)
    if fixing is not None and args.show_fixes:
        fixing.write_fixes(out if args.format == "text" and not args.output_file else sys.stderr)
    if args.exit_zero:
        return EXIT_CLEAN
    return EXIT_FINDINGS if any(r.findings for r in results) else EXIT_CLEAN


def _styled(report: "Reporter", args: argparse.Namespace) -> "Reporter":
    """The text formats with ``--color`` and ``--quiet``; the others as they are."""
    if args.format not in ("text", "concise"):
        return report
    import functools

    from xdevlint.frontends.report import text

    styled = text.report if args.format == "text" else text.report_concise
    return functools.partial(styled, colour=args.color, quiet=args.quiet)


def _fix_output(args: argparse.Namespace, fixing: "FixRun", results: List["FileResult"], out: TextIO) -> int:
    """``--diff`` prints only the diff (exit 1 if anything would change); fixing stdin
    prints the fixed source, for editors, and the remaining findings on stderr."""
    if args.diff:
        fixing.write_diff(out)
        out.flush()  # the diff before the summary on stderr, when both go to a terminal
        if args.show_fixes:
            fixing.write_fixes(sys.stderr)
        sys.stderr.write(fixing.summary())
        return EXIT_FINDINGS if fixing.changed and not args.exit_zero else EXIT_CLEAN
    assert fixing.stdin_output is not None
    out.flush()
    buffer = getattr(out, "buffer", None)
    if buffer is not None:
        buffer.write(fixing.stdin_output)
        buffer.flush()
    else:  # a text stream (tests): decode as the interpreter would
        from xdevlint.stages.source import decode

        out.write(decode(fixing.stdin_output)[0])
    remaining = [r for r in results if r.findings]
    if remaining:
        from xdevlint.frontends.report import reporter

        reporter(args.format)(remaining, sys.stderr)
    if args.show_fixes:
        fixing.write_fixes(sys.stderr)
    if args.exit_zero:
        return EXIT_CLEAN
    return EXIT_FINDINGS if remaining else EXIT_CLEAN


def add_noqa(results: Sequence["FileResult"], quiet: bool) -> int:
    """``--add-noqa``: write the comments, file by file, each atomically; a file changed
    since it was checked is left alone."""
    from xdevlint.fixes.apply import apply_text
    from xdevlint.fixes.noqa import noqa_edits
    from xdevlint.fixes.writer import WriteError, write_fixed

    added = 0
    status = EXIT_CLEAN
    for result in results:
        if not result.findings or result.source is None:
            continue
        edits, count = noqa_edits(result.source, result.findings)
        if not edits:
            continue
        try:
            write_fixed(result.path, result.source, apply_text(result.source, edits))
        except WriteError as error:
            sys.stderr.write(f"xdevlint: error: {result.path}: {error}\n")
            status = EXIT_ERROR
            continue
        added += count
    if not quiet:
        sys.stderr.write(f"Added {added} noqa directive{'s' if added != 1 else ''}.\n")
    return status


def vendor_safemove(path: str, out: TextIO) -> int:
    from xdevlint.fixes.vendor import VendorError, vendor

    try:
        done = vendor(path)
    except VendorError as error:
        sys.stderr.write(f"xdevlint: error: {error}\n")
        return EXIT_ERROR
    out.write(f"{'Wrote' if done.changed else 'Up to date:'} {done.path}\n")
    function = done.move_function or "<module>.safe_move"
    out.write(
        "Point the fixes at it in pyproject.toml:\n"
        "  [tool.xdevlint]\n"
        f'  move-function = "{function}"\n'
        "  move-function-atomic = true\n"
    )
    return EXIT_CLEAN


#: The first generation's collection threshold for a run (CPython's default is 700). A
#: run allocates trees and scans by the million and keeps few of them: at 700 a cold run
#: of the ecosystem corpus spent a sixth of its CPU collecting (14.7 s -> 12.7 s at
#: 10,000). Workers inherit it (``pool``).
GC_THRESHOLD = 10_000


def run() -> None:
    """Console-script entry point."""
    import gc

    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    try:
        code = main()
        if not sys.stdout.closed:  # the language server closes it when the client says exit
            sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`xdevlint | head`): stop quietly, as grep would.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = EXIT_FINDINGS
    except KeyboardInterrupt:
        sys.stderr.write("xdevlint: interrupted\n")
        code = 130
    raise SystemExit(code)
