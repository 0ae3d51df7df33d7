"""Modal dialogs with typed results (``dismiss(value)``), one module per kind: the
game decisions (:mod:`.decisions`), the end of a round and of the match
(:mod:`.results`) and the questions away from the game (:mod:`.confirm`).

None binds a game decision to bare Escape (escape sequences split on slow links);
Escape only ever cancels something that changes nothing.
"""

from .base import CanLeave, Dialog, OwnKeys
from .confirm import BranchDialog, ConfirmDelete, ConfirmLeave
from .decisions import ChallengePrompt, ColourPicker, DumpDialog, ShownHand
from .results import MatchOver, RoundOver

__all__ = ["Dialog", "ShownHand", "ColourPicker", "DumpDialog", "ChallengePrompt", "RoundOver",
           "MatchOver", "ConfirmLeave", "ConfirmDelete", "BranchDialog", "OwnKeys", "CanLeave"]
