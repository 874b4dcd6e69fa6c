"""`scrawl serve` on a shared network (issue 19): the join code, bounded bodies, the Host check, the headers,
the access log, the deadlines for slow connections, and the database checked before serving."""
from __future__ import annotations

import json
import socket
import sqlite3
import threading
import time
from pathlib import Path

import pytest
import uvicorn
from fastapi.testclient import TestClient

from scrawl.guard import Guard, GuardSettings
from scrawl.web import create_app
from tests_support import run_cli

CODE, TOKEN = "K7QX2M", "host-secret"
ADDRESS = "http://127.0.0.1:8000"


@pytest.fixture
def guarded(tmp_path):
    app = create_app(tmp_path / "night", guard=GuardSettings(code=CODE, host_token=TOKEN, log=tmp_path / "access.log"))
    with TestClient(app, base_url=ADDRESS) as client:
        yield client, tmp_path / "access.log"


def test_the_api_needs_the_join_code_as_cookie_or_header(guarded):
    client, _ = guarded
    refused = client.get("/api/games")
    assert refused.status_code == 401 and "needs its join code" in refused.json()["detail"]
    assert client.get("/print/deck/doodles.pdf").status_code == 401
    assert client.get("/api/games", headers={"X-Join-Code": CODE.lower()}).status_code == 200
    joined = client.get(f"/join/{CODE}", follow_redirects=False)
    assert joined.status_code == 303 and joined.headers["location"] == "/"
    assert "httponly" in joined.headers["set-cookie"].lower()
    assert client.get("/api/games").status_code == 200        # the cookie, from now on


def test_a_wrong_join_link_is_refused_and_a_join_link_cannot_send_a_phone_elsewhere(guarded):
    client, _ = guarded
    wrong = client.get("/join/NOPE99", follow_redirects=False)
    assert wrong.status_code == 401 and "not this game night's" in wrong.text
    assert client.get("/api/games").status_code == 401
    away = client.get(f"/join/{CODE}?to=//evil.example/x", follow_redirects=False)
    assert away.headers["location"] == "/"
    inside = client.get(f"/join/{CODE}?to=/game/abc", follow_redirects=False)
    assert inside.headers["location"] == "/game/abc"


def test_only_the_host_deletes_a_game(guarded):
    client, _ = guarded
    client.get(f"/join/{CODE}")
    game = client.post("/api/games", json={"players": ["Ann", "Bo"]}).json()
    refused = client.delete(f"/api/games/{game['id']}")
    assert refused.status_code == 403 and "only the host" in refused.json()["detail"]
    client.get(f"/join/{CODE}?host={TOKEN}")
    assert client.delete(f"/api/games/{game['id']}").status_code != 403


def test_bodies_are_bounded_whether_declared_or_streamed(guarded):
    client, _ = guarded
    headers = {"X-Join-Code": CODE, "Content-Type": "application/json"}
    huge = b'{"players": ["' + b"a" * 30_000_000 + b'"]}'
    declared = client.post("/api/games", content=huge, headers=headers)
    assert declared.status_code == 413 and "over 1 MB" in declared.json()["detail"]

    def trickle():
        yield b'{"players": ["'
        for _ in range(40):
            yield b"a" * 100_000
        yield b'"]}'
    streamed = client.post("/api/games", content=trickle(), headers=headers)
    assert streamed.status_code == 413
    assert client.get("/api/games", headers=headers).json()["games"] == []     # nothing was made of it


def test_requests_for_another_host_name_are_refused(guarded):
    client, _ = guarded
    other = client.get("/", headers={"Host": "evil.example"})
    assert other.status_code == 400 and "its own address" in other.json()["detail"]
    assert client.get("/", headers={"Host": "192.168.1.20:8000"}).status_code == 200
    assert client.get("/", headers={"Host": "localhost:8000"}).status_code == 200


def test_every_answer_carries_the_security_headers(guarded):
    client, _ = guarded
    for response in (client.get("/"), client.get("/api/games")):
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"


def test_the_access_log_has_a_line_per_request_and_never_the_codes(guarded):
    client, log = guarded
    client.get(f"/join/{CODE}?host={TOKEN}")
    client.get("/api/games")
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(line["method"], line["path"], line["status"]) for line in lines] == \
        [("GET", "/join/*", 303), ("GET", "/", 200), ("GET", "/api/games", 200)]
    assert CODE not in log.read_text() and TOKEN not in log.read_text()


def _serve(app, monkeypatch, header_seconds: float):
    import scrawl.serving

    monkeypatch.setattr(scrawl.serving, "HEADER_SECONDS", header_seconds)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error",
                                           http=scrawl.serving.GuardedH11Protocol, timeout_keep_alive=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return server, thread, port


