"""Who sits where and under which rules: the seat kinds and :class:`MatchPlan`.

Textual-free: the CLI, the new-match form, the table and (later) a table server all
describe a match to start with one :class:`MatchPlan`.  A seat's kind is ``"human"``
or ``"bot:<level>"`` with a level from :data:`engine.bots.LEVELS`.
"""

from __future__ import annotations

import getpass
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from engine import Rules
from engine import bots as engine_bots
from engine.rules import OPTIONS, PRESETS

from .text import player_name

__all__ = ["HUMAN", "DEFAULT_LEVEL", "MatchPlan", "bot_levels", "opponent_label",
           "seat_kinds", "default_names", "login_name", "preset_rules", "PRESET_LABELS",
           "preset_label", "play_plan"]

HUMAN = "human"

#: the bot a new match is against unless the player chose another (`unoduo play`, the form)
DEFAULT_LEVEL = "normal"


def bot_levels() -> tuple[str, ...]:
    """The bot levels the engine offers today (never hard-coded here)."""
    return tuple(engine_bots.LEVELS)


#: how the form and the help name each preset of :data:`engine.rules.PRESETS`
PRESET_LABELS: Mapping[str, str] = {"duo": "UNO Duo (2 players)", "classic": "Classic UNO (2–10)"}


def preset_label(preset: str) -> str:
    return PRESET_LABELS.get(preset, preset)


def opponent_label(kind: str) -> str:
    """``"bot:easy"`` → ``"Easy bot"``; ``"human"`` → ``"Human"``."""
    if kind.startswith("bot:"):
        return f"{kind[4:].capitalize()} bot"
    return "Human (hot-seat)" if kind == HUMAN else kind


@dataclass(frozen=True)
class MatchPlan:
    """A new match: one name and one kind per seat (``len`` = the number of seats),
    its rules and an optional seed (``None``: a fresh one)."""

    names: tuple[str, ...]
    kinds: tuple[str, ...]
    rules: Rules = Rules()
    seed: int | None = None

    def __post_init__(self) -> None:
        if len(self.names) != len(self.kinds):
            raise ValueError("a name for every seat and a kind for every seat")
        if len(self.kinds) != self.rules.seats:
            raise ValueError(f"{len(self.kinds)} seats, but the rules are for {self.rules.seats}")
        for kind in self.kinds:
            if kind != HUMAN and not (kind.startswith("bot:") and kind[4:] in bot_levels()):
                raise ValueError(f"unknown seat kind {kind!r}")


def seat_kinds(seats: int, vs: Sequence[str]) -> tuple[str, ...]:
    """The kinds of ``seats`` seats, seat 0 being you (human): ``vs`` is one level (or
    ``"human"``) for every other seat, or one per other seat.  ``ValueError`` (one
    plain sentence) on a wrong count or an unknown level."""
    vs = tuple(vs)
    others = seats - 1
    if len(vs) not in (1, others):
        count = "one" if others == 1 else f"one or {others}"
        raise ValueError(f"--vs takes {count} of {', '.join((*bot_levels(), HUMAN))} "
                         f"(comma-separated) for the {others} other seat"
                         + ("s" if others != 1 else "") + f", not {len(vs)}")
    for level in vs:
        if level != HUMAN and level not in bot_levels():
            raise ValueError(f"Unknown opponent {level[:40]!r}: one of "
                             f"{', '.join(bot_levels())} or {HUMAN}")
    levels = vs * others if len(vs) == 1 else vs
    return (HUMAN, *(HUMAN if lv == HUMAN else f"bot:{lv}" for lv in levels))


def login_name() -> str:
    """The login name, capitalised ("" when there is none to be had)."""
    try:
        return getpass.getuser().capitalize()
    except Exception:  # no user database entry, no LOGNAME…
        return ""


