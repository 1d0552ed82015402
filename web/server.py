"""How `moonshot serve` runs the app under uvicorn: its h11 connection with deadlines and with the
page headers on uvicorn's own answers.

uvicorn (0.55) closes a connection idle after a response (`timeout_keep_alive`, 5 s) but sets no
deadline on a request arriving: a client that sends half a request head (or a body a byte at a
time, or nothing at all after connecting) holds its connection for as long as it likes, since
every byte it sends cancels the keep-alive timer. Here a connection is closed when a request head
is not complete within HEAD_TIMEOUT of the connection (or of the last response), or its body
within BODY_TIMEOUT of its head. h11 itself bounds a head at 16 KiB (uvicorn's default
h11_max_incomplete_event_size): a longer one is uvicorn's 400.

uvicorn answers a request it cannot parse with its own 400, written before any ASGI app sees it:
that answer carries the page headers too (web.guard.HEADERS), as every answer of the app does.

Stopping (Ctrl-C, SIGTERM): uvicorn stops listening, waits for the open requests to be answered,
then runs the app's shutdown (web.jobs.Runner.stop_all). A request still computing (an answer of
expensive bots) would hold that wait, and the runs go on until the shutdown cancels them, so
`Server` tells the app at the signal itself (`on_exit`: Runner.close, flags only): every run and page
computation hears the stop at its next check (a tenth of a second or so), and GRACE bounds uvicorn's
wait for the rest (a body never sent, say). The whole stop takes well under 5 s."""
from __future__ import annotations

from typing import Callable

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from moonshot.web.guard import HEADERS

HEAD_TIMEOUT = 10.0      # seconds for a request's head (a browser sends it at once)
BODY_TIMEOUT = 60.0      # seconds for its body (the largest, a 2 MB upload, at ~35 KB/s)
KEEP_ALIVE = 5           # seconds an idle connection is kept after a response (uvicorn's default)
GRACE = 1.0              # seconds a stopping server waits for open requests (they hear the stop at once)


class Connection(H11Protocol):
    """uvicorn's h11 connection with deadlines on a request arriving (see the module's doc)."""
    head_timeout, body_timeout = HEAD_TIMEOUT, BODY_TIMEOUT
    _deadline = None                    # the timer of the part awaited now, or None (the app has the request)

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._await_client()

    def data_received(self, data: bytes) -> None:
        waiting = self.conn.their_state
        super().data_received(data)
        if self.conn.their_state is not waiting:
            self._await_client()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # may start a pipelined request at once
        self._await_client()

    def connection_lost(self, exc) -> None:
        self._stop_deadline()
        super().connection_lost(exc)

    def shutdown(self) -> None:
        """The server is stopping: a request whose body has not all come is closed now (its route
        hears a disconnect) rather than waited for until GRACE cancels it with a traceback."""
        if self.cycle is not None and not self.cycle.response_complete and self.conn.their_state is h11.SEND_BODY:
            self.transport.close()
            return
        super().shutdown()

    def _await_client(self) -> None:
        """A deadline for what the client owes now: a head (IDLE), a body (SEND_BODY), else none."""
        self._stop_deadline()
        state = self.conn.their_state
        if self.transport.is_closing() or state not in (h11.IDLE, h11.SEND_BODY):
            return
        self._deadline = self.loop.call_later(self.head_timeout if state is h11.IDLE else self.body_timeout,
                                              self._too_slow)

    def _stop_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()      # h11 cannot answer a request that has not arrived: closed, no 408

    def send_400_response(self, msg: str) -> None:
        """uvicorn's 400 for a request it cannot parse, with the page headers."""
        headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close"), *HEADERS]
        for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                      h11.Data(data=msg.encode("ascii")), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()


class Server(uvicorn.Server):
    """uvicorn's server that calls `on_exit()` on a stopping signal, as it arrives (see the module's doc)."""

    def __init__(self, config: uvicorn.Config, on_exit: Callable[[], None]):
        super().__init__(config)
        self.on_exit = on_exit

    def handle_exit(self, sig, frame) -> None:
        super().handle_exit(sig, frame)
        self.on_exit()


def config(app, head_timeout: float = HEAD_TIMEOUT, body_timeout: float = BODY_TIMEOUT, **kw):
    """The uvicorn.Config `moonshot serve` runs `app` with (tests pass short deadlines)."""
    connection = type("Connection", (Connection,), {"head_timeout": head_timeout, "body_timeout": body_timeout})
    return uvicorn.Config(app, http=connection, timeout_keep_alive=KEEP_ALIVE, log_level="warning",
                          timeout_graceful_shutdown=GRACE, **kw)
