"""Driving ``unoduo web`` with headless Chromium (selenium): one copy for the browser
test (``tests/web``) and the README's screenshot (``python -m tests.web_drive``).

It lives beside the tests, outside the installed package, as ``python -m
tests.screenshots`` and the benchmarks (``tests/bench``) do: the product never
imports it.  selenium is imported only when a browser starts: it is in the ``test``
extra, not a dependency of the game.

Reading the screen: textual-serve's xterm.js draws on canvases, so the terminal's
text is not in the DOM.  A script Chromium runs before the page's own (CDP
``Page.addScriptToEvaluateOnNewDocument``) catches textual.js's terminal object as
it is built (the first ``this.fitAddon = …`` of its constructor goes through a
setter on ``Object.prototype``) and keeps it as ``window.__unoduoTerminal``; the
text is then read from xterm's buffer.  Nothing in the served page changes.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

from tests import waiting

if TYPE_CHECKING:
    from selenium.webdriver import Chrome

__all__ = ["CHROMIUM", "CHROMEDRIVER", "missing_browser", "free_port", "until", "wait_port",
           "serve", "printed_address", "base", "browser", "open_app", "screen_text",
           "wait_for", "press", "requests_made", "outside_hosts", "play_to_a_card",
           "tab_processes", "main"]

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
#: generous: a loaded 2-core machine starts Chromium and the app in seconds, not minutes
TIMEOUT = 60.0
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")

_HOOK = """
Object.defineProperty(Object.prototype, "fitAddon", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "fitAddon",
                          {value, writable: true, configurable: true, enumerable: true});
    if (this.terminal && this.terminal.buffer) window.__unoduoTerminal = this.terminal;
  },
});
"""
_TEXT = """
const t = window.__unoduoTerminal;
if (!t) return null;
const b = t.buffer.active, rows = [];
for (let y = 0; y < t.rows; y++) {
  const line = b.getLine(b.viewportY + y);
  rows.push(line ? line.translateToString(true) : "");
}
return rows.join("\\n");
"""


def missing_browser() -> str | None:
    """Why headless Chromium cannot run here (``None``: it can)."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            return f"{path} is missing"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


#: ports :func:`serve` tries when one it found free was taken before ``unoduo web`` bound it
PORT_TRIES = 5


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def until(test: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
    """:func:`tests.waiting.until` at the web's timeout and pace."""
    waiting.until(test, what, timeout, poll=0.05)


def wait_port(port: int, process: subprocess.Popen | None = None,
              timeout: float = TIMEOUT) -> None:
    """Until 127.0.0.1:``port`` takes a connection (``RuntimeError`` if ``process``
    ends first, ``AssertionError`` when ``timeout`` passes)."""
    def answers() -> bool:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"unoduo web ended with status {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            return False

    until(answers, f"port {port} to answer", timeout)


def printed_address(process: subprocess.Popen, timeout: float = TIMEOUT) -> str:
    """The address ``unoduo web`` printed at start ("serving on URL"), read from its
    stdout (``RuntimeError`` if it ends first or ``timeout`` passes)."""
    import select

    assert process.stdout is not None
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0 or not select.select([process.stdout], [], [], left)[0]:
            raise RuntimeError(f"waited {timeout:.0f} s for unoduo web to print its address")
        line = process.stdout.readline()
        if not line:
            said = process.stderr.read().strip() if process.stderr is not None else ""
            raise RuntimeError(f"unoduo web ended with status {process.wait()}"
                               + (f": {said}" if said else ""))
        found = re.search(r"serving on (\S+)", line)
        if found:
            return found.group(1)


@contextmanager
def serve(data_dir: Path, app: Sequence[str] = (), port: int | None = None,
          env: dict[str, str] | None = None,
          options: Sequence[str] = ()) -> Iterator[tuple[str, subprocess.Popen]]:
    """``unoduo web`` on 127.0.0.1 in a subprocess (web's ``options`` first, then the
    tabs' ``app``): yields the address it printed (with its token) and the process once
    the port answers; stops it with SIGINT (Ctrl+C) after."""
    for attempt in range(PORT_TRIES):
        chosen = port or free_port()
        command = [sys.executable, "-m", "unoduo_tui.cli", "--data-dir", str(data_dir), "web",
                   "--host", "127.0.0.1", "--port", str(chosen), *options, *app]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, env=env)
        try:
            address = printed_address(process)
            break
        except RuntimeError as exc:
            if process.poll() is None:
                process.kill()
                process.wait()
            # a free port is free only until something else binds it (the suite's other
            # servers): another one, unless the caller chose it
            if port or "is in use" not in str(exc) or attempt == PORT_TRIES - 1:
                raise
    try:
        wait_port(chosen, process)
        yield address, process
    finally:
        if process.poll() is None:
            process.send_signal(2)  # SIGINT: what Ctrl+C sends
            try:
                process.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def base(address: str) -> str:
    """The server's root, ``http://127.0.0.1:PORT/``, from the address it printed."""
    return address.split("?", 1)[0]


@contextmanager
def browser(width: int = 1280, height: int = 800) -> Iterator[Chrome]:
    """Headless Chromium under selenium, with its own throw-away profile; quits after."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="unoduo-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}",
                 f"--window-size={width},{height}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def screen_text(driver: Chrome) -> str:
    """The terminal's rows as text ("" before the app has drawn)."""
    return driver.execute_script(_TEXT) or ""


