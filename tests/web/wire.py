"""Speaking to ``unoduo web`` without a browser: textual-serve's websocket as
textual.js speaks it, over aiohttp (the tests' raw client), with or without the token,
from any ``Origin`` and ``Host``; and the tabs' processes as /proc shows them."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Callable
from urllib.parse import parse_qs, urlsplit

import aiohttp

from tests import waiting
from tests.web_drive import TIMEOUT, base

__all__ = ["Tab", "token_of", "ws_address", "origin_of", "alive", "environ", "until_async"]


def token_of(address: str) -> str:
    """The token in the address ``unoduo web`` printed."""
    return parse_qs(urlsplit(address).query)["token"][0]


def origin_of(address: str) -> str:
    """The server's own origin: ``http://127.0.0.1:PORT``."""
    return base(address).rstrip("/")


def ws_address(address: str, query: str = "width=100&height=30", token: bool = True) -> str:
    """The websocket's address; with the printed address's token unless ``token`` is
    false."""
    extra = f"&token={token_of(address)}" if token else ""
    return base(address).replace("http", "ws", 1) + "ws?" + query + extra


class Tab:
    """A tab without a browser; ``seen``: every byte of screen output so far."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws, self.seen = ws, b""

    @classmethod
    @asynccontextmanager
    async def open(cls, address: str, query: str = "width=100&height=30", *,
                   token: bool = True, origin: str | None = "", headers: dict | None = None):
        """``origin``: "" the server's own, ``None`` none at all."""
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(
                    ws_address(address, query, token), autoclose=False, max_msg_size=0,
                    origin=origin_of(address) if origin == "" else origin,
                    headers=headers) as ws:
                yield cls(ws)

    async def until(self, text: bytes | Callable[[bytes], bool],
                    timeout: float = TIMEOUT) -> bytes:
        """Read the screen's output until ``text`` is in it (or, a test, until it holds
        of the output); it ends first: AssertionError.  The message that showed it."""
        shows = text if callable(text) else (lambda seen: text in seen)
        data = b""
        while not shows(self.seen):
            message = await asyncio.wait_for(self.ws.receive(), timeout)
            assert message.type == aiohttp.WSMsgType.BINARY, (message, self.seen[-500:])
            data = message.data
            self.seen += data
        return data

    async def end(self, timeout: float = TIMEOUT) -> aiohttp.WSMessage:
        """The message that ends the socket (the screen's output read until then): a
        CLOSE frame when the server closed it, CLOSED when the connection just dropped."""
        while True:
            message = await asyncio.wait_for(self.ws.receive(), timeout)
            if message.type not in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                return message


def alive(pid: int) -> bool:
    """Whether process ``pid`` is still there (a zombie is not: it has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    return dict(item.split("=", 1) for item in raw.decode("utf-8", "replace").split("\0")
                if "=" in item)


async def until_async(test, what: str, timeout: float = TIMEOUT) -> None:
    """:func:`tests.waiting.until_async` at the web tests' timeout and pace."""
    await waiting.until_async(test, what, timeout, poll=0.05)
