"""Snapshot tests of the main screens in textual-dark and ansi-dark (pytest-textual-snapshot).

The scenes come from ``unoduo_tui.screenshots`` (fixed seeds, no data dir, no bot
pauses); TEXTUAL_ANIMATIONS=none is set in conftest.  Update with
``pytest tests/tui/test_snapshots.py --snapshot-update`` after a deliberate UI change.
"""

from __future__ import annotations

import pytest

from unoduo_tui.screenshots import scene_app, scene_keys

DARK = ["main_menu", "draft", "table", "volley", "dump_dialog", "challenge", "round_over",
        "match_over"]
ANSI = ["main_menu", "table", "dump_dialog"]


@pytest.mark.parametrize("scene", DARK)
def test_textual_dark(scene, snap_compare):
    assert snap_compare(scene_app(scene, "textual-dark"), terminal_size=(80, 24),
                        press=list(scene_keys(scene)))


@pytest.mark.parametrize("scene", ANSI)
def test_ansi_dark(scene, snap_compare):
    assert snap_compare(scene_app(scene, "ansi-dark"), terminal_size=(80, 24),
                        press=list(scene_keys(scene)))
