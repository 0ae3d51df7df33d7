"""#21 item 1: through ``unoduo web`` nobody but the user plays as the user, and one
tab cannot take the machine.  Each attack of the issue, spoken over a raw socket (an
aiohttp client): a foreign Origin, a missing token, a rebound Host, absurd sizes, a
3 MB message, a tab whose app does nothing when its socket closes, a server killed."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import signal
import subprocess
import sys

import aiohttp
import pytest

from unoduo_tui.commands import web
from tests.web_drive import TIMEOUT, base, serve, tab_processes

from .wire import Tab, alive, environ, origin_of, token_of, until_async, ws_address

CLOSE = aiohttp.WSMsgType.CLOSE


def port_of(address: str) -> str:
    return re.search(r":(\d+)/", address).group(1)


def cookie_of(address: str) -> dict[str, str]:
    """The cookie header a browser sends once it has visited ``address``."""
    return {"Cookie": f"unoduo-web-{port_of(address)}={token_of(address)}"}


async def handshake_status(url: str, **options) -> int:
    """The HTTP status a websocket handshake to ``url`` gets (101: it opened)."""
    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(url, **options):
                return 101
        except aiohttp.WSServerHandshakeError as exc:
            return exc.status


async def status(url: str, **options) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session:
        async with session.get(url, allow_redirects=False, **options) as response:
            return response.status, await response.text()


async def one_tab(data_dir) -> int:
    """The pid of the one tab's app (once it runs)."""
    await until_async(lambda: len(tab_processes(data_dir)) == 1, "the tab's app to start")
    (pid,) = tab_processes(data_dir)
    return pid


# -- the token ------------------------------------------------------------------------------


def test_each_start_makes_its_own_token_of_at_least_128_bits():
    first, second = web.new_token(), web.new_token()
    assert first != second
    assert len(base64.urlsafe_b64decode(first + "=" * (-len(first) % 4))) * 8 >= 128
    assert web.url("127.0.0.1", 8000, first) == f"http://127.0.0.1:8000/?token={first}"


async def test_the_first_visit_trades_the_token_for_a_strict_httponly_cookie(tmp_path):
    with serve(tmp_path) as (address, _):
        async with aiohttp.ClientSession() as session:
            async with session.get(address + "&fontsize=20", allow_redirects=False) as r:
                # the token leaves the address bar; the rest of the address stays
                assert (r.status, r.headers["Location"]) == (303, "/?fontsize=20")
                cookie = r.headers["Set-Cookie"]
        pair, *attributes = [part.strip() for part in cookie.split(";")]
        assert pair == f"unoduo-web-{port_of(address)}={token_of(address)}"
        assert {a.lower() for a in attributes} >= {"httponly", "samesite=strict", "path=/"}
        got, page = await status(base(address) + "?fontsize=20", headers=cookie_of(address))
        assert got == 200 and 'id="terminal"' in page and 'data-font-size="20"' in page


async def test_without_the_token_nothing_is_served_and_no_app_starts(tmp_path):
    with serve(tmp_path) as (address, _):
        root, own = base(address), {"Origin": origin_of(address)}
        wrong = {"Cookie": f"unoduo-web-{port_of(address)}=not-the-token"}
        for path in ("", "static/js/textual.js", "static/css/xterm.css", "ws"):
            for url, headers in ((root + path, own), (root + path + "?token=guess", own),
                                 (root + path, {**own, **wrong})):
                got, text = await status(url, headers=headers)
                assert got == 403, (url, headers, got)
        got, page = await status(root)
        assert "Open the address unoduo web printed" in page
        assert await handshake_status(ws_address(address, token=False),
                                      origin=origin_of(address)) == 403
        assert tab_processes(tmp_path) == []
        # and with it, the same requests pass
        assert (await status(root + "static/js/textual.js", headers=cookie_of(address)))[0] \
            == 200


# -- Origin and Host ------------------------------------------------------------------------


async def test_a_websocket_from_another_origin_is_refused_before_any_app_starts(tmp_path):
    with serve(tmp_path) as (address, _):
        port = port_of(address)
        for origin in ("http://evil.example", "null", f"http://127.0.0.1:{int(port) + 1}",
                       f"https://127.0.0.1:{port}", f"http://evil.example:{port}", None):
            assert await handshake_status(ws_address(address), origin=origin) == 403, origin
        assert tab_processes(tmp_path) == []
        async with Tab.open(address) as tab:  # its own origin: the app
            await tab.until(b"New match")


