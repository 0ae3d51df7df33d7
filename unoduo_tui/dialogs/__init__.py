"""Modal dialogs with typed results (``dismiss(value)``), one module per kind: the
game decisions (:mod:`.decisions`), the end of a round and of the match
(:mod:`.results`) and the questions away from the game (:mod:`.confirm`).

None binds a game decision to bare Escape (escape sequences split on slow links);
Escape only ever cancels something that changes nothing.

Each is imported when first asked for (``from unoduo_tui.dialogs import RoundOver``):
none is imported before the table's first frame (#22), and importing ``dialogs.base``
does not import every dialog.
"""

from importlib import import_module
from typing import Any

#: each name this package offers, and the module it lives in
_HOME = {"CanLeave": "base", "Dialog": "base", "OwnKeys": "base",
         "BranchDialog": "confirm", "ConfirmDelete": "confirm", "ConfirmLeave": "confirm",
         "ChallengePrompt": "decisions", "ColourPicker": "decisions",
         "DumpDialog": "decisions", "ShownHand": "decisions", "SwapPicker": "decisions",
         "MatchOver": "results", "RoundOver": "results"}


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(import_module(f".{_HOME[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["Dialog", "ShownHand", "ColourPicker", "SwapPicker", "DumpDialog", "ChallengePrompt", "RoundOver",
           "MatchOver", "ConfirmLeave", "ConfirmDelete", "BranchDialog", "OwnKeys", "CanLeave"]