def default_names(kinds: Sequence[str], names: Sequence[str | None] = (),
                  me: str | None = None) -> tuple[str, ...]:
    """A name per seat for ``kinds``, each cleaned at the edge (:func:`player_name`); a
    blank one gets a default: seat 0 (you) ``me`` or else the login name — or "Player
    1" at a hot-seat table —, other humans "Player N", bots their label ("Normal bot 2"
    when several seats have that level).  ``me``: the player's name when the app knows
    it (a lobby session: one of many in a process, whose login is the server's)."""
    given = list(names) + [None] * (len(kinds) - len(names))
    hot_seat = sum(kind == HUMAN for kind in kinds) > 1
    labels = Counter(kinds)
    nth: Counter = Counter()
    out = []
    for seat, (kind, name) in enumerate(zip(kinds, given)):
        nth[kind] += 1
        if kind != HUMAN:
            fallback = opponent_label(kind) + (f" {nth[kind]}" if labels[kind] > 1 else "")
        elif seat or hot_seat:
            fallback = f"Player {seat + 1}"
        else:
            fallback = ("" if player_name(name, "")
                        else player_name(me or login_name(), "You"))
        out.append(player_name(name, fallback))
    return tuple(out)


def preset_rules(preset: str, seats: int | None, options: Mapping[str, Any] | None = None,
                 **given: Any) -> Rules:
    """The :class:`Rules` for ``preset`` at ``seats``: the ``given`` options (``None``:
    not given) over ``options`` (remembered ones, dropped when the preset lacks them or
    they are no longer valid).  ``ValueError`` for a bad given option or seat count."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}: one of {', '.join(PRESETS)}")
    names = {o.name for o in OPTIONS if preset in o.default} - {"seats"}
    wanted = {k: v for k, v in given.items() if v is not None}
    kept = {}
    for name, value in dict(options or {}).items():
        if name in names and name not in wanted:
            try:  # alone (with what the house rules' checks need: stacking, four seats)
                Rules(preset=preset, **{**(_FIT if _is_house(name) else {}), name: value})
            except (TypeError, ValueError):
                continue  # a remembered choice the rules no longer allow
            kept[name] = value
    for name in wanted:
        if name not in names and name != "seats":
            others = [p for p in _option_presets(name) if p != preset]
            raise ValueError(f"--{name.replace('_', '-')} is not an option of the {preset} "
                             "preset" + (f" (only {' and '.join(others)})" if others else ""))
    try:
        return Rules(preset=preset, seats=seats, **kept, **wanted)
    except ValueError:
        if not kept:
            raise
    # a remembered choice that does not fit with the rest (H2 stack_draw4=any without
    # stacking, H5 partners at an odd table): what was asked wins, the misfit is dropped
    for name in list(kept):
        rest = {k: v for k, v in kept.items() if k != name}
        try:
            return Rules(preset=preset, seats=seats, **rest, **wanted)
        except ValueError:
            continue
    return Rules(preset=preset, seats=seats, **wanted)


#: what a remembered house rule is checked alone with (H2 any needs stacking, H5 four seats)
_FIT = {"stacking": True, "seats": 4}


def _is_house(name: str) -> bool:
    return any(o.name == name and o.house for o in OPTIONS)


def _option_presets(name: str) -> tuple[str, ...]:
    return next((tuple(o.default) for o in OPTIONS if o.name == name), ())


def play_plan(preset: str = "duo", seats: int | None = None, vs: Sequence[str] = (),
              name: str | None = None, seed: int | None = None,
              remembered: Mapping[str, Any] | None = None, **options: Any) -> MatchPlan:
    """The match ``unoduo play`` starts: you in seat 0, ``vs`` (one level, or
    ``"human"``, for every other seat, or one per other seat; default the normal bot),
    the ``options`` given over the ``remembered`` ones.  ``seats`` defaults to one more
    than ``vs`` names, else the preset's default.  ``ValueError``: one plain sentence."""
    vs = tuple(vs) or (DEFAULT_LEVEL,)
    if seats is None and preset in PRESETS and len(vs) + 1 > max(PRESETS[preset]):
        raise ValueError(f"--vs names {len(vs)} opponents, and {preset} has room for "
                         f"{max(PRESETS[preset]) - 1}")
    if seats is None:
        seats = len(vs) + 1 if len(vs) > 1 else next(
            o.default for o in OPTIONS if o.name == "seats").get(preset, 2)
    rules = preset_rules(preset, seats, remembered, **options)
    kinds = seat_kinds(seats, vs)
    return MatchPlan(default_names(kinds, (name,)), kinds, rules, seed)
