"""``unoduo web`` in a real browser (#16): headless Chromium under selenium loads the
page, the draft appears, keys play a card, a screenshot is taken; no request leaves
this machine; two tabs are two players and a closed tab ends its app.

Skipped only where Chromium or its driver is not installed (``.ci/run`` installs
Debian's ``chromium`` and ``chromium-driver``).
"""

from __future__ import annotations

import pytest

from tests.web_drive import (base, browser, missing_browser, outside_hosts, open_app,
                                  play_to_a_card, press, requests_made, serve,
                                  tab_processes, until, wait_for)

_MISSING = missing_browser()
pytestmark = pytest.mark.skipif(
    _MISSING is not None,
    reason=f"headless Chromium not installed: apt-get install chromium chromium-driver "
           f"({_MISSING})")

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def chromium():
    with browser(1100, 760) as driver:
        yield driver


def test_a_tab_drafts_and_plays_a_card(tmp_path, chromium):
    data = tmp_path / "data"
    with serve(data, ["play", "--vs", "normal", "--seed", "7", "--name", "Ann"]) as (url, _):
        seen = play_to_a_card(chromium, url)
        assert "Draft 1/14: keep (k) or reject (r)" in seen["draft"]
        assert "Your hand · 0 cards" in seen["draft"]
        assert "Your hand · 7 cards" in seen["before"]
        assert "Your hand · 6 cards" in seen["after"] and "You play" in seen["after"]
        shot = tmp_path / "web.png"
        assert chromium.save_screenshot(str(shot))
        assert shot.read_bytes()[:8] == PNG
        # the printed address, with its token, was opened; the token then left the
        # address bar for a cookie the page's scripts cannot read
        root = base(url)
        assert "?token=" in url and chromium.current_url == root
        assert chromium.execute_script("return document.cookie") == ""
        urls = requests_made(chromium)
        assert url in urls and root + "static/js/textual.js" in urls
        assert any(u.startswith(root.replace("http", "ws") + "ws?") for u in urls)
        assert outside_hosts(urls) == [], "Chromium fetched from outside this machine"
    until(lambda: not tab_processes(data), "the tab's app to end with the server")
    assert list((data / "matches").glob("*")), "the match was not saved"


def test_two_tabs_are_two_players_and_a_closed_tab_ends_its_app(tmp_path, chromium):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    data = tmp_path / "data"
    with serve(data) as (url, _):
        open_app(chromium, url, "New match")
        first = chromium.current_window_handle
        chromium.switch_to.new_window("tab")
        open_app(chromium, url, "New match")
        assert len(tab_processes(data)) == 2
        # the menu by keys, nothing clicked (the page gives the terminal the keyboard):
        # n for the new-match form, Ctrl+S to start: the draft
        press(chromium, "n")
        wait_for(chromium, "Start (Ctrl+S or F2)")
        ActionChains(chromium).key_down(Keys.CONTROL).send_keys("s").key_up(
            Keys.CONTROL).perform()
        wait_for(chromium, "keep (k) or reject (r)")
        chromium.close()
        until(lambda: len(tab_processes(data)) == 1, "the closed tab's app to end")
        chromium.switch_to.window(first)
        wait_for(chromium, "New match")  # the other player is still at the menu
        press(chromium, "n")  # and starts with F2, a key no browser takes for itself
        wait_for(chromium, "^s/F2 Start")
        press(chromium, Keys.F2)
        wait_for(chromium, "keep (k) or reject (r)")
    until(lambda: not tab_processes(data), "the last tab's app to end with the server")
