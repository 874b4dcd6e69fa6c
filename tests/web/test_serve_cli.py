"""`scrawl serve` as a user starts it: the help with its examples, the address printed, one line when the
port is taken. The server itself is never left running: uvicorn's loop is replaced by a recorder."""
import socket

import pytest
import uvicorn

from tests_support import run_cli


@pytest.fixture
def served(monkeypatch):
    """What uvicorn was asked to serve, instead of serving it."""
    calls = []

    def run(self, sockets=None):
        calls.append((self.config.app, [listener.getsockname() for listener in sockets or ()]))
        for listener in sockets or ():
            listener.close()
    monkeypatch.setattr(uvicorn.Server, "run", run)
    return calls


def test_help_shows_the_options_and_examples(capsys):
    code, out, _ = run_cli(capsys, "serve", "--help")
    assert code == 0
    for text in ("--host", "--port", "--data", "Examples", "scrawl serve --host 0.0.0.0", "/openapi.json"):
        assert text in out


def test_serve_prints_the_address_and_serves_the_app_on_the_port(tmp_path, served, capsys):
    with socket.socket() as probe:          # a port free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, out, err = run_cli(capsys, "serve", "--port", port, "--data", tmp_path / "night")
    assert (code, err) == (0, "")
    assert f"Open http://127.0.0.1:{port}/join/" in out and "in this computer's browser" in out
    assert "--host 0.0.0.0" in out          # ... and how to let the phones join
    assert (tmp_path / "night" / "scrawl.db").is_file()
    [(app, addresses)] = served
    assert addresses == [("127.0.0.1", port)] and app.title == "scrawl serve"


def test_a_port_already_in_use_is_one_line_and_exit_2(tmp_path, served, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run_cli(capsys, "serve", "--port", port, "--data", tmp_path)
    assert code == 2 and served == []
    assert err.count("\n") == 1
    assert err.startswith(f"scrawl: error: cannot listen on 127.0.0.1:{port}: ") and "--port" in err


def test_a_data_folder_that_cannot_be_made_is_one_line_and_exit_2(tmp_path, served, capsys):
    (tmp_path / "file").write_text("not a folder")
    code, _, err = run_cli(capsys, "serve", "--data", tmp_path / "file" / "games")
    assert code == 2 and served == [] and err.count("\n") == 1
    assert err.startswith(f"scrawl: error: cannot keep games in {tmp_path / 'file' / 'games'}: ")
