"""XDV203 temp-never-removed."""

from __future__ import annotations

from typing import FrozenSet, Optional, Tuple

import libcst as cst

from xdevlint.analysis.lifetime import Lifetime, LifetimeProvider
from xdevlint.analysis.locations import Locations
from xdevlint.analysis.provenance import ProvenanceProvider
from xdevlint.rules.rule import Rule, snippet
from xdevlint.rules.xdv201_temp_not_cleaned_on_error import TEMP_FACTORY_WORDS, held_as
from xdevlint.stages.scan import Scan


class TempNeverRemoved(Rule):
    """
    ## What it does
    Flags a temporary file or directory (from `mkstemp`, `mkdtemp`, `mktemp` (also with a
    suffix: `mktemp() + ".ts"`),
    `NamedTemporaryFile(delete=False)`, `NamedTemporaryFile(...).name`,
    `os.path.join(mkdtemp(), ...)` (or `f"{mkdtemp()}/..."`, `mkdtemp() + "/..."`), a
    `functools.partial` factory,
    `urllib.request.urlretrieve(url)` without a filename, a unique name in the temp
    directory such as `os.path.join(tempfile.gettempdir(), f"x-{uuid.uuid4()}")`, or a
    same-module helper that returns one, where the call's own constant arguments do not
    keep it from making it: not `fetch(url, cache=True)` of one that makes its temp under
    `if not cache:`) that no normal path removes, moves, hands on
    or registers for removal: a path no exception went through. A removal only in an
    `except` clause does not count (every call that succeeds leaves the temp), and the
    message says so. The finding is on the creation call.

    Handing on means a real transfer: returning or yielding the temp (or a container
    or object holding it) to the caller, storing it where it outlives the call (in a
    parameter's or a global's container, or with `setattr` on an object the function
    was given), or storing it on `self` in a class where
    some method removes or moves it. A temp only passed to calls
    (`subprocess.run([..., tmp])`, `load(path=tmp)`, `os.execvpe(..., env)` with it in
    `env`, a dict the function made) is used there, not handed on; so is one made right
    in a call's argument (`os.chdir(mkdtemp())`, `Indexer(root=mkdtemp())`), which is
    judged as if bound to a name first: the call may remove, move, register or take it
    over (`atexit.register(shutil.rmtree, mkdtemp())`, `return Workspace(mkdtemp())`),
    and nothing else can. A call of the new path alone whose result the code keeps
    (`tmp_dir = realpath(mkdtemp())`, `py.path.local(mkdtemp())`) gives the path another
    form: that name is the temp's. A temp opened in a
    browser or viewer (`webbrowser.open`, `os.startfile`) is kept for the user on purpose,
    and so is not reported; one whose path is only printed or logged is. A temp kept on
    `self` is reported when no method of the class (or of a same-module base or
    subclass) removes it, unless the class derives from a class of its own project in
    another module (`from ..app import Hub`, or `from hub.app import Hub` in a file of
    the `hub` package), whose methods are not in view (so is one handed to such a base's
    initializer, `super().__init__(folder=mkdtemp())`: the base keeps it); but not when a set-up method
    (`setUp`, `setUpClass`, `__enter__`) keeps it and the class's own teardown
    (`tearDownClass`, `__exit__`) never calls the base's (`super().tearDownClass()`),
    since the base's never runs then. Removal counts however it is
    written: `os.unlink`, `shutil.rmtree`, `Path.unlink`, a path object's `remove()`,
    `delete()` or `rmtree()` (py.path's, plumbum's, etils' `epath`), `urlcleanup()` for `urlretrieve`'s, a same-module
    helper that removes its argument (also through a module function that returns its
    argument, `shutil.rmtree(to_bytes(p))`), a function of another module named for
    removal (`windows_proof_rm(p)`, `util.remove(p)`, `cleanup_later(p)`: taken at its
    word; a `remove` method of an object is a list's), a closure that does, a method
    of the object's class that does (also reading the attribute with
    `getattr(self, "name", None)`), a loop over the container holding it (`for f in
    self._files.values(): os.remove(f.name)`) or over a glob of its name and `*`
    (`for f in glob(f"{name}*"): os.remove(f)`), or a registration (`atexit.register`,
    `self.addCleanup`, `ExitStack.callback`, `weakref.finalize`); so does the removal of
    an attribute of an object made of the temp, which most likely keeps the path it was made
    on (`repo = localrepo.instance(ui, tmpdir)` then `repo.wvfs.rmtree(repo.root)`;
    `self.opener = vfs(root)` and a method's `shutil.rmtree(self.opener.base)`). For a path inside a
    new temp directory the directory is the temp: removing or moving the file (or the
    files of a loop over paths below it, `for p in [join(d, n) for n in names]`) leaves
    it, and the message names "the directory holding" the path. A `TemporaryDirectory`
    object is not reported: its finalizer removes the directory when the object goes.
    A `NamedTemporaryFile` that deletes its file (the default) is reported only for a
    file made again at its name once it is closed or its `with` has ended
    (`open(f.name, "w")`, `wb.save(f.name)`), or made beside it (`f.name + ".gz"`,
    `Path(f.name).with_suffix(".csv")`): the object removes its own file, never those.
    A temp renamed beside its own name (`os.rename(tmp, tmp + ".gz")`) is still in the
    temp directory: the rename lets go of nothing, and the temp is the new path from then on.
    A `mktemp` name (or a unique name in the temp directory) given first to a call that
    returns a value is a stem: `shutil.make_archive(stem, "zip", ...)` and helpers like
    it write `stem + ".zip"` and return that name, so the result is the temp and
    removing the result removes it. `tempfile`'s names are absolute, so
    `os.path.join(d, mktemp())` is the name itself.

    Only temps in the temp location are reported (no `dir=`, or one there, such as
    `tempfile.gettempdir()`; a project's maker named as tempfile's given a positional
    value other than a spelled-out string, `mktemp(storage_dir)`, may make it in that
    value, so it is not): a temp made in a directory the code chose (a log
    directory, beside its destination, inside another temp directory it removes) is a
    unique name in that directory, and that directory's to manage.

    ## Why is this bad?
    Nothing ever removes the file, so every call leaves one more behind: in a service
    or a worker that runs the code for every item, the temp directory grows without
    bound, the way orphaned downloads and staged shards filled the Xet migration
    workers' disks until everything failed with `ENOSPC`.

    ## Example
    ```python
    import subprocess
    import tempfile

    def render(source):
        fd, out = tempfile.mkstemp(suffix=".pdf")
        subprocess.run(["render", source, "-o", out], check=True)
        with open(out, "rb") as f:
            return f.read()
    ```

    ## Use instead
    Remove the temp when the function is done with it, whatever happens:
    ```python
    import os
    import subprocess
    import tempfile

    def render(source):
        fd, out = tempfile.mkstemp(suffix=".pdf")
        os.close(fd)
        try:
            subprocess.run(["render", source, "-o", out], check=True)
            with open(out, "rb") as f:
                return f.read()
        finally:
            os.unlink(out)
    ```
    or let a context manager do it:
    ```python
    import os
    import subprocess
    import tempfile

    def render(source):
        with tempfile.TemporaryDirectory() as work:
            out = os.path.join(work, "out.pdf")
            subprocess.run(["render", source, "-o", out], check=True)
            with open(out, "rb") as f:
                return f.read()
    ```

    ## Fix safety
    No automatic fix: only the author knows where the temp stops being needed (the
    end of the function, of a request, of the process), and a removal placed too early
    breaks whoever still reads it.

    ## Options
    - `per-file-ignores`: for example `"scripts/**" = ["XDV203"]`, for one-off scripts
      whose temps are meant to stay for a human to look at; or `# noqa: XDV203` on the
      creation that is kept on purpose.
    """

    CODE = "XDV203"
    NAME = "temp-never-removed"
    MESSAGE = "{name} from `{factory}` is never removed: {why}, so every call leaves it behind"

    METADATA_DEPENDENCIES = (ProvenanceProvider, LifetimeProvider)

    def __init__(self, context: object) -> None:
        super().__init__(context)  # type: ignore[arg-type]
        self.module: Optional[cst.Module] = None

    @classmethod
    def may_apply(cls, scan: Scan, locations: Locations) -> bool:
        return scan.contains_any(TEMP_FACTORY_WORDS) and scan.may_keep_temp()

    @classmethod
    def cleared(cls, scan: Scan) -> FrozenSet[Tuple[int, int]]:
        return scan.cleared_temps(stay=True)

    def visit_Module(self, node: cst.Module) -> None:
        self.module = node

    def visit_Call(self, node: cst.Call) -> None:
        lifetime: Optional[Lifetime] = self.get_metadata(LifetimeProvider, node, None)
        if lifetime is None or not lifetime.never_released or self.module is None:
            return
        temp = lifetime.temp
        if lifetime.kept_on is not None:
            why = f"it is kept on `{lifetime.kept_on}`, and no method of the class removes or moves it"
        elif lifetime.only_on_error:
            why = "only an `except` clause removes, moves or hands it on"
        elif lifetime.remade is not None:
            made = snippet(self.module.code_for_node(lifetime.remade))
            if lifetime.beside:
                why = f"the object deletes only its own file, and `{made}` made one beside it that no path removes"
            else:
                why = f"the object deleted its own file, and `{made}` made one again at its name that no path removes"
        else:
            why = "no path removes, moves, hands on or registers it"
        factory = snippet(self.module.code_for_node(temp.creation))
        self.report(node, self.MESSAGE.format(name=held_as(temp, lifetime.beside), factory=factory, why=why))
