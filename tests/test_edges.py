"""Edges a newcomer meets end in one line: exit 2 from the command line, BadInput from Python."""
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from moonshot.simulator.errors import BadInput
from moonshot.web import serve

ROOT = Path(__file__).resolve().parents[1]


def moonshot(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "moonshot.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)


def test_serve_on_a_port_in_use_is_one_line_before_any_address_is_printed():
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        done = moonshot("serve", "--port", str(port))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"moonshot: error: --port {port} on 127.0.0.1 is in use; accepted: a free "
                                        "port (--port), or stop what holds it"]


@pytest.mark.parametrize("host", ["no-such-host.invalid", "10.255.255.1"])
def test_serve_on_an_unknown_host_names_it(host, capsys):
    with pytest.raises(BadInput, match=f"^--host '{host}' is not an address of this machine"):
        serve(host, 8000)
    assert capsys.readouterr().err == ""                    # no warning, no "open http://..." first


@pytest.mark.parametrize("folder", ["/proc/x", str(ROOT / "README.md"), str(ROOT / "README.md/reports")])
def test_serve_refuses_a_reports_folder_it_cannot_write(folder, capsys):
    with pytest.raises(BadInput, match=f"^--reports '{folder}' cannot hold reports"):
        serve(reports_dir=Path(folder))
    assert capsys.readouterr().err == ""


def test_an_empty_strategy_is_refused_not_read_as_the_default():
    for args in (["simulate", "moon", "-n", "10", "--strategy", ""], ["compare", "moon", "-s", " ", "--vs", "greedy"],
                 ["simulate", "moon", "-n", "10", "--strategy", "1="]):
        done = moonshot(*args, "-q")
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, (args, done.stderr)
        assert "strategy" in done.stderr and "Moon:" not in done.stdout


def test_serve_accepts_a_new_reports_folder_under_a_writable_one(tmp_path):
    from moonshot.web import check_reports_dir
    check_reports_dir(tmp_path / "new" / "reports")          # made when the first report is written
    check_reports_dir(tmp_path)
    assert list(tmp_path.iterdir()) == []                   # the check leaves nothing behind
