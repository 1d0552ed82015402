"""Only the app's own pages may drive `moonshot serve` (docs/DESIGN: "The page is a server").

An ASGI middleware in front of every route, static file and report:
- `Host` must name an address the server answers to (127.0.0.1, localhost, [::1], the `--host`
  given), so a DNS-rebinding page (evil.example resolving to 127.0.0.1) is refused;
- a state-changing request (POST, PUT, PATCH, DELETE) is refused when its `Origin` is another
  origin or its `Sec-Fetch-Site` is not same-origin/none (what a browser sends for another site's
  fetch, form post or no-cors request);
- its body must be `application/json` (the upload routes: `multipart/form-data`), checked before
  the body is read: a `text/plain` form or no-cors fetch cannot be read as JSON;
- its body is read here, at most `limit` bytes (the Content-Length, and the bytes as they stream
  in for a chunked body), and handed on only when within it;
- every response carries the headers of HEADERS (CSP without inline script, no framing, nosniff).
Each refusal is one plain-text line with its status (403, 413, 415); nothing reaches the app.
"""
from __future__ import annotations

import socket
from typing import Iterable

from moonshot.simulator.errors import short

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
WILDCARDS = ("0.0.0.0", "::", "")
CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
JSON_LIMIT = 64 * 1024           # the largest form a page sends is a few hundred bytes; a hand a few dozen
UPLOAD_ROOM = 4096               # an upload's multipart framing (boundaries, part headers) beside its file

# Script only from /static (no inline script, no eval). style-src allows inline style: report.html is
# one self-contained file (its own <style> block, so it also opens from disk) and pandas writes a
# style= attribute into every table it renders; style cannot run script, and no value from a
# request or a file becomes markup (static/app.js builds text nodes; Jinja2 autoescapes). img-src
# allows data: for the figures report.html embeds as base64.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = ((b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
           (b"x-frame-options", b"DENY"), (b"referrer-policy", b"same-origin"))


def served_names(hosts: Iterable[str]) -> set[str]:
    """The names a request's Host may carry: the local ones and `hosts` (`moonshot serve --host`);
    for a wildcard bind (0.0.0.0, ::) also this machine's name and addresses, the ones other
    machines reach it by."""
    names = {*LOCAL_HOSTS, *(h.strip("[]").lower() for h in hosts)}
    if any(h in WILDCARDS for h in hosts):
        try:
            me = socket.gethostname()
            names |= {me.lower(), socket.getfqdn().lower()}
            names |= {info[4][0] for info in socket.getaddrinfo(me, None)}
        except OSError:
            pass
    names.discard("")
    return names


def host_name(value: str) -> str:
    """`Host` without its port: "127.0.0.1:8000" -> "127.0.0.1", "[::1]:8000" -> "::1"."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class Refused(Exception):
    def __init__(self, status: int, line: str):
        super().__init__(line)
        self.status, self.line = status, line


class Guard:
    """The middleware: Guard(app, hosts=served_names(...), uploads={path: the body's byte limit})."""

    def __init__(self, app, hosts: Iterable[str], uploads: dict[str, int] | None = None,
                 limit: int = JSON_LIMIT):
        self.app, self.hosts, self.limit = app, {h.lower() for h in hosts}, limit
        self.uploads = dict(uploads or {})

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message = {**message, "headers": [*message.get("headers", []),
                                                  *(h for h in HEADERS if h[0] not in have)]}
            await send(message)

        try:
            headers = self.check(scope)
            if scope["method"] in CHANGING:
                receive = await self.read_body(scope, headers, receive)
        except Refused as no:
            return await refuse(send_with_headers, no.status, no.line)
        await self.app(scope, receive, send_with_headers)

    def check(self, scope) -> dict[str, str]:
        """The request's headers, or Refused: a Host not served, another origin's state change, a
        body that is not the route's type."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        if host_name(host) not in self.hosts:
            raise Refused(403, f"refused: Host {short(host)} is not an address this server answers to; "
                               f"accepted: {', '.join(sorted(self.hosts))}")
        if scope["method"] not in CHANGING:
            return headers
        origin = headers.get("origin")
        own = f"{scope.get('scheme', 'http')}://{host}".lower()
        if origin is not None and origin.strip().lower() != own:
            raise Refused(403, f"refused: a request from {short(origin)}; accepted: only this app's own pages ({own})")
        site = headers.get("sec-fetch-site")
        if site is not None and site.strip().lower() not in ("same-origin", "none"):
            raise Refused(403, f"refused: a {short(site)} request; accepted: only this app's own pages")
        kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if kind and kind != wanted_type(scope, self.uploads):
            raise Refused(415, f"refused: a body of type {short(kind)}; accepted: {wanted_type(scope, self.uploads)}")
        return headers

    async def read_body(self, scope, headers: dict[str, str], receive):
        """The whole body, at most the route's limit, as a `receive` the app reads it from."""
        limit = self.uploads.get(scope["path"], self.limit)
        too_big = Refused(413, f"refused: the request body is over {limit:,} bytes; accepted: at most {limit:,}")
        declared = headers.get("content-length", "").strip()
        if declared and (not declared.isdigit() or int(declared) > limit):
            raise too_big
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise Refused(400, "refused: the client went away before sending its body")
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:                   # a chunked body (or one longer than it said)
                raise too_big
            chunks.append(chunk)
            more = message.get("more_body", False)
        body, sent = b"".join(chunks), False
        if body and not headers.get("content-type"):     # no type said: only an empty body (a cancel) passes
            raise Refused(415, f"refused: a body without a type; accepted: {wanted_type(scope, self.uploads)}")

        async def replay():
            nonlocal sent
            if sent:
                return await receive()         # after the body: the disconnect the app may wait for
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return replay


def wanted_type(scope, uploads: dict[str, int]) -> str:
    return "multipart/form-data" if scope["path"] in uploads else "application/json"


async def refuse(send, status: int, line: str) -> None:
    body = (line + "\n").encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
