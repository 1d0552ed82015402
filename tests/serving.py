"""Serving an app for the tests that need a real socket: uvicorn in a thread on a free port, and a
one-page site of "another origin" (the browser and header tests share these; no browser needed here)."""
from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


@contextmanager
def in_a_thread(config):
    """A uvicorn.Config served by uvicorn in a daemon thread until the block ends (it waits up to 10 s
    for the server to start, and to stop)."""
    import uvicorn
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    try:
        yield
    finally:
        srv.should_exit = True
        thread.join(10)


def one_page(html: bytes):
    """An ASGI app answering every request with `html` (a page of another site)."""
    async def app(scope, receive, send):
        if scope["type"] != "http":
            return
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/html")]})
        await send({"type": "http.response.body", "body": html})
    return app