def wait_for(driver: Chrome, what: str | Callable[[str], bool], timeout: float = TIMEOUT) -> str:
    """The screen's text once it shows ``what`` (a string, or a test of the text);
    selenium's ``TimeoutException``, with the screen in its message, if it never does."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    test = (lambda text: what in text) if isinstance(what, str) else what
    seen = [""]

    def shows(d: Chrome) -> str | bool:
        seen[0] = screen_text(d)
        return seen[0] if test(seen[0]) else False

    try:
        shown = WebDriverWait(driver, timeout, poll_frequency=0.1).until(shows)
        return str(shown)  # what shows returned: the text
    except TimeoutException:
        raise TimeoutException(f"the page never showed {what!r}; it shows:\n{seen[0]}") from None


def open_app(driver: Chrome, url: str, shows: str, timeout: float = TIMEOUT) -> str:
    """Load the page and wait for the app to draw ``shows``.  Nothing is clicked or
    focused here: the page gives the terminal the keyboard itself (#21)."""
    # per tab: Chromium runs it in the tab that asked (before that page's own scripts)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _HOOK})
    driver.get(url)
    return wait_for(driver, shows, timeout)


def press(driver: Chrome, *keys: str) -> None:
    """Type ``keys`` into the terminal (as a player would)."""
    from selenium.webdriver.common.action_chains import ActionChains

    chain = ActionChains(driver)
    for key in keys:
        chain.send_keys(key)
    chain.perform()


def requests_made(driver: Chrome) -> list[str]:
    """Every URL Chromium asked for since the last call (its performance log)."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] in ("Network.requestWillBeSent", "Network.webSocketCreated"):
            params = message["params"]
            urls.append(params.get("request", {}).get("url") or params.get("url", ""))
    return urls


def outside_hosts(urls: Sequence[str]) -> list[str]:
    """The ``urls`` that leave this machine (``data:`` and ``blob:`` stay)."""
    from urllib.parse import urlsplit

    out = []
    for url in urls:
        parts = urlsplit(url)
        if parts.scheme in ("data", "blob", "about", "chrome", "devtools"):
            continue
        if parts.scheme not in ("http", "https", "ws", "wss") or parts.netloc.rsplit(
                ":", 1)[0] not in LOCAL_HOSTS:
            out.append(url)
    return out


def _status(text: str) -> str:
    """The status line: the last row that is not the footer's keys."""
    rows = [r.strip() for r in text.splitlines() if r.strip()]
    return rows[-2] if len(rows) >= 2 else ""


def _hand_size(text: str) -> int | None:
    match = re.search(r"Your hand · (\d+) cards?", text)
    return int(match.group(1)) if match else None


def play_to_a_card(driver: Chrome, url: str, timeout: float = TIMEOUT) -> dict[str, str]:
    """In a tab of ``unoduo web play …`` (a UNO Duo match against a bot): wait for the
    draft, keep every card offered, then play the card the table selects on your first
    turn.  Returns the screen's text at the draft, before the play and after it."""
    seen = {"draft": open_app(driver, url, "keep (k) or reject (r)", timeout)}
    while True:
        text = wait_for(driver, lambda t: "keep (k) or reject (r)" in _status(t)
                        or "Your turn: play a card" in _status(t), timeout)
        status = _status(text)
        if "Your turn" in status:
            break
        press(driver, "k")
        def moved(t: str, was: str = status) -> bool:
            return _status(t) != was

        wait_for(driver, moved, timeout)
    seen["before"] = text
    size = _hand_size(text)
    from selenium.webdriver.common.keys import Keys

    press(driver, Keys.ENTER)
    seen["after"] = wait_for(driver, lambda t: _hand_size(t) == (size or 0) - 1
                             and "You play" in t, timeout)
    return seen


def tab_processes(data_dir: Path) -> list[int]:
    """The pids of the tabs' apps (``python -m unoduo_tui.cli --data-dir DATA_DIR …``,
    not ``web``) running now."""
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:  # gone, or not a process
            continue
        if argv[1:3] == [b"-m", b"unoduo_tui.cli"] and str(data_dir).encode() in argv \
                and b"web" not in argv:
            pids.append(int(proc.name))
    return pids


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tests.web_drive [PNG]``: serve ``unoduo web play --vs normal
    --seed 7`` from a throw-away data dir, play into the first turn in headless
    Chromium and save the browser's screenshot (default ``screenshots/web.png``)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tests.web_drive",
                                     description="The README's browser screenshot: "
                                                 "unoduo web in headless Chromium.")
    parser.add_argument("png", nargs="?", default="screenshots/web.png",
                        help="where to write it (default screenshots/web.png)")
    out = Path(parser.parse_args(argv).png)
    if out.suffix.lower() != ".png":
        parser.error(f"the screenshot is a PNG: {out.name!r} does not end in .png")
    problem = missing_browser()
    if problem:
        print(f"web_drive: headless Chromium not available: {problem}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="unoduo-web-") as data:
        with serve(Path(data), SCREENSHOT_APP) as (url, _), browser(*SCREENSHOT_SIZE) as driver:
            play_to_a_card(driver, url)
            wait_for(driver, lambda t: "Your turn" in _status(t))  # the bot has answered
            driver.save_screenshot(str(out))
    print(f"wrote {out}")
    return 0


#: what the README's screenshot shows: the first turn of a seeded match, in a window
#: of about 110×27 cells
SCREENSHOT_APP = ("play", "--vs", "normal", "--seed", "7", "--name", "You")
SCREENSHOT_SIZE = (1000, 760)

if __name__ == "__main__":
    sys.exit(main())