async def test_a_rebound_host_is_refused(tmp_path):
    with serve(tmp_path, options=["--allow-host", "Unoduo.LAN"]) as (address, _):
        port = port_of(address)
        for host in (f"attacker.example:{port}", "127.0.0.1", f"127.0.0.1:{int(port) + 1}",
                     f"unoduo.lan.attacker.example:{port}", ""):
            headers = {"Host": host, **cookie_of(address)}
            assert (await status(base(address), headers=headers))[0] == 403, host
            assert await handshake_status(ws_address(address), headers={"Host": host},
                                          origin=f"http://{host}") == 403, host
        assert tab_processes(tmp_path) == []
        for host in (f"localhost:{port}", f"[::1]:{port}", f"unoduo.lan:{port}"):
            headers = {"Host": host, **cookie_of(address)}
            assert (await status(base(address), headers=headers))[0] == 200, host
        async with Tab.open(address, headers={"Host": f"unoduo.lan:{port}"},
                            origin=f"http://unoduo.lan:{port}") as tab:
            await tab.until(b"New match")


async def test_no_token_is_said_loudly_and_still_checks_host_and_origin(tmp_path):
    with serve(tmp_path, options=["--no-token"]) as (address, process):
        assert "token" not in address
        assert (await status(address))[0] == 200
        port = port_of(address)
        assert (await status(address, headers={"Host": f"attacker.example:{port}"}))[0] == 403
        assert await handshake_status(address.replace("http", "ws") + "ws",
                                      origin="http://evil.example") == 403
    _, err = process.communicate(timeout=TIMEOUT)
    assert "unoduo web: WARNING: --no-token: no secret guards this server" in err


# -- sizes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("query, size", [
    ("width=80&height=99999999", ("80", "200")),
    ("width=-5&height=99999999", ("20", "200")),
    ("width=100000&height=3", ("500", "10")),
    ("", ("80", "24")),
])
async def test_a_size_in_the_address_is_clamped(tmp_path, query, size):
    with serve(tmp_path) as (address, _):
        async with Tab.open(address, query):
            pid = await one_tab(tmp_path)
            env = environ(pid)
            assert (env["COLUMNS"], env["ROWS"]) == size


@pytest.mark.parametrize("query", ["width=abc&height=24", "width=80&height=1e9",
                                   "width=80&height=", "width=0x50&height=24",
                                   "width=8" + "0" * 30 + "&height=24"])
async def test_a_malformed_size_in_the_address_is_refused(tmp_path, query):
    with serve(tmp_path) as (address, _):
        assert await handshake_status(ws_address(address, query),
                                      origin=origin_of(address)) == 400
        assert tab_processes(tmp_path) == []


def rows_drawn(output: bytes) -> list[int]:
    """The rows the app's output moves the cursor to (``ESC [ row ; col H``)."""
    return [int(row) for row in re.findall(rb"\x1b\[(\d+);\d+H", output)]


def size_said(output: bytes) -> tuple[int, int] | None:
    """The size the app's too-small screen says it has ("It is W×H now.")."""
    text = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07", b"", output)
    found = re.findall(r"It\s+is\s+(\d+)×(\d+)\s+now", text.decode("utf-8", "replace"))
    return (int(found[-1][0]), int(found[-1][1])) if found else None


async def test_every_resize_is_clamped_and_a_malformed_one_closes_the_tab(tmp_path):
    with serve(tmp_path) as (address, _):
        async with Tab.open(address) as tab:
            await tab.until(b"New match")
            for asked, clamped in (((5, 300), (20, 200)), ((600, 5), (500, 10))):
                tab.seen = b""
                await tab.ws.send_json(["resize", {"width": asked[0], "height": asked[1]}])
                # the too-small screen says the app's size
                try:
                    await tab.until(lambda seen, want=clamped: size_said(seen) == want)
                except asyncio.TimeoutError:
                    raise AssertionError(f"asked {asked}: the app says {size_said(tab.seen)}") from None
            tab.seen = b""
            await tab.ws.send_json(["resize", {"width": 600, "height": 300}])
            frame = await tab.until(b"\x1b[200;1H")
            assert max(rows_drawn(frame)) == 200  # the most
            pid = await one_tab(tmp_path)
            await tab.ws.send_json(["resize", {"width": "80", "height": 24}])
            end = await tab.end()
            assert (end.type, end.data, end.extra) == (CLOSE, 1008, "a malformed size")
        await until_async(lambda: not alive(pid), "the tab's app to end")


def test_sizes_are_clamped_and_malformed_ones_refused_by_the_limits():
    from unoduo_tui.web_guard import WebLimits

    limits = WebLimits()
    assert limits.address_size({"width": "-5", "height": "99999999"}) == (20, 200)
    assert limits.address_size({}) == (80, 24)
    assert limits.address_size({"width": "80", "height": "24.0"}) is None
    assert limits.message_size([{"width": 100000, "height": -1}]) == (500, 10)
    for bad in ([{"width": "80", "height": 24}], [{"width": 80.0, "height": 24}],
                [{"width": True, "height": 24}], [{"width": 80}], [], [[80, 24]],
                [{"width": 80, "height": 24}, "more"]):
        assert limits.message_size(bad) is None, bad


# -- input ----------------------------------------------------------------------------------


