"""Write ``screenshots/*.svg`` from fixed seeds: ``python -m tests.screenshots``.

Each scene is a match from a fixed seed, played by a seeded random chooser until the
moment worth showing, then opened in the app at 80×24 (no animations, no data dir,
no bot pauses).  The snapshot tests use the same scenes, so the pictures in the
README and the tested screens are one and the same.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
from pathlib import Path
from typing import Callable
from weakref import WeakKeyDictionary

from engine import Match, Rules

from unoduo_tui.table.local import LocalTable

__all__ = ["SCENES", "scene_table", "scene_app", "lobby_scene", "main"]

NAMES = ("Ann", "Bot")
KINDS = ("human", "bot:normal")  # the default opponent
#: classic tables: you and the bots around you, by name
CLASSIC_NAMES = ("Ann", "Bartholomew", "Cy", "Dorothea", "Ed", "Fatima", "Gus", "Hanna",
                 "Ida", "Jo")


def _playout(seed: int, stop: Callable[[Match], bool], rules: Rules | None = None,
             limit: int = 5000) -> Match | None:
    """Play seat 0 and seat 1 at random (seeded) until ``stop(match)``; ``None`` if never."""
    m = Match.new(rules or Rules(), seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if m.over:
            return None
        if stop(m):
            return m
        legal = m.legal_actions()
        # Prefer real moves over drawing so the scenes stay lively.
        plays = [a for a in legal if a.kind in ("play", "dump", "keep")]
        m.apply(rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(legal))
    return None


def _find(stop: Callable[[Match], bool], rules: Rules | None = None) -> Match:
    for seed in range(1, 400):
        m = _playout(seed, stop, rules)
        if m is not None:
            return m
    raise RuntimeError("no seed reaches this scene")


def _mine(m: Match, phase: str) -> bool:
    return m.to_act == 0 and m.phase == phase


def _draft(m: Match) -> bool:
    return _mine(m, "draft") and len(m.hand(0)) == 4


def _table(m: Match) -> bool:
    return (_mine(m, "turn") and m.round == 2 and 6 <= len(m.hand(0)) <= 11
            and len(m.rounds) == 1 and m.exposed is None
            and sum(a.kind == "play" for a in m.legal_actions()) >= 2)


def _volley(m: Match) -> bool:
    return _mine(m, "volley") and m.pending_draw >= 4 and any(
        a.kind == "play" for a in m.legal_actions())


def _dump(m: Match) -> bool:
    return _mine(m, "dump") and sum(a.kind == "dump" for a in m.legal_actions()) >= 3


def _challenge(m: Match) -> bool:
    return _mine(m, "wd4") and "challenge" in m.legal_actions() and len(m.hand(0)) >= 4


def _going_out(m: Match) -> bool:
    return (_mine(m, "turn") and len(m.hand(0)) == 1 and m.round >= 2
            and any(a.kind == "play" and a.card is not None and not a.card.is_wild
                    for a in m.legal_actions()))


#: the lobby scenes' listings, each held (locked) as long as its app lives
_HELD: WeakKeyDictionary[object, list] = WeakKeyDictionary()

_SMALL_TARGET = 60
_SMALL = Rules(target=_SMALL_TARGET)


def _classic_table(m: Match) -> bool:
    """A classic table in its second round, your turn with a choice to make."""
    return (_mine(m, "turn") and m.round >= 2 and 4 <= len(m.hand(0)) <= 9
            and any(s > 0 for s in m.scores)
            and sum(a.kind == "play" for a in m.legal_actions()) >= 2)


def _match_point(m: Match) -> bool:
    return _going_out(m) and m.scores[1] + sum(c.points for c in m.hand(1)) >= _SMALL_TARGET \
        and m.scores[1] > m.scores[0]


#: scene name → (how to find its match, keys pressed in the app, rules)
SCENES: dict[str, tuple[Callable[[Match], bool] | None, tuple[str, ...], Rules | None]] = {
    "main_menu": (None, (), None),
    "draft": (_draft, (), None),
    "table": (_table, (), None),
    "volley": (_volley, (), None),
    "dump_dialog": (_dump, (), None),
    "challenge": (_challenge, (), None),
    "round_over": (_going_out, ("enter",), None),
    "match_over": (_match_point, ("enter", "enter"), _SMALL),
    "replay": (_match_point, ("home", "v", "right"), _SMALL),
    "classic_4": (_classic_table, (), Rules(preset="classic", seats=4)),
    "classic_10": (_classic_table, (), Rules(preset="classic", seats=10)),
    # H1–H5: partners at 4 and 10 seats with every house rule on
    "partners_4": (_classic_table, (), Rules(preset="classic", seats=4, teams="partners",
                                             seven_zero=True, stacking=True, stack_draw4="any",
                                             draw_until=True, jump_in=True)),
    "partners_10": (_classic_table, (), Rules(preset="classic", seats=10, teams="partners",
                                              seven_zero=True, stacking=True,
                                              stack_draw4="any", draw_until=True,
                                              jump_in=True)),
    "lobby": (None, (), None),  # :func:`lobby_scene`
}

#: scenes shown in the replay viewer (the match played to its end, then watched)
REPLAYS = {"replay"}


def scene_table(name: str) -> LocalTable | None:
    """The scene's table (``None`` for the menu), unsaved, with a random bot."""
    stop, _, rules = SCENES[name]
    if stop is None:
        return None
    m = _find(stop, rules)
    replayed = Match.replay(m.rules, m.actions, seed=m.seed)
    if m.seats == 2:
        return LocalTable(replayed, NAMES, KINDS)
    return LocalTable(replayed, CLASSIC_NAMES[:m.seats], KINDS[:1] + KINDS[1:] * (m.seats - 1))


