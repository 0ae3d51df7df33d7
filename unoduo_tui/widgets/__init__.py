"""The table's widgets: each renders a PlayerView it is given (attributes down) and
posts intent messages (messages up); none holds game state."""

from .discard import Discard
from .footer import Footer
from .gamelog import GameLog
from .hand import Hand
from .opponent import Opponent
from .scoresheet import ScoreSheet
from .status import StatusLine
from .table import table_row

__all__ = ["Discard", "Footer", "GameLog", "Hand", "Opponent", "ScoreSheet", "StatusLine",
           "table_row"]
