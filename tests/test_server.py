"""``xdevlint server``, end to end: a client speaking LSP (JSON-RPC over stdio) to a real
server process: diagnostics on open, change and save, code actions (quick fixes, unsafe
ones marked, fix all), hover text, and settings from the workspace and the client."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List

import pytest

pytest.importorskip("pygls", reason="xdevlint[server] is not installed")

from tests.process import REPO, run  # noqa: E402
from tests.fixture_cases import ONLY_XDV101_SAFE_FIX  # noqa: E402

SAFE = ONLY_XDV101_SAFE_FIX
UNSAFE = 'import os\nimport tempfile\n\ntmp = tempfile.mktemp()\nos.rename(tmp, "/var/cache/blob")\nos.rename(tmp, elsewhere)\n'
TIMEOUT = 120


class Client:
    """A minimal LSP client: Content-Length framed JSON-RPC on the server's stdio."""

    def __init__(self, cwd: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(REPO))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "xdevlint", "server"], cwd=cwd, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        self.messages: "queue.Queue[Dict[str, Any]]" = queue.Queue()
        self.seen: List[Dict[str, Any]] = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            assert length is not None
            self.messages.put(json.loads(stream.read(length)))

    def send(self, message: Dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: Dict[str, Any]) -> None:
        self.send({"method": method, "params": params})

    def _next(self) -> Dict[str, Any]:
        for _ in range(TIMEOUT):
            try:
                message = self.messages.get(timeout=1)
                break
            except queue.Empty:
                if self.process.poll() is not None:
                    raise AssertionError(f"the server exited; stderr: {self._stderr()}") from None
        else:
            raise AssertionError(f"no message from the server in {TIMEOUT}s; stderr: {self._stderr()}")
        if "method" in message and "id" in message:  # a request from the server: answer it
            self.send({"id": message["id"], "result": None})
        return message

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            message = self._next()
            if message.get("id") == self.next_id and "method" not in message:
                assert "error" not in message, message
                return message["result"]
            self.seen.append(message)

    def wait(self, method: str, accept: Callable[[Dict[str, Any]], bool] = lambda p: True) -> Dict[str, Any]:
        for index, message in enumerate(self.seen):
            if message.get("method") == method and accept(message["params"]):
                del self.seen[: index + 1]
                return dict(message["params"])
        while True:
            message = self._next()
            if message.get("method") == method and accept(message["params"]):
                self.seen.clear()
                return dict(message["params"])

    def _stderr(self) -> str:
        self.process.kill()
        assert self.process.stderr is not None
        return self.process.stderr.read().decode(errors="replace")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "xdevlint.toml").write_text('extend-ignore = ["XDV203"]\n')
    return tmp_path


@pytest.fixture
def client(workspace: Path) -> Iterator[Client]:
    lsp = Client(workspace)
    result = lsp.request("initialize", {
        "processId": os.getpid(), "rootUri": workspace.as_uri(), "capabilities": {},
        "initializationOptions": {"xdevlint": {"extend-ignore": ["XDV102"]}},
    })
    assert result["serverInfo"] == {"name": "xdevlint", "version": __import__("xdevlint").__version__}
    capabilities = result["capabilities"]
    assert capabilities["hoverProvider"] and capabilities["codeActionProvider"]
    lsp.notify("initialized", {})
    yield lsp
    lsp.request("shutdown", None)
    lsp.notify("exit", None)
    assert lsp.process.wait(timeout=TIMEOUT) == 0