def scene_app(name: str, theme: str = "textual-dark"):
    """The app showing ``name`` once its keys are pressed (see :data:`SCENES`)."""
    from unoduo_tui.app import UnoDuoApp
    if name in REPLAYS:
        return UnoDuoApp(None, "replay", replay=scene_replay(name), bot_pause=0, theme=theme)
    return UnoDuoApp(None, table=scene_table(name), bot_pause=0, theme=theme)


def scene_replay(name: str):
    """The scene's match played to its end by random choices, as a loaded save file
    (fixed id and date; nothing is written)."""
    from engine import __version__
    from engine.savefile import Header

    from unoduo_tui.store import Loaded

    stop, _, rules = SCENES[name]
    if stop is None:
        raise ValueError(f"the scene {name!r} is not a match")
    m = _find(stop, rules)
    rng = random.Random(7)
    while not m.over:
        m.apply(rng.choice(m.legal_actions()))
    header = Header("20260101-120000-replay", m.rules, m.seed,
                    tuple(zip(NAMES, KINDS)), "2026-01-01T12:00:00+00:00", __version__)
    return Loaded(m, header, Path("replay.unoduo"), None)


def scene_keys(name: str) -> tuple[str, ...]:
    return SCENES[name][1]


def lobby_scene(root: Path, theme: str = "textual-dark"):
    """``unoduo lobby`` with one unfinished match (in ``root``) and two tables others
    listed (by this process, as their tables would: it holds their listings' locks
    while the app lives)."""
    from unoduo_tui.net.lobby import LISTING_VERSION, Listing
    from unoduo_tui.apps import lobby_app
    from unoduo_tui.plan import MatchPlan
    from unoduo_tui.screens.lobby import LobbyPlace
    from unoduo_tui.store import Store

    store = Store(root / "you")
    LocalTable.start(store, MatchPlan(("You", "Normal bot"), KINDS, Rules(), 7)).close()
    (root / "lobby").mkdir(parents=True, mode=0o700)
    held = []
    for when, (word, host, preset, seats, names, free) in enumerate((
            ("tide", "Ann", "classic", 4, ["Ann", "Cy"], 2),
            ("moss", "Bo", "duo", 2, ["Bo", "Di"], 0))):
        listing = Listing(root / "lobby", f"{word}-wolf-17", word, preset)
        listing.put({
            "v": LISTING_VERSION, "code": f"{word}-wolf-17", "match": word, "host": host,
            "preset": preset, "seats": seats, "names": names, "open": free, "quick": False,
            "over": False, "pid": os.getpid()})
        os.utime(listing.path, (1_800_000_000 + when, 1_800_000_000 + when))
        held.append(listing)
    place = LobbyPlace(root / "lobby", "You", "SHA256:q8Vb2LmZr4Xw9TnKc3Yh")
    app = lobby_app(store, place, theme=theme, bot_pause=0)
    _HELD[app] = held  # the locks live as long as the app
    return app


async def _shoot(name: str, theme: str, out: Path) -> Path:
    if name == "lobby":
        import tempfile

        with tempfile.TemporaryDirectory() as root:
            return await _snap(lobby_scene(Path(root), theme), name, out)
    return await _snap(scene_app(name, theme), name, out)


async def _snap(app, name: str, out: Path) -> Path:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for key in scene_keys(name):
            await pilot.press(key)
            await pilot.pause(0.1)
        await pilot.pause(0.2)
        app.save_screenshot(filename=f"{name}.svg", path=str(out))
    return out / f"{name}.svg"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.screenshots",
                                     description="Write the README's screenshots.")
    parser.add_argument("--out", default="screenshots", help="folder (default: screenshots)")
    parser.add_argument("--theme", default="textual-dark")
    parser.add_argument("scenes", nargs="*", help=f"default: all of {', '.join(SCENES)}")
    args = parser.parse_args(argv)
    os.environ["TEXTUAL_ANIMATIONS"] = "none"
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.scenes or SCENES:
        if name not in SCENES:
            parser.error(f"unknown scene {name!r}")
        print(asyncio.run(_shoot(name, args.theme, out)))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
