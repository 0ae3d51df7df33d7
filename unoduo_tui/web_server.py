"""The server behind ``unoduo web`` (#16, #21): textual-serve's page and protocol —
one app process per browser tab, driven over a websocket — behind
:class:`~.web_guard.Guard` (who may talk: Host, token, Origin).

What one tab may cost (:class:`~.web_guard.WebLimits`):

- its size is clamped to what a screen can be (width 20–500, height 10–200), in the
  address and in every resize; a malformed size is refused;
- a websocket message over 64 KiB is refused by aiohttp before it is read; keystrokes
  over 4 KiB in one message close the tab; past that, keys go through the same byte
  budget as over SSH (:class:`~unoduo_tui.ratelimit.TokenBucket`: beyond the burst,
  dropped; a flood closes the tab); resizes are passed on at most ten a second;
- ``max_tabs`` tabs at once (each is a process until it is reaped): the next one gets
  a page that says the server is full.

A tab's process is the server's child in a process group of its own: when its socket
closes, it is asked to quit, sent SIGTERM after ``term_after`` seconds and SIGKILL
after ``kill_after`` — gone within 2 s whatever it is doing (a stopped or spinning
process too); its match is saved as it goes, each move appended as it is made.  It
dies with the server even when the server is killed (``PR_SET_PDEATHSIG``), and
``unoduo web`` stopping ends every tab the same way before it exits.

textual-serve's ``/download`` route is not served: the app delivers no files.
textual-serve's private names are used only in :class:`Tab` (bound to 1.1.x in
pyproject; ``tests/web/test_web_compat.py`` fails when they change).
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import json
import logging
import os
import shlex
import signal
import sys
from pathlib import Path
from typing import Awaitable, Callable, Sequence

import jinja2
import textual_serve
from aiohttp import WSCloseCode, WSMsgType, hdrs, web
from aiohttp.web_runner import GracefulExit
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from .ratelimit import TokenBucket
from .web_guard import WHOLE, Guard, WebLimits

__all__ = ["Tab", "WebServer", "STATIC", "SIGNALS"]

log = logging.getLogger("unoduo.web")

#: textual-serve's own static files (textual.js, xterm's stylesheet, the font)
STATIC = Path(textual_serve.__file__).with_name("static")
#: what stops the server (each tab ended first)
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


_PR_SET_PDEATHSIG = 1
try:
    _PRCTL = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") \
        else None
except (OSError, AttributeError):  # pragma: no cover - not glibc
    _PRCTL = None


def _die_with_server(server: int) -> None:  # pragma: no cover - in the child, before exec
    """SIGKILL when the server dies, even by SIGKILL (a tab never outlives it)."""
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, int(signal.SIGKILL))
    if os.getppid() != server:  # it died between fork and prctl
        os.kill(os.getpid(), signal.SIGKILL)


#: why a tab is closed: (websocket close code, reason)
Close = tuple[int, str]
MALFORMED: Close = (WSCloseCode.POLICY_VIOLATION, "a malformed message")


class Tab(AppService):
    """One browser tab: its app process (textual-serve's ``AppService``, started here
    without a shell, in a process group of its own) and what its websocket says.

    textual-serve's private names used, all here: ``_open_app_process`` (overridden:
    textual-serve starts the command through a shell, which would keep the app out of
    reach of a signal), ``_build_environment``, ``_process``, ``_stdin``, ``_task`` and
    ``_download_manager``.
    """

    def __init__(self, argv: Sequence[str], limits: WebLimits, websocket: web.WebSocketResponse,
                 downloads: DownloadManager) -> None:
        async def close() -> None:
            await websocket.close()

        super().__init__(shlex.join(argv), write_bytes=websocket.send_bytes,
                         write_str=websocket.send_str, close=close,
                         download_manager=downloads)
        self.argv, self.limits, self.websocket = list(argv), limits, websocket
        self.bucket = TokenBucket(limits.input_rate, limits.input_burst)
        #: the signals :meth:`end` had to send the process group
        self.signals: list[signal.Signals] = []
        #: the task serving the websocket (cancelled when the server stops)
        self.handler: asyncio.Task | None = asyncio.current_task()
        self._ending: asyncio.Task | None = None
        self._size_wanted: tuple[int, int] | None = None
        self._resize: asyncio.TimerHandle | None = None
        self._resized_at = float("-inf")

    async def _open_app_process(self, width: int = 80, height: int = 24
                                ) -> asyncio.subprocess.Process:
        environment = self._build_environment(width=width, height=height)
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=environment, start_new_session=True,
            preexec_fn=functools.partial(_die_with_server, os.getpid()))
        self._stdin = process.stdin
        return process

    # -- to the app: never waits for it (a stuck app must not stall its socket) -----------

    def _put(self, packet: bytes) -> bool:
        stdin = self._stdin
        if stdin is None or stdin.is_closing():
            return False
        if stdin.transport.get_write_buffer_size() + len(packet) > self.limits.pipe_buffer:
            return False  # it is not reading: dropped, as a terminal would
        stdin.write(packet)
        return True

    async def send_bytes(self, data: bytes) -> bool:
        return self._put(self.encode_packet(b"D", data))

    async def send_meta(self, data: dict[str, str | None | int | bool]) -> bool:
        return self._put(self.encode_packet(b"M", json.dumps(data).encode("utf-8")))

    def resize(self, width: int, height: int) -> None:
        """Pass the size on, at most once every ``resize_every`` (the last one always)."""
        self._size_wanted = (width, height)
        if self._resize is None:
            loop = asyncio.get_running_loop()
            delay = max(0.0, self._resized_at + self.limits.resize_every - loop.time())
            self._resize = loop.call_later(delay, self._pass_size)

    def _pass_size(self) -> None:
        self._resize = None
        self._resized_at = asyncio.get_running_loop().time()
        if self._size_wanted is not None:
            width, height = self._size_wanted
            self._put(self.encode_packet(b"M", json.dumps(
                {"type": "resize", "width": width, "height": height}).encode()))

    # -- from the browser -------------------------------------------------------------------

    async def talk(self) -> None:
        """Read the websocket until it closes (or is closed for what it sent)."""
        async for message in self.websocket:
            if message.type == WSMsgType.TEXT:
                problem = await self.on_message(message.data)
            elif message.type == WSMsgType.ERROR:  # too big: aiohttp closed it (1009)
                log.info("a tab sent %s: closed", message.data)
                return
            else:
                problem = (WSCloseCode.UNSUPPORTED_DATA, "binary messages are not spoken here")
            if problem is not None:
                code, reason = problem
                log.info("a tab sent %s: closed", reason)
                await self.websocket.close(code=code, message=reason.encode())
                return

    async def on_message(self, text: str) -> Close | None:
        """One of textual.js's messages (``["stdin", keys]``, ``["resize", {…}]``,
        ``["ping", t]``, ``["focus"]``, ``["blur"]``); why the tab closes, if it does."""
        try:
            envelope = json.loads(text)
        except ValueError:
            return MALFORMED
        if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
            return MALFORMED
        kind, args = envelope[0], envelope[1:]
        if kind == "stdin":
            return await self._keys(args)
        if kind == "resize":
            size = self.limits.message_size(args)
            if size is None:
                return (WSCloseCode.POLICY_VIOLATION, "a malformed size")
            self.resize(*size)
            return None
        if not self.bucket.take(len(text)):  # the rest is cheap, but not free
            return self._over_budget()
        if kind == "ping":
            if len(args) != 1 or not isinstance(args[0], str) or len(args[0]) > 32:
                return MALFORMED
            await self.websocket.send_json(["pong", args[0]])
        elif kind == "focus":
            await self.focus()
        elif kind == "blur":
            await self.blur()
        return None  # anything else: a newer textual.js's, ignored

    async def _keys(self, args: list) -> Close | None:
        if len(args) != 1 or not isinstance(args[0], str):
            return MALFORMED
        try:
            keys = args[0].encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate
            return MALFORMED
        if len(keys) > self.limits.max_keys:
            return (WSCloseCode.MESSAGE_TOO_BIG,
                    f"more than {self.limits.max_keys // 1024} KiB of keys at once")
        if not self.bucket.take(len(keys)):
            return self._over_budget()
        await self.send_bytes(keys)
        return None

    def _over_budget(self) -> Close | None:
        if self.bucket.dropped > self.limits.junk_limit:
            return (WSCloseCode.POLICY_VIOLATION, "too much input (is something pasting junk?)")
        return None  # dropped

    # -- the end ------------------------------------------------------------------------------

    def end(self) -> asyncio.Task:
        """End the app (once; every caller waits for the same end): ask it to quit,
        SIGTERM, SIGKILL on the schedule of :class:`WebLimits`, reap it."""
        if self._ending is None:
            self._ending = asyncio.ensure_future(self._end())
        return self._ending

    async def _end(self) -> None:
        if self._resize is not None:
            self._resize.cancel()
        process = self._process
        if process is None:
            return
        loop = asyncio.get_running_loop()
        start = loop.time()
        await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        await self.send_meta({"type": "quit"})
        for sig, after in ((signal.SIGTERM, self.limits.term_after),
                           (signal.SIGKILL, self.limits.kill_after)):
            try:
                await asyncio.wait_for(asyncio.shield(process.wait()),
                                       max(0.0, start + after - loop.time()))
                break
            except asyncio.TimeoutError:
                self._signal(sig, after)
        await process.wait()  # reaped
        if self._stdin is not None:
            self._stdin.close()
        if self._task is not None:  # reading its output: ends at the pipe's end
            done, _ = await asyncio.wait({self._task}, timeout=self.limits.kill_after)
            if not done:
                self._task.cancel()

    def _signal(self, sig: signal.Signals, after: float) -> None:
        process = self._process
        if process is None or process.returncode is not None:
            return
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        self.signals.append(sig)
        (log.warning if sig == signal.SIGKILL else log.info)(
            "a tab's app (pid %d) had not quit %.1f s after its tab closed: %s",
            process.pid, after, sig.name)


class WebServer:
    """``unoduo web``'s aiohttp application: the page, textual-serve's static files and
    a websocket per tab running ``argv``, behind :class:`Guard` and :class:`WebLimits`."""

    def __init__(self, argv: Sequence[str], *, host: str, port: int, guard: Guard,
                 address: str, templates: Path, limits: WebLimits = WebLimits()) -> None:
        self.argv, self.host, self.port = list(argv), host, port
        self.guard, self.address, self.limits = guard, address, limits
        self.pages = jinja2.Environment(loader=jinja2.FileSystemLoader(templates),
                                        autoescape=True)
        self.downloads = DownloadManager()
        #: the open tabs: each until its process is reaped
        self.tabs: set[Tab] = set()

    def application(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        app.add_routes([web.get("/", self.index), web.get("/ws", self.websocket),
                        web.static("/static", STATIC)])
        app.on_startup.append(self._started)
        app.on_shutdown.append(self._stopping)
        return app

    def serve(self) -> None:
        """Listen until SIGINT, SIGTERM or SIGHUP; every tab ended before it returns."""
        logging.basicConfig(level=logging.WARNING, format="unoduo web: %(message)s")
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        for sig in SIGNALS:
            loop.add_signal_handler(sig, _stop)
        web.run_app(self.application(), host=self.host, port=self.port, loop=loop,
                    handle_signals=False, print=None, access_log=None)

    @property
    def full(self) -> bool:
        return len(self.tabs) >= self.limits.max_tabs

    # -- the door -----------------------------------------------------------------------------

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                     ) -> web.StreamResponse:
        if not self.guard.host_ok(request):
            log.info("refused: Host %r", request.headers.get(hdrs.HOST, "")[:100])
            return web.Response(status=403, text=(
                "unoduo web does not answer to this address: use the one it printed when "
                "it started (or start it with --allow-host NAME)\n"))
        if not self.guard.let_in(request):
            log.info("refused: %s without the token", request.path[:100])
            return self.page(403, "Not without the token",
                             "Open the address unoduo web printed when it started, with "
                             "its ?token=…: copy it from the terminal where it runs.")
        if request.path == "/ws" and not self.guard.origin_ok(request):
            log.info("refused: a websocket from %r",
                     request.headers.get(hdrs.ORIGIN, "")[:100])
            return web.Response(status=403, text="only this server's own page may open "
                                                 "its websocket\n")
        if request.path == "/" and self.guard.token_in_address(request):
            return self.guard.welcome(request)
        return await handler(request)

    def page(self, status: int, title: str, text: str) -> web.Response:
        html = self.pages.get_template("message.html").render(title=title, text=text)
        return web.Response(status=status, text=html, content_type="text/html")

    def full_page(self) -> web.Response:
        return self.page(503, "The server is full",
                         f"{len(self.tabs)} tabs are open, the most this unoduo web takes "
                         f"(--max-tabs {self.limits.max_tabs}). Close one of them, then "
                         "reload this page.")

    # -- the page and the tabs ----------------------------------------------------------------

    async def index(self, request: web.Request) -> web.Response:
        if self.full:
            return self.full_page()
        size = request.query.get("fontsize", "16")
        font = min(max(int(size), 6), 64) if WHOLE.fullmatch(size) else 16
        html = self.pages.get_template("app_index.html").render(
            font_size=font, application={"name": "unoduo"}, ping_url="")
        return web.Response(text=html, content_type="text/html")

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        size = self.limits.address_size(request.query)
        if size is None:
            return web.Response(status=400, text="width and height are whole numbers\n")
        if self.full:
            return self.full_page()
        websocket = web.WebSocketResponse(heartbeat=self.limits.heartbeat,
                                          max_msg_size=self.limits.max_message)
        tab = Tab(self.argv, self.limits, websocket, self.downloads)
        self.tabs.add(tab)  # no await since the count: the cap holds
        try:
            await websocket.prepare(request)
            await tab.start(*size)
            await tab.talk()
        except asyncio.CancelledError:  # the server is stopping
            if websocket.prepared:
                await websocket.close(code=WSCloseCode.GOING_AWAY,
                                      message=b"the server stopped")
        except Exception:  # pragma: no cover - logged, and the tab ends as any other
            log.exception("a tab failed")
        finally:
            await asyncio.shield(tab.end())
            self.tabs.discard(tab)
        return websocket

    async def _started(self, app: web.Application) -> None:
        print(f"unoduo web: serving on {self.address} (Ctrl+C to stop)", flush=True)

    async def _stopping(self, app: web.Application) -> None:
        # aiohttp would wait for the browsers to close their tabs (until a heartbeat goes
        # unanswered): end them all now, and wait until every process is reaped
        tabs = list(self.tabs)
        for tab in tabs:
            if tab.handler is not None:
                tab.handler.cancel()
        await asyncio.gather(*(tab.end() for tab in tabs), return_exceptions=True)


def _stop() -> None:
    raise GracefulExit()