async def test_a_3_mb_message_is_refused_and_its_tab_ends(tmp_path):
    with serve(tmp_path) as (address, _):
        async with Tab.open(address) as tab:
            await tab.until(b"New match")
            pid = await one_tab(tmp_path)
            with contextlib.suppress(ConnectionResetError):
                await tab.ws.send_str(json.dumps(["stdin", "x" * 3_000_000]))
            end = await tab.end()
            assert refused_unread(end), end
        await until_async(lambda: not alive(pid), "the tab's app to end")
        async with Tab.open(address) as tab:  # the server goes on
            await tab.until(b"New match")


def refused_unread(end: aiohttp.WSMessage) -> bool:
    """Whether the socket ended as aiohttp ends one for a message over its limit:
    refused from its header (1009), before it is read — or, when the client was still
    writing it as the server hung up, the connection just dropped."""
    return (end.type, end.data) == (CLOSE, 1009) or end.type in (
        aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR)


async def test_a_message_over_64_kib_is_refused_before_it_is_read(tmp_path):
    with serve(tmp_path) as (address, _):
        async with Tab.open(address) as tab:
            await tab.until(b"New match")
            # not keys: read whole, it would be refused as a malformed ping (1008)
            await tab.ws.send_json(["ping", "x" * 100_000])
            end = await tab.end()
            assert refused_unread(end), end


async def test_more_than_4_kib_of_keys_in_one_message_closes_the_tab(tmp_path):
    with serve(tmp_path) as (address, _):
        async with Tab.open(address) as tab:
            await tab.until(b"New match")
            await tab.ws.send_json(["stdin", "é" * 2049])  # 4098 bytes of UTF-8
            end = await tab.end()
            assert (end.type, end.data, end.extra) == (
                CLOSE, 1009, "more than 4 KiB of keys at once")


async def test_a_flood_of_keys_is_dropped_then_closes_the_tab(tmp_path):
    paste = "\x1b[200~" + "a" * 3900 + "\x1b[201~"  # a paste: the menu ignores it
    with serve(tmp_path) as (address, _):
        async with Tab.open(address) as tab:
            await tab.until(b"New match")
            pid = await one_tab(tmp_path)
            for _ in range(150):  # 590 KB: far past the burst and the junk limit
                try:
                    await tab.ws.send_json(["stdin", paste])
                except ConnectionResetError:
                    break
            end = await tab.end()
            assert (end.type, end.data, end.extra) == (
                CLOSE, 1008, "too much input (is something pasting junk?)")
        await until_async(lambda: not alive(pid), "the tab's app to end")


# -- the tabs' processes --------------------------------------------------------------------


async def test_a_closed_tab_s_app_ends_even_when_it_does_nothing_and_its_match_is_kept(
        tmp_path):
    data = tmp_path / "data"
    with serve(data, ["play", "--vs", "normal", "--seed", "7"]) as (address, process):
        async with Tab.open(address) as tab:
            await tab.until(b"Draft 1/14")
            await tab.ws.send_json(["stdin", "k"])
            await tab.until(b"You keep the card")
            pid = await one_tab(data)
            os.kill(pid, signal.SIGSTOP)  # it reads nothing, quits on nothing, TERM waits
            try:
                await tab.ws.close()
                await until_async(lambda: not alive(pid), "the stopped tab's app to end")
            finally:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
    _, err = process.communicate(timeout=TIMEOUT)
    # the server's supervisor killed it, on its schedule (WebLimits.kill_after)
    assert f"a tab's app (pid {pid}) had not quit 1.5 s after its tab closed: SIGKILL" in err
    listed = subprocess.run([sys.executable, "-m", "unoduo_tui.cli", "--data-dir", str(data),
                             "list"], capture_output=True, text=True, timeout=TIMEOUT)
    assert listed.returncode == 0 and "No saved matches" not in listed.stdout, listed


async def test_a_killed_server_leaves_no_tab_behind(tmp_path):
    with serve(tmp_path) as (address, process):
        async with Tab.open(address) as tab:
            await tab.until(b"New match")
            pid = await one_tab(tmp_path)
            os.kill(pid, signal.SIGSTOP)  # a tab that would notice nothing
            try:
                process.kill()  # SIGKILL: the server cannot end its tabs itself
                await until_async(lambda: not alive(pid), "the tab's app to die")
            finally:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)


async def test_past_max_tabs_the_next_tab_is_told_the_server_is_full(tmp_path):
    with serve(tmp_path, options=["--max-tabs", "2"]) as (address, _):
        async with Tab.open(address) as first, Tab.open(address) as second:
            await first.until(b"New match")
            await second.until(b"New match")
            got, page = await status(base(address), headers=cookie_of(address))
            assert got == 503 and "The server is full" in page and "--max-tabs 2" in page
            assert await handshake_status(ws_address(address),
                                          origin=origin_of(address)) == 503
            assert len(tab_processes(tmp_path)) == 2
            await first.ws.close()
            await until_async(lambda: len(tab_processes(tmp_path)) == 1, "a tab to end")
            async def back() -> bool:
                return (await status(base(address), headers=cookie_of(address)))[0] == 200
            await until_async(back, "the page to come back")
