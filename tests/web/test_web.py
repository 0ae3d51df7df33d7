"""``unoduo web`` without a browser (#16): its arguments, the port, the page it serves
(nothing from the internet), a tab's app over the websocket, Ctrl+C."""

from __future__ import annotations

import asyncio
import http.cookiejar
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from unoduo_tui.commands import web
from unoduo_tui.commands.common import WEB_DRIVER, terminal_problem
from tests.web_drive import (TIMEOUT, base, free_port, printed_address, serve,
                                  tab_processes, until, wait_port)

from .wire import Tab

#: an http(s) address (or a scheme-relative one, //host/…) in a page or a stylesheet
URL = re.compile(r"""(?:https?:)?//[^\s"'()<>`]+""")
#: in a script, only http(s) addresses: ``//`` starts its comments
LOCAL = re.compile(r"^(?:https?:)?//(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?(?:/|$)")


def unoduo(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "unoduo_tui.cli", *args],
                          capture_output=True, text=True, timeout=TIMEOUT, **kw)


def browser_like() -> urllib.request.OpenerDirector:
    """An HTTP client that keeps cookies, as a browser does (the token's cookie)."""
    return urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def fetch(url: str, opener: urllib.request.OpenerDirector | None = None) -> str:
    with (opener or browser_like()).open(url, timeout=TIMEOUT) as response:
        return response.read().decode("utf-8", "replace")


SCRIPT_URL = re.compile(r"""https?://[^\s"'()<>`]+""")


def outside(text: str, kind: str = "html") -> list[str]:
    """The addresses in ``text`` (``kind``: html, css or js) that leave this machine;
    a stylesheet's comments load nothing."""
    if kind == "css":
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    found = (SCRIPT_URL if kind == "js" else URL).findall(text)
    return [u for u in found if not LOCAL.match(u)]


@pytest.mark.parametrize("args, says", [
    (["--port", "0"], "not a port"),
    (["--port", "http"], "not a port"),
    (["bogus"], "a tab starts with the menu or one of play, resume, replay"),
    (["play", "--vs", "nobody"], "unknown opponent 'nobody'"),
    (["replay", "nope"], "no saved match 'nope'"),
    (["--host", "nosuch.invalid"], "cannot listen on nosuch.invalid"),
    (["play", "--port", "9000"], "--port is web's own option: give it before play"),
    (["replay", "x", "--data-dir=/tmp"], "--data-dir is web's own option: give it before"),
    (["--max-tabs", "0"], "not a number of tabs (1-1000): '0'"),
    (["--max-tabs", "many"], "not a number of tabs"),
    (["--allow-host", "http://unoduo.lan"], "not a host name (no port, no scheme)"),
    (["--allow-host", "unoduo.lan:8000"], "not a host name (no port, no scheme)"),
    (["play", "--max-tabs", "3"], "--max-tabs is web's own option: give it before play"),
])
def test_a_bad_argument_is_one_line_and_status_2(tmp_path, args, says):
    done = unoduo("--data-dir", str(tmp_path), "web", "--port", str(free_port()), *args)
    assert done.returncode == 2
    assert says in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert done.stdout == ""


