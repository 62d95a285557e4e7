"""The package's layers, as ``xdevlint/__init__.py`` draws them: no module imports from a layer above it."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "xdevlint"

#: Top to bottom; a module may import from its own layer and the ones below.
LAYERS: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    ("frontends", ("xdevlint.frontends", "xdevlint.__main__")),
    ("engine", (
        "xdevlint.engine", "xdevlint.analyser", "xdevlint.discovery", "xdevlint.config", "xdevlint.registry",
        "xdevlint.fixing", "xdevlint.cache", "xdevlint.pool", "xdevlint.batch",
    )),
    ("fixes and rules", ("xdevlint.fixes", "xdevlint.rules")),
    ("stages", ("xdevlint.stages",)),
    ("analysis", ("xdevlint.analysis",)),
    ("model", ("xdevlint.model", "xdevlint.safemove", "xdevlint")),
)


def layer_of(module: str) -> int:
    """The index in ``LAYERS`` of the most specific prefix naming ``module``."""
    best: Optional[Tuple[int, int]] = None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                if best is None or len(prefix) > best[1]:
                    best = (index, len(prefix))
    assert best is not None, f"{module} is in no layer"
    return best[0]


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(path: Path, root: Path = PACKAGE) -> Iterator[Tuple[int, str]]:
    """Every xdevlint module ``path`` imports, function-level imports included."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "xdevlint":
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.split(".")[0] != "xdevlint":
                continue
            for alias in node.names:
                # ``from xdevlint.fixes import apply`` imports the submodule when there is one.
                candidate = f"{module}.{alias.name}"
                where = root.parent / Path(*candidate.split("."))
                is_module = where.with_suffix(".py").exists() or where.is_dir()
                yield node.lineno, candidate if is_module else module


def upward_imports(root: Path) -> List[str]:
    """``file:line: what imports what`` for each import that runs up the layers."""
    upward: List[str] = []
    for path in sorted(root.rglob("*.py")):
        name = module_name(path, root)
        mine = layer_of(name)
        for line, target in imported(path, root):
            if target == "xdevlint":
                continue  # ``from xdevlint import __version__``: the package's own metadata
            theirs = layer_of(target)
            if theirs < mine:
                upward.append(f"{path.relative_to(root.parent)}:{line}: {name} ({LAYERS[mine][0]}) imports {target} ({LAYERS[theirs][0]})")
    return upward


def test_every_module_has_a_layer() -> None:
    for path in PACKAGE.rglob("*.py"):
        layer_of(module_name(path))


def test_no_module_imports_from_a_layer_above_it() -> None:
    upward = upward_imports(PACKAGE)
    assert not upward, "imports that run up the layers:\n" + "\n".join(upward)


def test_the_check_catches_upward_imports(tmp_path: Path) -> None:
    """The test above can fail: absolute, relative and function-level upward imports are caught."""
    root = tmp_path / "xdevlint"
    (root / "stages").mkdir(parents=True)
    (root / "fixes").mkdir()
    (root / "engine.py").write_text("")
    (root / "fixes" / "apply.py").write_text("")
    (root / "stages" / "scan.py").write_text("from xdevlint.engine import lint_source\n")
    (root / "stages" / "positions.py").write_text("def f():\n    from ..fixes import apply\n")
    (root / "stages" / "source.py").write_text("from xdevlint.model import Span\nimport xdevlint.stages.scan\n")
    found = upward_imports(root)
    assert found == [
        "xdevlint/stages/positions.py:2: xdevlint.stages.positions (stages) imports xdevlint.fixes.apply (fixes and rules)",
        "xdevlint/stages/scan.py:1: xdevlint.stages.scan (stages) imports xdevlint.engine (engine)",
    ]


@pytest.mark.parametrize("package", sorted(p.parent for p in PACKAGE.rglob("__init__.py")))
def test_every_package_says_what_it_holds_and_may_import(package: Path) -> None:
    tree = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree)
    assert doc, f"{package.name}/__init__.py has no docstring"
    if package != PACKAGE:
        assert "import" in doc.splitlines()[0], f"{package.name}: the first line should say what it may import"


def public_paths() -> Dict[str, str]:
    """What users type or import, which the layout must keep working."""
    return {
        "console script": "xdevlint.frontends.cli:run",
        "flake8": "xdevlint.frontends.flake8_plugin:XdevlintChecker",
    }


def test_entry_points_name_the_moved_modules() -> None:
    import importlib
    import importlib.metadata

    scripts = {ep.name: ep.value for ep in importlib.metadata.entry_points(group="console_scripts") if ep.name == "xdevlint"}
    plugins = {ep.name: ep.value for ep in importlib.metadata.entry_points(group="flake8.extension") if ep.name == "XDV"}
    assert scripts == {"xdevlint": public_paths()["console script"]}
    assert plugins == {"XDV": public_paths()["flake8"]}
    for value in (*scripts.values(), *plugins.values()):
        module, _, attribute = value.partition(":")
        assert callable(getattr(importlib.import_module(module), attribute))


def test_public_import_paths() -> None:
    import subprocess
    import sys

    code = "import xdevlint.safemove, sys; from xdevlint.safemove import safe_move; assert 'libcst' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
    done = subprocess.run([sys.executable, "-m", "xdevlint", "--version"], capture_output=True, text=True, check=True)
    assert done.stdout.startswith("xdevlint ")
