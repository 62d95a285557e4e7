"""The pre-commit hooks, through the real ``pre-commit``: it builds a virtualenv, pip-installs
this repository into it (libcst comes from PyPI) and runs the hooks in a throwaway repo.

pre-commit installs hooks from a git commit. ``try-repo`` on a dirty checkout commits
only tracked changes, so a file not yet added to git would be missing from the hook
while present in the tests; the hooks are therefore installed from a snapshot commit
of the working tree as the tests see it (tracked and untracked files, ignored files
left out), which in a clean clone is the same tree as HEAD.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import pytest

from tests.conftest import FIXTURES, REPO
from xdevlint.config import Config
from xdevlint.engine import lint_source
from tests.fixture_cases import ONLY_XDV101_SAFE_FIX

pytestmark = pytest.mark.slow

BAD = ONLY_XDV101_SAFE_FIX
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "xdevlint tests",
    "GIT_AUTHOR_EMAIL": "tests@xdevlint.invalid",
    "GIT_COMMITTER_NAME": "xdevlint tests",
    "GIT_COMMITTER_EMAIL": "tests@xdevlint.invalid",
}
#: pip, virtualenv and git may take a while on a cold cache; a hung network must still end.
TIMEOUT = 900


def git(args: Sequence[str], cwd: Path, env: Dict[str, str]) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True, timeout=TIMEOUT
    ).stdout


@pytest.fixture(scope="session")
def precommit_env(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, str]:
    """One PRE_COMMIT_HOME for the session, so hook environments are built once."""
    env = dict(os.environ, **GIT_IDENTITY)
    env["PRE_COMMIT_HOME"] = str(tmp_path_factory.mktemp("pre-commit-home"))
    env.pop("PRE_COMMIT", None)
    env.pop("SKIP", None)
    return env


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory: pytest.TempPathFactory, precommit_env: Dict[str, str]) -> Tuple[Path, str]:
    """A commit of the working tree (see the module docstring): (repository, sha)."""
    snapshot = tmp_path_factory.mktemp("hook-repo")
    listed = git(["ls-files", "-z", "--cached", "--others", "--exclude-standard"], REPO, precommit_env)
    for name in sorted(set(filter(None, listed.split("\0")))):
        parts = Path(name).parts
        if any(part.startswith(".") for part in parts[:-1]):  # tool caches (.mypy_cache ...)
            continue
        source = REPO / name
        if source.is_file():
            (snapshot / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, snapshot / name)
    git(["init", "-q"], snapshot, precommit_env)
    git(["add", "-A"], snapshot, precommit_env)
    git(["commit", "-q", "--no-verify", "--no-gpg-sign", "-m", "snapshot"], snapshot, precommit_env)
    return snapshot, git(["rev-parse", "HEAD"], snapshot, precommit_env).strip()


def project(path: Path, env: Dict[str, str]) -> Path:
    """A git repository with a bad file, a vendored bad file excluded by config, and a clean one."""
    path.mkdir()
    (path / "store.py").write_text(BAD)
    (path / "vendored").mkdir()
    (path / "vendored" / "third_party.py").write_text(BAD)
    (path / "clean.py").write_text("print('hello')\n")
    (path / "pyproject.toml").write_text('[tool.xdevlint]\nextend-exclude = ["vendored"]\n')
    git(["init", "-q"], path, env)
    git(["add", "-A"], path, env)
    return path


def pre_commit(args: Sequence[str], cwd: Path, env: Dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args, "--color", "never"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def describe(result: subprocess.CompletedProcess[str]) -> str:
    return f"exit {result.returncode}\n--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"


def test_hooks_manifest_is_valid() -> None:
    from pre_commit.clientlib import load_manifest

    hooks = {hook["id"]: hook for hook in load_manifest(str(REPO / ".pre-commit-hooks.yaml"))}
    assert set(hooks) == {"xdevlint", "xdevlint-fix"}
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["types_or"] == ["python"]  # a stub (.pyi) never runs: nothing to report
        assert hook["require_serial"] is True
        assert "--force-exclude" in hook["entry"].split()
        assert hook["minimum_pre_commit_version"]
    assert hooks["xdevlint-fix"]["entry"].split()[:2] == ["xdevlint", "--fix"]


def test_try_repo_check_hook_fails_on_the_finding(
    tmp_path: Path, hook_repo: Tuple[Path, str], precommit_env: Dict[str, str]
) -> None:
    repo, _ = hook_repo
    work = project(tmp_path / "work", precommit_env)
    result = pre_commit(["try-repo", str(repo), "xdevlint", "--all-files"], work, precommit_env)
    assert result.returncode == 1, describe(result)
    assert "store.py:10:9: XDV101" in result.stdout, describe(result)
    # --force-exclude: pre-commit names vendored/third_party.py, [tool.xdevlint] excludes it.
    assert "third_party.py" not in result.stdout, describe(result)


def test_fix_hook_rewrites_and_the_check_then_passes(
    tmp_path: Path, hook_repo: Tuple[Path, str], precommit_env: Dict[str, str]
) -> None:
    """The README's `repos:` set-up: both hooks from one rev; fix, then check."""
    repo, sha = hook_repo
    work = project(tmp_path / "work", precommit_env)
    (work / ".pre-commit-config.yaml").write_text(
        textwrap.dedent(
            f"""\
            repos:
              - repo: {repo}
                rev: {sha}
                hooks:
                  - id: xdevlint-fix
                  - id: xdevlint
            """
        )
    )
    git(["add", "-A"], work, precommit_env)
    check = pre_commit(["run", "xdevlint", "--all-files"], work, precommit_env)
    assert check.returncode == 1 and "XDV101" in check.stdout, describe(check)
    fixed = pre_commit(["run", "xdevlint-fix", "--all-files"], work, precommit_env)
    assert fixed.returncode == 1, describe(fixed)  # pre-commit fails a hook that modified files
    assert "files were modified by this hook" in fixed.stdout, describe(fixed)
    rewritten = (work / "store.py").read_text()
    assert rewritten != BAD
    compile(rewritten, "store.py", "exec")
    assert (work / "vendored" / "third_party.py").read_text() == BAD  # excluded: left alone
    assert (work / "clean.py").read_text() == "print('hello')\n"
    again = pre_commit(["run", "--all-files"], work, precommit_env)
    assert again.returncode == 0, describe(again)


