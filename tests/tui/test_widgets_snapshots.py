"""Snapshot tests of the table for 3, 4 and 10 seats (#14) in the harness App: the
seats in play order, the pile, the log, the score sheet, the hand and the status line
as the game screen lays them out, from fixed decks.  Update with
``pytest tests/tui/test_widgets_snapshots.py --snapshot-update`` after a deliberate
change."""

from __future__ import annotations

import pytest

from unoduo_tui.dialogs import RoundOver

from .harness import NAMES, TableApp, position


def _scene(seats: int):
    """Seat 0 to play, a seat at one card; with four and more, after a Reverse; a round
    already scored with ten (the sheet's rows)."""
    def stop(m):
        view = m.view(0)
        return (m.to_act == 0 and m.phase == "turn" and 1 in view.hand_sizes[1:]
                and (seats < 4 or view.direction == -1)
                and (seats < 10 or len(m.rounds) >= 1))
    m = position(seats, stop)
    return TableApp(m.view(0), NAMES[:seats])


@pytest.mark.parametrize("seats", [3, 4, 10])
def test_the_table_at_80x24(seats, snap_compare):
    assert snap_compare(_scene(seats), terminal_size=(80, 24))


def test_ten_seats_with_room_at_120x40(snap_compare):
    assert snap_compare(_scene(10), terminal_size=(120, 40))


def test_a_ten_seat_round_over(snap_compare):
    m = position(10, lambda m: len(m.rounds) >= 1)
    end = next(e for e in reversed(m.events) if e.kind == "round_end")
    app = TableApp(m.view(0), NAMES)

    async def show(pilot):
        await app.push_screen(RoundOver(end, NAMES, 0, m.rules))
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=show)
