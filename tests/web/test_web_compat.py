"""textual-serve's private names that :class:`unoduo_tui.web_server.Tab` relies on
(textual-serve is bound to 1.1.x for them): each test fails when textual-serve changes
one; and the tab's supervisor, driven on its own with processes that quit, or not."""

from __future__ import annotations

import asyncio
import inspect
import signal
import sys

from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from unoduo_tui.commands.common import WEB_DRIVER
from unoduo_tui.web_guard import WebLimits
from unoduo_tui.web_server import STATIC, Tab


async def _nothing(*args, **kw) -> None:
    return None


def service() -> AppService:
    return AppService("true", write_bytes=_nothing, write_str=_nothing, close=_nothing,
                      download_manager=DownloadManager())


def test_start_opens_the_process_through_the_hook_tab_overrides():
    params = list(inspect.signature(AppService._open_app_process).parameters)
    assert params == ["self", "width", "height"]
    start = inspect.getsource(AppService.start)
    assert "self._open_app_process(width, height)" in start and "self.run()" in start


def test_the_attributes_tab_sets_and_reads_are_there():
    assert {"_process", "_stdin", "_task", "_download_manager", "app_service_id"} <= set(
        vars(service()))
    run = inspect.getsource(AppService.run)
    assert "self._process" in run  # the output is read from the process Tab started
    assert hasattr(DownloadManager, "cancel_app_downloads")


def test_the_environment_names_the_size_and_the_web_driver():
    env = service()._build_environment(width=123, height=45)
    assert (env["COLUMNS"], env["ROWS"], env["TEXTUAL_DRIVER"]) == ("123", "45", WEB_DRIVER)


def test_every_message_to_the_app_goes_through_the_two_methods_tab_overrides():
    # Tab's send_bytes / send_meta never wait for the app: nothing may write around them
    for name in ("set_terminal_size", "focus", "blur"):
        assert "self.send_meta(" in inspect.getsource(getattr(AppService, name)), name
    for name in ("send_bytes", "send_meta"):
        assert list(inspect.signature(getattr(AppService, name)).parameters) == [
            "self", "data"]
    assert AppService.encode_packet(b"D", b"ab") == b"D\x00\x00\x00\x02ab"


def test_textual_serve_still_ships_the_static_files_the_page_loads():
    for name in ("js/textual.js", "css/xterm.css", "fonts/RobotoMono-VariableFont_wght.ttf"):
        assert (STATIC / name).is_file(), name


class Socket:
    """What a Tab needs of its websocket, without a browser."""

    closed = False

    async def send_bytes(self, data: bytes) -> None: ...

    async def send_str(self, data: str) -> None: ...

    async def close(self, **kw) -> None:
        self.closed = True


#: an app speaking textual's web driver just enough: it starts, then quits on the
#: quit packet (or, given "deaf", ignores it and SIGTERM)
APP = r"""
import signal, sys
if "deaf" in sys.argv:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
sys.stdout.write("__GANGLION__\n"); sys.stdout.flush()
while True:
    head = sys.stdin.buffer.read(5)
    if len(head) < 5:
        sys.exit(0)
    body = sys.stdin.buffer.read(int.from_bytes(head[1:], "big"))
    if b'"quit"' in body and "deaf" not in sys.argv:
        sys.exit(0)
"""


async def _ended(*how: str) -> tuple[Tab, float]:
    """A tab of APP ended: the tab, and how long its end took (seconds)."""
    tab = Tab([sys.executable, "-c", APP, *how], WebLimits(), Socket(), DownloadManager())
    await tab.start(80, 24)
    loop = asyncio.get_running_loop()
    start = loop.time()
    await asyncio.wait_for(tab.end(), 60)
    return tab, loop.time() - start


async def test_an_app_that_quits_when_asked_gets_no_signal():
    tab, _ = await _ended()
    assert tab.signals == [] and tab._process.returncode == 0


async def test_an_app_deaf_to_quit_and_sigterm_is_killed_on_schedule():
    tab, took = await _ended("deaf")
    assert tab.signals == [signal.SIGTERM, signal.SIGKILL]
    assert tab._process.returncode == -signal.SIGKILL
    # never before its time: the app had kill_after seconds to save and go
    assert took >= WebLimits().kill_after


def test_the_schedule_ends_a_tab_within_2_s_of_its_socket_closing():
    limits = WebLimits()
    assert 0 < limits.term_after < limits.kill_after <= 1.5  # and 0.5 s to die and be reaped
