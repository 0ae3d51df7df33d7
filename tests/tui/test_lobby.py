"""The lobby (#16) at 80×24, as ``python -m tests.screenshots lobby`` draws it:
one unfinished match, two tables others listed (the rest: tests/net/test_lobby.py)."""

from __future__ import annotations

from tests.screenshots import lobby_scene

from .conftest import SIZE, screen_text


def test_lobby_snapshot(tmp_path, snap_compare):
    assert snap_compare(lobby_scene(tmp_path), terminal_size=SIZE)


async def test_the_lobby_scene_shows_resume_first_then_the_listed_tables(tmp_path):
    app = lobby_scene(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        lines = [line.strip(" ▊▎") for line in screen_text(app).splitlines()]
        shown = [line for line in lines if line]
        assert "Signed in as You  ·  key SHA256:q8Vb2LmZ…" in shown
        at = shown.index("Resume   You vs Normal bot · round 1 · 0–0")
        assert shown[at + 1:at + 8] == [
            "Quick match — the next two waiting players", "New match vs bots",
            "Open a table…", "Join Ann's table — classic, 4 seats, 2 open",
            "Watch Ann's table — classic, 4 seats, 2 open",
            "Watch Bo's table — UNO Duo, 2 seats, full", "Saved matches…"]
        palette = [c.title for c in app.screen.palette_commands()]
        assert palette == ["Lobby: Resume", "Lobby: Quick match", "Lobby: Vs bots",
                           "Lobby: Open", "Lobby: Join", "Lobby: Watch", "Lobby: Quit"]
