"""Snapshot tests of the main screens in textual-dark and ansi-dark (pytest-textual-snapshot).

The scenes come from ``tests.screenshots`` (fixed seeds, no data dir, no bot
pauses); TEXTUAL_ANIMATIONS=none is set in conftest.  Update with
``pytest tests/tui/test_snapshots.py --snapshot-update`` after a deliberate UI change.
"""

from __future__ import annotations

import pytest

from tests.screenshots import scene_app, scene_keys

from .conftest import settle


def keys_one_by_one(scene: str):
    """The scene's keys, each once the bots have replied to the one before (pressed
    together, a key could land before or after a bot's move: a race, not a scene)."""
    async def press(pilot) -> None:
        await settle(pilot)
        for key in scene_keys(scene):
            await pilot.press(key)
            await settle(pilot)
    return press

DARK = ["main_menu", "draft", "table", "volley", "dump_dialog", "challenge", "round_over",
        "match_over"]
ANSI = ["main_menu", "table", "dump_dialog"]


@pytest.mark.parametrize("scene", DARK)
def test_textual_dark(scene, snap_compare):
    assert snap_compare(scene_app(scene, "textual-dark"), terminal_size=(80, 24),
                        run_before=keys_one_by_one(scene))


@pytest.mark.parametrize("scene", ANSI)
def test_ansi_dark(scene, snap_compare):
    assert snap_compare(scene_app(scene, "ansi-dark"), terminal_size=(80, 24),
                        run_before=keys_one_by_one(scene))