def open_document(client: Client, path: Path, text: str) -> List[Dict[str, Any]]:
    uri = path.as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
    return list(client.wait("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)["diagnostics"])


def apply_edits(text: str, edits: List[Dict[str, Any]]) -> str:
    """Apply LSP text edits (ASCII text: UTF-16 units are characters)."""
    lines = text.splitlines(keepends=True)

    def offset(position: Dict[str, int]) -> int:
        return sum(len(line) for line in lines[: position["line"]]) + position["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    return text


def cli_fixed(tmp_path: Path, text: str, name: str) -> str:
    copy = tmp_path / "cli" / name
    copy.parent.mkdir(exist_ok=True)
    shutil.copy(tmp_path / "xdevlint.toml", copy.parent / "xdevlint.toml")
    copy.write_text(text)
    run("--fix", "--no-cache", "--extend-ignore", "XDV102", name, cwd=copy.parent)
    return copy.read_text()


def test_diagnostics_fixes_and_hover(client: Client, workspace: Path) -> None:
    path = workspace / "store.py"
    uri = path.as_uri()
    diagnostics = open_document(client, path, SAFE)
    assert [(d["code"], d["range"]["start"]["line"], d["source"]) for d in diagnostics] == [("XDV101", 9, "xdevlint")]
    (found,) = diagnostics
    # a quick fix for the finding: the safe `dir=` fix, as `xdevlint --fix` makes it
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": found["range"], "context": {"diagnostics": [found]},
    })
    quick = [a for a in actions if a["kind"] == "quickfix"]
    assert quick and quick[0]["isPreferred"] is True and "unsafe" not in quick[0]["title"]
    fixed = apply_edits(SAFE, quick[0]["edit"]["changes"][uri])
    assert fixed == cli_fixed(workspace, SAFE, "store.py") != SAFE
    (fix_all,) = [a for a in actions if a["kind"] == "source.fixAll.xdevlint"]
    assert apply_edits(SAFE, fix_all["edit"]["changes"][uri]) == fixed
    # hover over the finding: its rule's documentation
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": found["range"]["start"]})
    assert hover["contents"]["kind"] == "markdown"
    assert hover["contents"]["value"].startswith("# cross-mount-rename (XDV101)\n\n## What it does\n")
    assert client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}) is None
    # a change that fixes it clears the diagnostics; a save checks again
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}],
    })
    assert client.wait("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)["diagnostics"] == []
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": SAFE}]})
    assert len(client.wait("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)["diagnostics"]) == 1
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    assert [d["code"] for d in client.wait("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)["diagnostics"]] == ["XDV101"]


def test_unsafe_fixes_are_marked(client: Client, workspace: Path) -> None:
    path = workspace / "unsafe.py"
    uri = path.as_uri()
    diagnostics = open_document(client, path, UNSAFE)
    # XDV102 (line 6) is off by the client's settings, XDV203 by the workspace's xdevlint.toml
    assert [(d["code"], d["range"]["start"]["line"]) for d in diagnostics] == [("XDV101", 4)]
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": diagnostics[0]["range"], "context": {"diagnostics": diagnostics},
    })
    (quick,) = [a for a in actions if a["kind"] == "quickfix"]
    assert quick["title"].endswith("(unsafe fix)") and quick["isPreferred"] is False
    assert "shutil.move" in apply_edits(UNSAFE, quick["edit"]["changes"][uri])
    assert not [a for a in actions if a["kind"] == "source.fixAll.xdevlint"]  # nothing safe to fix


def test_settings_from_the_client_and_the_workspace(client: Client, workspace: Path) -> None:
    path = workspace / "unsafe.py"
    uri = path.as_uri()
    assert [d["code"] for d in open_document(client, path, UNSAFE)] == ["XDV101"]
    client.notify("workspace/didChangeConfiguration", {"settings": {"xdevlint": {"select": ["XDV102"]}}})
    assert [d["code"] for d in client.wait("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)["diagnostics"]] == [
        "XDV102"
    ]
    client.notify("workspace/didChangeConfiguration", {"settings": {"xdevlint": {}}})
    assert [d["code"] for d in client.wait("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)["diagnostics"]] == [
        "XDV101", "XDV102"
    ]
    # the workspace's file changes and is saved: every open document is checked again
    (workspace / "xdevlint.toml").write_text('extend-ignore = ["XDV101"]\n')
    client.notify("textDocument/didSave", {"textDocument": {"uri": (workspace / "xdevlint.toml").as_uri()}})
    assert [d["code"] for d in client.wait("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)["diagnostics"]] == [
        "XDV102"
    ]
    # a bad setting is reported to the user, and changes nothing
    client.notify("workspace/didChangeConfiguration", {"settings": {"xdevlint": {"frobnicate": 1}}})
    message = client.wait("window/showMessage")
    assert message["type"] == 1 and "frobnicate" in message["message"]


HELPER = '''\
import os
import tempfile


def publish(src, dst):
    os.replace(src, dst)


def store(data):
    fd, tmp = tempfile.mkstemp()
    os.write(fd, data)
    os.close(fd)
    publish(tmp, os.path.join(os.environ["HF_HOME"], "blob"))
'''


def test_a_helpers_move_names_its_callers_as_related_information(client: Client, workspace: Path) -> None:
    """The rename in a helper is reported where it is written; the call that passes the
    temp and the cache path is its related information, at its own range."""
    path = workspace / "helper.py"
    diagnostics = open_document(client, path, HELPER)
    (found,) = [d for d in diagnostics if d["code"] == "XDV101"]
    assert found["range"]["start"]["line"] == 5
    (related,) = found["relatedInformation"]
    assert related["location"]["uri"] == path.as_uri()
    assert related["location"]["range"]["start"] == {"line": 12, "character": 4}
    assert "`publish()` is called here" in related["message"]
