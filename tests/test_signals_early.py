"""A signal while the `moonshot` command is still loading (issue 38: "a signal prints one line and
nothing after it"): Ctrl-C gave a 20-30 line KeyboardInterrupt traceback, SIGTERM a silent death. Now
the command's one line and exit 130 / 143 (startup.py); `import moonshot` elsewhere changes no
handler, and the command puts back the handlers from before the catch when it ends."""
from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

LINE = {signal.SIGINT: ("moonshot: interrupted; no output written", 130),
        signal.SIGTERM: ("moonshot: terminated; no output written", 143)}


def python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_the_command_loads_is_its_one_line(sig):
    """The command's process (argv[0] `moonshot`) signalled after the package loaded and before cli.py
    took the signals: exactly the moment the catch is for."""
    done = python(f"import sys; sys.argv[0] = '/venv/bin/moonshot'; import moonshot, os, signal, time; "
                  f"os.kill(os.getpid(), {int(sig)}); time.sleep(30)")
    line, code = LINE[sig]
    assert (done.returncode, done.stderr) == (code, line + "\n")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads which signals a process catches in /proc")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_the_real_command_signalled_as_soon_as_it_catches_says_one_line(sig, tmp_path):
    """The console script itself, signalled the moment it catches SIGTERM (/proc's SigCgt): loading or
    already running, one line and the convention's exit code, never a traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "moonshot.cli", "simulate", "moon", "-n", "20000", "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    term = 1 << (signal.SIGTERM - 1)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            status = Path(f"/proc/{proc.pid}/status").read_text()
        except OSError:
            break
        caught = int(next(x for x in status.splitlines() if x.startswith("SigCgt:")).split()[1], 16)
        if caught & term:
            break
        time.sleep(0.002)
    proc.send_signal(sig)
    err = proc.communicate(timeout=60)[1]
    line, code = LINE[sig]
    assert (proc.returncode, err) == (code, line + "\n")


def test_import_moonshot_elsewhere_changes_no_signal_handler():
    done = python("import signal, moonshot; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler, "
                  "signal.getsignal(signal.SIGTERM) == signal.SIG_DFL)")
    assert done.stdout.split() == ["True", "True"], done.stderr


def test_the_command_puts_back_the_handlers_from_before_the_catch():
    done = python("import sys; sys.argv = ['/venv/bin/moonshot', '--version']; import signal; "
                  "from moonshot import cli\n"
                  "try:\n    cli.app()\nexcept SystemExit:\n    pass\n"
                  "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler, "
                  "signal.getsignal(signal.SIGTERM) == signal.SIG_DFL)")
    assert done.stdout.split()[-2:] == ["True", "True"], (done.stdout, done.stderr)
