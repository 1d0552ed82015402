"""moonshot serve's edges (issue 38, item 6): the page headers on every answer (a 500 and uvicorn's own
400 included), the Host check (malformed Hosts refused; bound to 0.0.0.0, this machine's own address
served and others not), deadlines on requests that never finish arriving, reports served only from
regular files in the reports folder, the cap on played hands saying what happened, and
htd.judge_window's range. Through the test client, and through uvicorn as `moonshot serve` runs it
(web/server.py) with short deadlines."""
from __future__ import annotations

import socket
import subprocess
import sys
import time
import warnings
from contextlib import contextmanager

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from moonshot.simulator.errors import BadInput  # noqa: E402
from moonshot.web import bound, only_here  # noqa: E402
from moonshot.web.app import create_app  # noqa: E402
from moonshot.web.forms import Limits  # noqa: E402
from moonshot.web.guard import host_name  # noqa: E402
from moonshot.web.play.session import Table  # noqa: E402
from moonshot.web.server import config  # noqa: E402
from tests.serving import free_port, in_a_thread  # noqa: E402


def page_headers(headers) -> None:
    """The headers every answer carries (web/guard.py HEADERS)."""
    get = {k.lower(): v for k, v in dict(headers).items()}
    assert "frame-ancestors 'none'" in get["content-security-policy"] and "script-src 'self'" in get[
        "content-security-policy"]
    assert get["x-content-type-options"] == "nosniff" and get["x-frame-options"] == "DENY"
    assert get["referrer-policy"] == "same-origin"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = create_app(Limits(max_samples=2_000, default_samples=200), tmp_path_factory.mktemp("reports"),
                     hosts=("testserver",))

    @app.get("/test-only/forced/500")
    def boom():
        raise RuntimeError("a fault no route expects")
    return app


@pytest.fixture(scope="module")
def client(app):
    return TestClient(app, raise_server_exceptions=False)


def test_a_500_carries_the_page_headers(client):
    r = client.get("/test-only/forced/500")
    assert r.status_code == 500 and r.text == "Internal Server Error"     # no traceback to the page
    page_headers(r.headers)
    for r in (client.get("/"), client.get("/moon/nothing"), client.get("/", headers={"Host": "evil.example"}),
              client.post("/api/moon/hand", content="x", headers={"Content-Type": "text/plain"})):
        page_headers(r.headers)                                          # a page, a 404, two refusals


@pytest.mark.parametrize("host", ["[::1]evil.example", "127.0.0.1:abc", "::1", "127.0.0.1:99999", "localhost:80:80",
                                  "[::1", "[evil.example]:80", "127.0.0.1:", "", "testserver.:1"])
def test_a_malformed_host_is_refused(client, host):
    r = client.get("/", headers={"Host": host})
    assert r.status_code == 403 and r.text.count("\n") == 1 and "is not an address" in r.text, (host, r.text)
    page_headers(r.headers)


def test_host_names_are_read_strictly():
    assert host_name("[::1]:8000") == "::1" and host_name("LocalHost:1") == "localhost"
    assert host_name("127.0.0.1") == "127.0.0.1" and host_name("[::FFFF:127.0.0.1]:80") == "127.0.0.1"
    assert host_name("[::1]evil.example") == host_name("127.0.0.1:abc") == host_name("::1") == ""


# ---------------------------------------------------------------------------- through uvicorn

@contextmanager
def serving(app, host: str = "127.0.0.1", **deadlines):
    """`app` served as `moonshot serve` serves it (web.server.config), in a thread: its port."""
    port = free_port(host)
    with in_a_thread(config(app, host=host, port=port, **deadlines)):
        yield port


def ask(address: str, port: int, raw: bytes) -> bytes:
    """Send `raw` on a new connection; the whole answer, until the server closes it."""
    with socket.create_connection((address, port), timeout=10) as s:
        s.sendall(raw)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out


