"""Only the app's own pages may drive `moonshot serve` (docs/DESIGN: "The page is a server").

An ASGI middleware in front of every route, static file and report:
- `Host` must be a name with an optional port (RFC 9110: not "[::1]evil.example", not
  "127.0.0.1:abc") naming an address the server answers to (127.0.0.1, localhost, [::1], the
  `--host` given; bound to 0.0.0.0 or ::, also this machine's name and its addresses, among them
  the one the request reached), so a DNS-rebinding page (evil.example resolving to 127.0.0.1) is
  refused;
- a state-changing request (POST, PUT, PATCH, DELETE) is refused when its `Origin` is another
  origin or its `Sec-Fetch-Site` is not same-origin/none (what a browser sends for another site's
  fetch, form post or no-cors request);
- its body must be `application/json` (the upload routes: `multipart/form-data`), checked before
  the body is read: a `text/plain` form or no-cors fetch cannot be read as JSON;
- its body is read here, at most `limit` bytes (the Content-Length, and the bytes as they stream
  in for a chunked body), and handed on only when within it;
Each refusal is one plain-text line with its status (403, 413, 415); nothing reaches the app.

Headers (outside the Guard and outside Starlette's error handler: web/app.py's App) puts the headers
of HEADERS (CSP without inline script, no framing, nosniff) on every response, a refusal or a 500
included; web/server.py puts them on uvicorn's own 400.
"""
from __future__ import annotations

import ipaddress
import re
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
    for a wildcard bind (0.0.0.0, ::) also this machine's name and the addresses it resolves to
    (the Guard adds the address each request reached: own_address)."""
    hosts = list(hosts)
    names = {*LOCAL_HOSTS, *(canonical(h.strip("[]")) for h in hosts)}
    if wildcard(hosts):
        try:
            me = socket.gethostname()
            names |= {me.lower(), socket.getfqdn().lower()}
            for name in {me, socket.getfqdn()}:
                names |= {canonical(info[4][0]) for info in socket.getaddrinfo(name, None)}
        except OSError:
            pass
    names.discard("")
    return names


def wildcard(hosts: Iterable[str]) -> bool:
    return any(h.strip("[]") in WILDCARDS for h in hosts)


def canonical(name: str) -> str:
    """A name lower-cased; an IP address in its one written form ("::FFFF:1.2.3.4" -> "1.2.3.4")."""
    name = name.strip().lower()
    try:
        ip = ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        return name
    return str(getattr(ip, "ipv4_mapped", None) or ip)


HOST = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::([0-9]{1,5}))?")


def host_name(value: str) -> str:
    """`Host` without its port: "127.0.0.1:8000" -> "127.0.0.1", "[::1]:8000" -> "::1"; "" when it is
    not a name or [IPv6 address] with an optional port ("[::1]evil.example", "127.0.0.1:abc", "::1")."""
    found = HOST.fullmatch(value.strip().lower())
    if found is None or (found[2] and int(found[2]) > 65535):
        return ""
    name = found[1]
    if name.startswith("["):
        try:
            return canonical(str(ipaddress.IPv6Address(name[1:-1])))
        except ValueError:
            return ""
    return canonical(name)


class Refused(Exception):
    def __init__(self, status: int, line: str):
        super().__init__(line)
        self.status, self.line = status, line


class Guard:
    """The middleware: Guard(app, hosts=served_names(...), uploads={path: the body's byte limit});
    own_address (a wildcard bind): a Host naming the address the request reached is served too."""

    def __init__(self, app, hosts: Iterable[str], uploads: dict[str, int] | None = None,
                 limit: int = JSON_LIMIT, own_address: bool = False):
        self.app, self.hosts, self.limit = app, {canonical(h) for h in hosts}, limit
        self.uploads, self.own_address = dict(uploads or {}), own_address

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        try:
            headers = self.check(scope)
            if scope["method"] in CHANGING:
                receive = await self.read_body(scope, headers, receive)
        except Refused as no:
            return await refuse(send, no.status, no.line)
        await self.app(scope, receive, send)

    def check(self, scope) -> dict[str, str]:
        """The request's headers, or Refused: a Host not served, another origin's state change, a
        body that is not the route's type."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        name = host_name(host)
        reached = canonical(str((scope.get("server") or ("",))[0] or "")) if self.own_address else ""
        if not name or (name not in self.hosts and name != reached):
            also = " or the address of this machine the request reached" if self.own_address else ""
            raise Refused(403, f"refused: Host {short(host)} is not an address this server answers to; "
                               f"accepted: {', '.join(sorted(self.hosts))}{also}, with an optional :port")
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


class Headers:
    """Every response's headers (HEADERS), a header the response sets itself kept as it is: put
    outside everything else (web/app.py's App), so Starlette's own 500 page has them too."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message = {**message, "headers": [*message.get("headers", []),
                                                  *(h for h in HEADERS if h[0] not in have)]}
            await send(message)
        await self.app(scope, receive, send_with_headers)


async def refuse(send, status: int, line: str) -> None:
    body = (line + "\n").encode()
    await send({"type": "http.response.start", "status": status,       # closed: a body sent on is not read
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
