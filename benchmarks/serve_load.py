"""The game-night server under a burst: concurrent 12 MP uploads and corrections, then a kill -9 mid-burst.

    python benchmarks/serve_load.py [--uploads 20] [--corrections 20] [--megapixels 12] [--grain]

Starts ``scrawl serve`` on 127.0.0.1 (a free port, a temporary data folder, a
fixed join code) as its own process, makes one two-player game, and sends:

1. one photo (the server's first, timed apart: it pays the imports and the
   blank sheet), then ``--uploads`` photos at once (the synthetic
   photographer's phone photos of the game's two sheets, ``--megapixels``
   each; with ``--grain``, re-saved with a phone sensor's grain, as heavy
   as a real phone's file), one connection each;
2. ``--corrections`` tally corrections at once to the sheets read;
3. another burst of uploads, during which the server is killed (SIGKILL) as
   soon as a third of them are acknowledged; the server is started again on
   the same folder, and every acknowledged upload must be there, with
   ``PRAGMA integrity_check`` answering ok.

Printed: answers by status, median and 95th percentile latency per burst,
the server's peak memory (VmHWM), and the kill test's result. Loopback only:
nothing leaves the machine.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

CODE = "BENCH1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port: int, data: Path) -> subprocess.Popen:
    server = subprocess.Popen([sys.executable, "-m", "scrawl.cli", "serve", "--port", str(port), "--data", str(data),
                               "--code", CODE], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(300):
        try:
            if request(port, "GET", "/api/server")[0] == 200:
                return server
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"the server did not start: {server.stderr.read().decode()[-500:]}")


def request(port: int, method: str, path: str, body: bytes | None = None,
            headers: dict | None = None, timeout: float = 300) -> tuple[int, bytes, float]:
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers={"X-Join-Code": CODE, **(headers or {})})
        response = connection.getresponse()
        return response.status, response.read(), time.perf_counter() - started
    finally:
        connection.close()


def multipart(data: bytes, name: str) -> tuple[bytes, dict]:
    boundary = "scrawl-bench-boundary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"{name}\"\r\n"
            f"Content-Type: image/jpeg\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    return body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}


def burst(calls: list, on_answer=None) -> list[tuple[int, bytes, float]]:
    """Every call at once, each on its own thread and connection; their (status, body, seconds)."""
    answers: list = [None] * len(calls)

    def run(index, call):
        try:
            answers[index] = call()
        except OSError as exc:
            answers[index] = (0, str(exc).encode(), 0.0)
        if on_answer:
            on_answer(index, answers[index])
    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def peak_memory_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def summary(label: str, answers: list) -> None:
    times = sorted(seconds for status, _, seconds in answers if status)
    statuses = Counter(status for status, _, _ in answers)
    p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))] if times else float("nan")
    print(f"{label:<26} answers {dict(sorted(statuses.items()))}   median {statistics.median(times):6.2f} s   "
          f"p95 {p95:6.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=20)
    parser.add_argument("--corrections", type=int, default=20)
    parser.add_argument("--megapixels", type=float, default=12.0)
    parser.add_argument("--grain", action="store_true", help="photos as heavy as a phone's (a sensor's grain)")
    args = parser.parse_args()

    from photographer import make_game_shots

    shots = make_game_shots(41, players=2, difficulty="medium", megapixels=args.megapixels)
    photos = [(shot.data, f"p{shot.truth['player']}{shot.suffix}") for shot in shots]
    if args.grain:
        from bench_support import with_grain

        photos = [(with_grain(data, Path(name).suffix, 41), Path(name).stem + ".jpg") for data, name in photos]
    print(f"photos: {len(photos)} of {args.megapixels:g} MP, {sum(len(d) for d, _ in photos) / 2 / 1e6:.1f} MB each")
    data = Path(tempfile.mkdtemp(prefix="serve-load-"))
    port = free_port()
    server = start_server(port, data)
    try:
        status, body, _ = request(port, "POST", "/api/games", json.dumps({"players": ["Ann", "Bo"]}).encode(),
                                  {"Content-Type": "application/json"})
        gid = json.loads(body)["id"]

        def upload(index):
            photo, name = photos[index % len(photos)]
            content, headers = multipart(photo, name)
            return lambda: request(port, "POST", f"/api/games/{gid}/photos", content, headers)

        status, _, seconds = upload(0)()       # the server's first photo: its imports, the blank sheet drawn
        print(f"first upload (cold server): {status}, {seconds:.2f} s")
        summary(f"{args.uploads} uploads at once", burst([upload(i) for i in range(args.uploads)]))
        game = json.loads(request(port, "GET", f"/api/games/{gid}")[1])
        sheets = [sheet["id"] for sheet in game.get("sheets", [])]
        calls = [lambda i=i: request(port, "PUT", f"/api/games/{gid}/sheets/{sheets[i % len(sheets)]}/tally",
                                     json.dumps({"count": i % 5}).encode(), {"Content-Type": "application/json"})
                 for i in range(args.corrections)] if sheets else []
        if calls:
            summary(f"{args.corrections} corrections at once", burst(calls))
        print(f"server peak memory: {peak_memory_mb(server.pid):.0f} MB (VmHWM, whole process)")
        kill_test(port, data, server, gid, upload, args.uploads)
    finally:
        if server.poll() is None:
            server.kill()
    print(f"(data kept in {data})")


def kill_test(port: int, data: Path, server: subprocess.Popen, gid: str, upload, count: int) -> None:
    """Kill the server once a third of a burst is acknowledged; every acknowledged photo must survive."""
    acknowledged, lock, killed = [], threading.Lock(), threading.Event()

    def on_answer(_, answer):
        status, body, _ = answer
        if status == 201:
            with lock:
                acknowledged.extend(json.loads(body).get("added", []))
                if len(acknowledged) >= max(1, count // 3) and not killed.is_set():
                    killed.set()
                    os.kill(server.pid, signal.SIGKILL)
    answers = burst([upload(i) for i in range(count)], on_answer)
    server.wait()
    print(f"kill -9 after {len(acknowledged)} acknowledged sheets; {sum(a[0] == 0 for a in answers)} uploads cut off")
    again = start_server(port, data)
    try:
        game = json.loads(request(port, "GET", f"/api/games/{gid}")[1])
        present = {sheet["id"] for sheet in game.get("sheets", [])}
        missing = [sid for sid in acknowledged if sid not in present]
        with sqlite3.connect(data / "scrawl.db") as db:
            verdict = db.execute("PRAGMA integrity_check").fetchone()[0]
        print(f"after restart: {len(acknowledged) - len(missing)} of {len(acknowledged)} acknowledged sheets present, "
              f"integrity_check {verdict}")
    finally:
        again.kill()


if __name__ == "__main__":
    main()
