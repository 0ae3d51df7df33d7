"""Who may talk to ``unoduo web``, and what one browser tab may cost (#21): checked by
:mod:`.web_server` on every request, before anything runs — a refusal is a 403 and no
app process starts.

- ``Host`` is one this server answers to: the address it listens on, ``localhost``,
  ``127.0.0.1`` or ``[::1]``, with its port, or a name given with ``--allow-host``
  (a page of another site that rebinds its name to this machine is refused);
- the request carries the secret printed at start — ``?token=…`` in the address, which
  the first visit trades for an HttpOnly, SameSite=Strict cookie (and a redirect that
  takes the token out of the address bar) — unless ``--no-token``;
- a websocket's ``Origin`` is this server's own (``http://`` + its ``Host``): no other
  site's page drives a tab.

What one tab may cost is :class:`WebLimits`.  No sockets, no processes here.
"""

from __future__ import annotations

import hmac
import re
from dataclasses import dataclass
from typing import Mapping, Sequence
from urllib.parse import urlencode

from aiohttp import hdrs, web

from .ssh.limits import Limits

#: what one SSH client may cost: a browser tab's input budget is the same
_SSH = Limits()

__all__ = ["WebLimits", "Guard", "bracketed", "WHOLE"]


@dataclass(frozen=True)
class WebLimits:
    """What one browser tab may cost (:mod:`.web_server` says how each is held)."""

    #: tabs at once (each one app process, until it is reaped)
    max_tabs: int = 16
    #: a screen's width and height, smallest and largest
    width: tuple[int, int] = (20, 500)
    height: tuple[int, int] = (10, 200)
    #: the size a tab gets when its address names none
    default_size: tuple[int, int] = (80, 24)
    #: bytes of keystrokes in one message; more closes the tab
    max_keys: int = 4 * 1024
    #: the largest websocket message (aiohttp refuses a bigger one before reading it)
    max_message: int = 64 * 1024
    #: the input budget over SSH's (one copy of the numbers): bytes a second, at once
    #: (beyond it, dropped), and dropped bytes that close the tab
    input_rate: float = _SSH.input_rate
    input_burst: int = _SSH.input_burst
    junk_limit: int = _SSH.junk_limit
    #: bytes waiting for the app to read; beyond, input is dropped (it is not reading)
    pipe_buffer: int = _SSH.pty_buffer
    #: seconds between two resizes passed on (the last one always is)
    resize_every: float = _SSH.resize_every
    #: seconds after its socket closed that a tab's app, asked to quit, gets SIGTERM,
    #: then SIGKILL: it is gone within 2 s
    term_after: float = 0.5
    kill_after: float = 1.5
    #: seconds between websocket pings (a dead browser is noticed within two)
    heartbeat: float = 15.0

    def clamp(self, width: int, height: int) -> tuple[int, int]:
        return (min(max(width, self.width[0]), self.width[1]),
                min(max(height, self.height[0]), self.height[1]))

    def address_size(self, query: Mapping[str, str]) -> tuple[int, int] | None:
        """The size asked for in a websocket's address (``?width=…&height=…``, either
        left out: the default), clamped; ``None`` when one is not a whole number."""
        sizes = []
        for name, default in zip(("width", "height"), self.default_size):
            text = query.get(name)
            if text is None:
                sizes.append(default)
            elif WHOLE.fullmatch(text):
                sizes.append(int(text))
            else:
                return None
        return self.clamp(*sizes)

    def message_size(self, args: list) -> tuple[int, int] | None:
        """The size of a resize message's ``{"width": W, "height": H}``, clamped;
        ``None`` when it is not that."""
        if len(args) != 1 or not isinstance(args[0], dict):
            return None
        width, height = args[0].get("width"), args[0].get("height")
        if type(width) is not int or type(height) is not int:  # no bool, no float
            return None
        return self.clamp(width, height)


#: a whole number as an address writes it (twenty digits is absurd enough)
WHOLE = re.compile(r"[-+]?\d{1,20}")


class Guard:
    """Who may talk to the server listening on ``host``:``port`` (see the module doc);
    ``token`` ``None``: no secret asked (``--no-token``)."""

    LOCAL = ("localhost", "127.0.0.1", "[::1]")

    def __init__(self, host: str, port: int, token: str | None,
                 allow_hosts: Sequence[str] = ()) -> None:
        self.token = token
        names = {bracketed(n).lower() for n in (host, *self.LOCAL, *allow_hosts)}
        self.hosts = frozenset({f"{n}:{port}" for n in names}
                               | (names if port == 80 else set()))
        #: per port: cookies are not told apart by port, two servers would share one
        self.cookie = f"unoduo-web-{port}"

    def host_ok(self, request: web.Request) -> bool:
        return request.headers.get(hdrs.HOST, "").lower() in self.hosts

    def origin_ok(self, request: web.Request) -> bool:
        origin = request.headers.get(hdrs.ORIGIN, "").lower()
        return origin == "http://" + request.headers.get(hdrs.HOST, "").lower()

    def token_in_address(self, request: web.Request) -> bool:
        return self._is_token(request.query.get("token"))

    def let_in(self, request: web.Request) -> bool:
        return (self.token is None or self.token_in_address(request)
                or self._is_token(request.cookies.get(self.cookie)))

    def _is_token(self, value: str | None) -> bool:
        return (self.token is not None and value is not None
                and hmac.compare_digest(value.encode("utf-8", "replace"),
                                        self.token.encode()))

    def welcome(self, request: web.Request) -> web.Response:
        """A visit with the token in its address: the cookie, and the same address
        without the token."""
        rest = [(k, v) for k, v in request.query.items() if k != "token"]
        where = request.path + ("?" + urlencode(rest) if rest else "")
        response = web.Response(status=303, headers={hdrs.LOCATION: where})
        response.set_cookie(self.cookie, self.token or "", path="/", httponly=True,
                            samesite="Strict")
        return response


def bracketed(host: str) -> str:
    """An IPv6 address as a ``Host`` header writes it (``[::1]``)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host