def test_fix_hook_fixes_the_incident_shape(
    tmp_path: Path, hook_repo: Tuple[Path, str], precommit_env: Dict[str, str]
) -> None:
    """The incident's worker and a fixture of its shape (a temp made in /tmp, renamed into
    a cache, left behind on an error path: XDV101 and XDV201): the fix hook, safe fixes
    only, stages each temp beside the cache and removes it on the error paths; the files
    compile and no finding is left (the worker's swallowed error, XDV202, goes with the
    rename's risk: staged beside the cache, the rename cannot fail with EXDEV)."""
    repo, sha = hook_repo
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(FIXTURES / "incident" / "migrate_worker.py", work / "migrate_worker.py")
    shutil.copy(FIXTURES / "XDV101" / "mkstemp_to_xet_cache.py", work / "store_shard.py")
    (work / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {repo}\n    rev: {sha}\n    hooks:\n      - id: xdevlint-fix\n"
    )
    git(["init", "-q"], work, precommit_env)
    git(["add", "-A"], work, precommit_env)
    fixed = pre_commit(["run", "xdevlint-fix", "--all-files"], work, precommit_env)
    assert fixed.returncode == 1 and "files were modified by this hook" in fixed.stdout, describe(fixed)
    for name in ("migrate_worker.py", "store_shard.py"):
        source = (work / name).read_bytes()
        compile(source, name, "exec")
        left = {f.code for f in lint_source(source, str(work / name), Config(root=work)).findings}
        assert not left & {"XDV101", "XDV201"}, (name, left)
        assert b"dir=" in source and b"os.unlink(" in source
    worker = lint_source((work / "migrate_worker.py").read_bytes(), str(work / "migrate_worker.py"), Config(root=work))
    assert [f.code for f in worker.findings] == []


def readme_precommit_blocks() -> List[str]:
    """The ```yaml blocks of README's pre-commit paragraph, as a user copies them."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("**pre-commit**") : readme.index("**Code scanning")]
    return re.findall(r"```yaml\n(.*?)```", section, re.S)


def test_readme_local_hook_works_as_copied(tmp_path: Path, precommit_env: Dict[str, str]) -> None:
    """README's `repo: local` snippet, verbatim, with xdevlint installed on PATH."""
    local, _ = readme_precommit_blocks()
    work = project(tmp_path / "work", precommit_env)
    (work / ".pre-commit-config.yaml").write_text(local)
    git(["add", "-A"], work, precommit_env)
    env = dict(precommit_env, PATH=f"{Path(sys.executable).parent}{os.pathsep}{precommit_env.get('PATH', '')}")
    check = pre_commit(["run", "--all-files"], work, env)
    assert check.returncode == 1 and "store.py:10:9: XDV101" in check.stdout, describe(check)
    assert "third_party.py" not in check.stdout, describe(check)


def test_readme_clone_snippet_works_with_its_placeholders_filled(
    tmp_path: Path, hook_repo: Tuple[Path, str], precommit_env: Dict[str, str]
) -> None:
    """README's second snippet: only the clone's path and a real commit are to be filled in."""
    _, clone = readme_precommit_blocks()
    repo, sha = hook_repo
    assert "/path/to/xdevlint" in clone and "0123abcd..." in clone
    work = project(tmp_path / "work", precommit_env)
    (work / ".pre-commit-config.yaml").write_text(clone.replace("/path/to/xdevlint", str(repo)).replace("0123abcd...", sha))
    git(["add", "-A"], work, precommit_env)
    check = pre_commit(["run", "xdevlint", "--all-files"], work, precommit_env)
    assert check.returncode == 1 and "store.py:10:9: XDV101" in check.stdout, describe(check)