def get(address: str, port: int, host: str) -> int:
    answer = ask(address, port, f"GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
    return int(answer.split(b" ", 2)[1])


def answer_headers(answer: bytes) -> dict:
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
    return dict(line.split(": ", 1) for line in head)


@pytest.fixture(scope="module")
def port(app):
    with serving(app, head_timeout=0.5, body_timeout=0.5) as port:
        yield port


def test_uvicorns_own_400_carries_the_page_headers(port):
    answer = ask("127.0.0.1", port, b"NOT HTTP AT ALL\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400 ")
    page_headers(answer_headers(answer))


def closed_by_the_server(s: socket.socket, trickle: bytes = b"") -> bool:
    """Whether the server closes `s` while the client sends `trickle` a byte at a time (or waits),
    within 50 rounds of 0.1 s: a bound, not a timing assert (the deadline is 0.5 s)."""
    s.settimeout(0.1)
    for k in range(50):
        try:
            if k < len(trickle):
                s.sendall(trickle[k:k + 1])
            if s.recv(65536) == b"":
                return True
        except socket.timeout:
            continue
        except (ConnectionResetError, BrokenPipeError):
            return True
    return False


def test_idle_half_sent_and_slow_connections_are_closed(port):
    assert get("127.0.0.1", port, "localhost") == 200                 # a whole request is answered
    with socket.create_connection(("127.0.0.1", port)) as idle:
        assert closed_by_the_server(idle)                              # connected, nothing sent
    with socket.create_connection(("127.0.0.1", port)) as half:
        half.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
        assert closed_by_the_server(half, b"X-Slow: " + b"a" * 60)    # a head a byte every 0.1 s
    with socket.create_connection(("127.0.0.1", port)) as slow:
        slow.sendall(b"POST /api/moon/hand HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 500\r\n\r\n{")
        assert closed_by_the_server(slow, b" " * 60)                   # a body that never ends


def own_address() -> str | None:
    """This machine's address on its default route (a UDP socket's source; nothing is sent), if any."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))
            address = s.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def test_bound_to_every_address_the_machines_own_are_served_and_no_other(tmp_path):
    me = own_address()
    if me is None:
        pytest.skip("this machine has no address besides loopback")
    app = create_app(Limits(max_samples=2_000, default_samples=200), tmp_path, hosts=("0.0.0.0",))
    with serving(app, host="0.0.0.0") as port:
        assert get(me, port, f"{me}:{port}") == 200                     # the README's promise
        assert get(me, port, me) == 200
        assert get("127.0.0.1", port, f"localhost:{port}") == 200
        other = "203.0.113.7" if me != "203.0.113.7" else "203.0.113.8"
        assert get(me, port, f"{other}:{port}") == 403                  # an address not this machine's
        assert get(me, port, f"evil.example:{port}") == 403             # DNS rebinding
        assert get(me, port, f"[::1]{me}") == 403


def test_only_a_loopback_bind_goes_without_the_warning():
    for host, here in (("localhost", True), ("127.0.0.1", True), ("127.0.0.2", True), ("0.0.0.0", False)):
        sock = bound(host, free_port("127.0.0.1" if host != "0.0.0.0" else "0.0.0.0"))
        try:
            assert only_here(sock) is here, host
        finally:
            sock.close()


def test_serve_on_localhost_prints_no_warning():
    proc = subprocess.Popen([sys.executable, "-m", "moonshot.cli", "serve", "--port", str(free_port()), "--host",
                             "localhost"], stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stderr.readline()
        assert first.startswith("moonshot serve: open http://localhost:"), first
    finally:
        proc.kill()
        proc.wait(10)


# ---------------------------------------------------------------------------- reports, hands, flags

def test_reports_are_served_only_from_regular_files_inside_the_folder(client, tmp_path):
    root = client.app.state.reports_dir
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "report.html").write_text("<h1>not a report of this server</h1>")
    (outside / "secret.txt").write_text("secret")
    (root / "linked").symlink_to(outside, target_is_directory=True)     # a folder pointing out
    real = root / "real"
    real.mkdir()
    (real / "report.html").write_text("<h1>A real report</h1>")
    (real / ".env").write_text("TOKEN=1")
    (real / "passwd").symlink_to("/etc/passwd")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "report.html").write_text("<h1>hidden</h1>")
    (root / "looped").mkdir()
    (root / "looped" / "report.html").symlink_to(outside / "report.html")
    page = client.get("/reports").text
    assert "/reports/real/report.html" in page
    assert not any(name in page for name in ("linked", ".hidden", "looped"))
    assert client.get("/reports/real/report.html").text == "<h1>A real report</h1>"
    for url in ("/reports/linked/report.html", "/reports/linked/secret.txt", "/reports/real/.env",
                "/reports/real/passwd", "/reports/.hidden/report.html", "/reports/looped/report.html",
                "/reports/real/..%2F..%2Fetc%2Fpasswd"):
        r = client.get(url)
        assert r.status_code == 404 and "secret" not in r.text and "root:" not in r.text, url


def test_the_hand_cap_says_a_hand_was_pushed_out():
    table = Table(idle=900.0, keep=2)
    first, second, _ = (table.start("moon", 0, object()) for _ in range(3))
    with pytest.raises(BadInput) as pushed:
        table.get(first.id)
    assert "pushed out by a newer hand" in str(pushed.value) and "at most 2 hands at once" in str(pushed.value)
    assert "15 min" not in str(pushed.value)
    assert table.get(second.id) is second
    with pytest.raises(BadInput, match="never started here"):
        table.get("h999-1")
    idle = Table(idle=0.01)
    hand = idle.start("moon", 0, object())
    time.sleep(0.05)
    idle.start("moon", 0, object())                                      # looks at the idle ones
    with pytest.raises(BadInput, match="dropped after 1 s untouched"):
        idle.get(hand.id)


def test_judge_window_has_an_upper_bound(client):
    from moonshot.simulator.hit_the_deck.rules import parse_rules
    assert parse_rules(["htd.judge_window=10000"]).judge_window == 10_000
    for value in ("10001", "1e9", "inf"):
        with pytest.raises(BadInput, match="htd.judge_window"):
            parse_rules([f"htd.judge_window={value}"])
    r = client.post("/api/hit-the-deck/play", json={"seat": "0", "rules": ["htd.judge_window=1e9"]})
    assert r.status_code == 400 and "0..10000" in r.json()["error"]