def test_a_connection_that_never_finishes_its_headers_is_closed(tmp_path, monkeypatch):
    server, thread, port = _serve(create_app(tmp_path), monkeypatch, header_seconds=0.5)
    try:
        slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
        for connection in slow:
            connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")     # and nothing more
            connection.settimeout(10)
        closed = sum(connection.recv(1) == b"" for connection in slow)     # b"": the server closed it
        assert closed == 20
        with socket.create_connection(("127.0.0.1", port)) as fine:   # a whole request is still served
            fine.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            fine.settimeout(10)
            assert fine.recv(12) == b"HTTP/1.1 200"
        for connection in slow:
            connection.close()
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture
def served(monkeypatch):
    calls = []

    def run(self, sockets=None):
        calls.append(self.config)
        for listener in sockets or ():
            listener.close()
    monkeypatch.setattr(uvicorn.Server, "run", run)
    return calls


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_serve_prints_the_join_link_and_the_host_link(tmp_path, served, capsys):
    code, out, err = run_cli(capsys, "serve", "--port", _free_port(), "--data", tmp_path, "--code", "dragon7")
    assert code == 0 and err == ""
    assert "/join/DRAGON7 in this computer's browser" in out
    assert "Host link (keep it to yourself: it can delete games):" in out and "?host=" in out
    [config] = served
    [guard] = [m for m in config.app.user_middleware if m.cls is Guard]
    assert guard.kwargs["settings"].code == "DRAGON7" and config.timeout_keep_alive == 5


def test_a_damaged_database_is_one_line_at_start(tmp_path, served, capsys):
    path = tmp_path / "scrawl.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (x)")
    db.executemany("INSERT INTO t VALUES (?)", [("x" * 3000,) for _ in range(200)])
    db.commit()
    db.close()
    data = bytearray(path.read_bytes())
    data[5000:9000] = b"\xff" * 4000
    path.write_bytes(bytes(data))
    code, out, err = run_cli(capsys, "serve", "--port", _free_port(), "--data", tmp_path)
    assert code == 2 and served == [] and err.count("\n") == 1
    assert f"{path} is damaged" in err and "move it away" in err
    path.write_bytes(b"not a database at all" * 100)
    code, _, err = run_cli(capsys, "serve", "--port", _free_port(), "--data", tmp_path)
    assert code == 2 and "damaged or not a database" in err


def test_a_bad_join_code_is_one_line(tmp_path, served, capsys):
    code, _, err = run_cli(capsys, "serve", "--data", tmp_path, "--code", "no spaces!")
    assert code == 2 and "a join code is 4 to 32 letters and digits" in err and served == []


PHOTO = Path(__file__).resolve().parents[2] / "samples" / "photos" / "game7-classic-p1-medium.jpg"


def _upload(client, gid, path=PHOTO):
    return client.post(f"/api/games/{gid}/photos", files={"photo": (path.name, path.read_bytes(), "image/jpeg")})


def test_only_the_phone_that_sent_a_photo_or_the_host_takes_it_out(tmp_path):
    app = create_app(tmp_path / "night", guard=GuardSettings(code=CODE, host_token=TOKEN))
    with TestClient(app, base_url=ADDRESS) as ann, TestClient(app, base_url=ADDRESS) as bo, \
            TestClient(app, base_url=ADDRESS) as host:
        for phone in (ann, bo):
            phone.get(f"/join/{CODE}")
        host.get(f"/join/{CODE}?host={TOKEN}")
        gid = ann.post("/api/games", json={"players": ["Ann", "Bo", "Cy"]}).json()["id"]
        photo = _upload(ann, gid).json()["photos"][0]["id"]
        refused = bo.delete(f"/api/games/{gid}/photos/{photo}")
        assert refused.status_code == 403 and "another phone sent this photo" in refused.json()["detail"]
        sheet = ann.get(f"/api/games/{gid}").json()["sheets"][0]["id"]
        retake = bo.post(f"/api/games/{gid}/photos?replaces={sheet}",
                         files={"photo": (PHOTO.name, PHOTO.read_bytes(), "image/jpeg")})
        assert retake.status_code == 403
        assert len(ann.get(f"/api/games/{gid}").json()["photos"]) == 1        # nothing was taken out
        assert ann.delete(f"/api/games/{gid}/photos/{photo}").status_code == 200
        again = _upload(bo, gid).json()["photos"][0]["id"]
        assert host.delete(f"/api/games/{gid}/photos/{again}").status_code == 200


def test_a_game_keeps_a_bounded_amount_of_photos(tmp_path, monkeypatch):
    import scrawl.api.photos

    app = create_app(tmp_path / "night")
    with TestClient(app) as client:
        gid = client.post("/api/games", json={"players": ["Ann", "Bo"]}).json()["id"]
        assert _upload(client, gid).status_code == 201
        kept = app.state.store.kept_bytes(gid)
        assert kept > PHOTO.stat().st_size          # the photo and its sheet's picture
        monkeypatch.setattr(scrawl.api.photos, "MAX_GAME_BYTES", kept + PHOTO.stat().st_size - 1)
        full = _upload(client, gid)
        assert full.status_code == 413 and "remove photos it no longer needs" in full.json()["detail"]
        assert len(client.get(f"/api/games/{gid}").json()["photos"]) == 1


def test_a_read_only_database_is_one_line_at_start(tmp_path, served, capsys):
    import os
    import shutil
    import subprocess

    path = tmp_path / "scrawl.db"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.commit()
    if os.geteuid() != 0:
        path.chmod(0o444)
    elif not shutil.which("chattr") or subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
        pytest.skip("root writes to any file, and this file system cannot make one immutable")
    try:
        code, _, err = run_cli(capsys, "serve", "--port", _free_port(), "--data", tmp_path)
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], capture_output=True)
    assert code == 2 and served == [] and err.count("\n") == 1
    assert f"{path} cannot be written" in err and "--data" in err
