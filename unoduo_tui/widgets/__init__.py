"""The table's widgets: each renders a PlayerView it is given (attributes down) and
posts intent messages (messages up); none holds game state."""

from .discard import Discard
from .footer import Footer
from .gamelog import GameLog
from .hand import Hand
from .scoresheet import ScoreSheet
from .seats import Seats
from .status import StatusLine
from .table import table_row

__all__ = ["Discard", "Footer", "GameLog", "Hand", "ScoreSheet", "Seats", "StatusLine",
           "table_row"]
