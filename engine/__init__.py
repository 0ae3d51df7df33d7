"""unoduo's rules engine: pure, seeded, event-sourced UNO Duo and classic UNO.

    from engine import Card, Rules, Match, IllegalAction
    m = Match.new(rules=Rules(), seed=42)
    m.apply(m.legal_actions()[0])
    c = Match.new(Rules(preset="classic", seats=4), seed=7)   # a ClassicMatch (C1–C11)

No terminal, no files, no global random state: the app, the save files, the
bots and the tests all stand on this package.
"""

from .actions import Action, ActionError, Chance, IllegalAction, MalformedAction
from .cards import Card
from .events import Event, describe
from .match import Match
from .phases import PHASES, Phase
from .classic import ClassicMatch
from .house import HouseMatch
from .rules import Rules
from .view import PlayerView

__version__ = "0.1.0"


def compiled() -> bool:
    """Whether the match classes run compiled (setup.py: mypyc's native modules) rather
    than as the pure-Python source they are built from."""
    from importlib.machinery import EXTENSION_SUFFIXES

    from . import match

    return (match.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES))

__all__ = [
    "Action", "ActionError", "Card", "Chance", "ClassicMatch", "Event", "HouseMatch", "IllegalAction", "MalformedAction", "Match",
    "PHASES", "Phase", "PlayerView", "Rules", "compiled", "describe", "__version__",
]