def test_a_port_in_use_is_one_line_and_status_2(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = unoduo("--data-dir", str(tmp_path), "web", "--port", str(port))
    assert done.returncode == 2
    assert done.stderr == (f"unoduo: port {port} on 127.0.0.1 is in use: stop what uses it "
                           "or give another --port\n")


def test_loopback_hosts_are_told_apart_from_others():
    assert web.is_loopback("127.0.0.1") and web.is_loopback("::1")
    assert web.is_loopback("localhost")
    assert not web.is_loopback("0.0.0.0") and not web.is_loopback("192.0.2.7")
    assert not web.is_loopback("nosuch.invalid")


def test_each_tab_runs_the_cli_with_the_data_dir_and_the_command(tmp_path):
    command = web.tab_command(tmp_path / "my data", ["play", "--vs", "hard"])
    # no shell between the server and the app: a signal to the tab reaches the app
    assert command == [sys.executable, "-m", "unoduo_tui.cli", "--data-dir",
                       str(tmp_path / "my data"), "play", "--vs", "hard"]


def test_a_tab_is_not_refused_for_want_of_a_terminal(monkeypatch):
    # textual-serve gives the app pipes, no tty and maybe no TERM: its driver is the web
    monkeypatch.setenv("TERM", "dumb")
    assert terminal_problem() is not None
    monkeypatch.setenv("TEXTUAL_DRIVER", WEB_DRIVER)
    assert terminal_problem() is None


def test_the_page_fetches_nothing_from_the_internet(tmp_path):
    with serve(tmp_path) as (address, _):
        opener, url = browser_like(), base(address)
        page = fetch(address, opener)
        assert 'id="terminal"' in page and "static/js/textual.js" in page
        assert outside(page) == [], "the page names an address outside this machine"
        # its assets and websocket by the address the browser used, not the one listened
        # on (0.0.0.0 in textual-serve's own page, which no browser can reach)
        assert re.findall(r"""(?:(?:src|href)=["']|url\(["']?)(?:[a-z]+:)?//""", page) == []
        assert "location.host" in page and "data-session-websocket-url" not in page
        assert "@font-face" in page and "static/fonts/RobotoMono" in page
        sheets = re.findall(r'<link[^>]+href="([^"]+\.css)"', page)
        assert sheets, "the page links no stylesheet"
        for sheet in sheets:
            assert outside(fetch(url + sheet, opener), "css") == [], sheet
        assert outside(fetch(url + "static/js/textual.js", opener), "js") == []


def test_the_stock_template_would_fetch_a_font_from_google():
    # the check above can fail: textual-serve's own page loads Roboto Mono from Google
    import textual_serve

    stock = Path(textual_serve.__file__).with_name("templates") / "app_index.html"
    assert any("fonts.googleapis.com" in u for u in outside(stock.read_text()))


def test_ctrl_c_stops_the_server_cleanly(tmp_path):
    with serve(tmp_path) as (address, process):
        pass  # serve() read the first line: "unoduo web: serving on ADDRESS (Ctrl+C …)"
    out, err = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 0, err
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[\w-]+", address), address
    assert out == "unoduo web: stopped\n"
    assert "Traceback" not in err


def test_a_host_others_can_reach_gets_a_warning(tmp_path):
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "unoduo_tui.cli", "--data-dir", str(tmp_path), "web",
         "--host", "0.0.0.0", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        printed_address(process)
        wait_port(port, process)
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=TIMEOUT)
    assert err == ("unoduo web: warning: 0.0.0.0 is reachable from other machines, over "
                   "plain http: anyone who sees the address can play as you, with your "
                   "saved matches; a browser elsewhere must use a name given with "
                   "--allow-host NAME\n")
    assert process.returncode == 0


async def _keep_a_card(url: str, data_dir: Path) -> None:
    async with Tab.open(url) as tab:
        await tab.until(b"Draft 1/14")
        assert len(tab_processes(data_dir)) == 1
        await tab.ws.send_json(["stdin", "k"])
        await tab.until(b"You keep the card")


def test_a_tab_plays_over_the_websocket_and_ends_when_closed(tmp_path):
    with serve(tmp_path, ["play", "--vs", "normal", "--seed", "7"]) as (url, _):
        asyncio.run(_keep_a_card(url, tmp_path))
        # the tab is closed: its app ends, the match saved
        until(lambda: not tab_processes(tmp_path), "the tab's app to end")
    assert list((tmp_path / "matches").glob("*")), "the tab's match was not saved"


async def _tab_through_a_stop(url: str, process: subprocess.Popen, sig: int) -> None:
    import aiohttp

    async with Tab.open(url) as tab:
        await tab.until(b"New match")
        process.send_signal(sig)
        # the server closes the tab (a CLOSE frame, 1001: going away) — a server that
        # waits for its open tabs at shutdown only drops the connection, ~23 s later
        end = await tab.end()
        assert (end.type, end.data) == (aiohttp.WSMsgType.CLOSE, 1001), end


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_ctrl_c_with_a_tab_open_closes_the_tab_and_ends_its_app(tmp_path, sig):
    with serve(tmp_path) as (url, process):
        asyncio.run(_tab_through_a_stop(url, process, sig))
        out, err = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 0 and "Traceback" not in err, err
    assert out.endswith("unoduo web: stopped\n")
    assert tab_processes(tmp_path) == []  # ended and reaped before the server said so


def test_the_screenshot_script_takes_help_and_refuses_a_file_that_is_not_a_png(tmp_path,
                                                                               monkeypatch,
                                                                               capsys):
    from tests import web_drive

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as done:
        web_drive.main(["--help"])  # was taken for the file to write, "--help"
    assert done.value.code == 0 and "usage:" in capsys.readouterr().out
    with pytest.raises(SystemExit) as done:
        web_drive.main(["shot.txt"])
    assert done.value.code == 2 and "PNG" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
