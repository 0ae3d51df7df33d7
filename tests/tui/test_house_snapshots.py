"""Snapshots of a partners table with every house rule on (H1–H5), at 80×24, at 4 and
10 seats, with ``NO_COLOR`` (the scenes come from ``tests.screenshots``; update with
``pytest tests/tui/test_house_snapshots.py --snapshot-update`` after a deliberate change)."""

from __future__ import annotations

import pytest

from tests.screenshots import scene_app

from .conftest import settle


async def _settled(pilot) -> None:
    await settle(pilot)


@pytest.mark.parametrize("scene", ["partners_4", "partners_10"])
def test_partners_table_no_color(scene, snap_compare, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(scene_app(scene, "textual-dark"), terminal_size=(80, 24),
                        run_before=_settled)
