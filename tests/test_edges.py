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


def test_rules_lab_takes_the_command_lines_set_texts_and_refuses_other_things():
    import moonshot
    with pytest.raises(BadInput, match=r"^unknown rule flag 'moon.nosuch'"):
        moonshot.rules_lab("moon", sets="family=moon.nosuch=5")            # read as --set text, then checked
    for sets in (5, {"family": 5}, {1: {"moon.min_bid": 5}}):
        with pytest.raises(BadInput, match=r"^sets=.* is not accepted; accepted: \{name: \{flag: value\}\}"):
            moonshot.rules_lab("moon", sets=sets)


@pytest.mark.parametrize("call, message", [
    (lambda m: m.simulate("moon", hands=0), "hands=0 is not a positive count"),
    (lambda m: m.simulate("moon", hands=5, games=5), "give hands= or games=, not both"),
    (lambda m: m.simulate("moon", players=9), "players=9 is not possible for Moon"),
    (lambda m: m.simulate("moon", seed=-1), "seed=-1 is not accepted"),
    (lambda m: m.simulate("moon", strategy=""), "strategy='' names no strategy"),
    (lambda m: m.analyze("moon", "bid-success", n=-1), "n=-1 is not a positive count"),
    (lambda m: m.hand("moon", "6-6 6-5 6-4 6-2 5-5 3-3 1-1", samples=0), "samples=0 is not a positive count"),
    (lambda m: m.whatif("moon", "moon.min_bid=5", jobs=0), "jobs=0 is not accepted"),
])
def test_the_librarys_messages_name_its_own_arguments(call, message):
    import moonshot
    with pytest.raises(BadInput) as caught:
        call(moonshot)
    assert str(caught.value).startswith(message) and "--" not in str(caught.value)


def test_a_result_shows_in_one_line_and_as_html_in_a_notebook():
    import moonshot
    r = moonshot.simulate("moon", hands=2_000, seed=1)
    assert repr(r).startswith("<Result 'Moon: hands': tables sides (") and len(repr(r)) < 300
    page = r._repr_html_()
    assert "<table" in page and "P(make)" in page and r.findings[0].split(":")[0] in page
    assert "p_make" not in page                               # the players' words, as the terminal shows


def test_the_readmes_python_sample_is_a_real_run():
    import moonshot
    readme = (ROOT / "README.md").read_text()
    sample = readme.split('r.findings                    # ["', 1)[1].split("...", 1)[0].strip()
    found = moonshot.simulate("moon", hands=100_000, seed=1).findings
    assert found[0].startswith(sample), (sample, found[0])
