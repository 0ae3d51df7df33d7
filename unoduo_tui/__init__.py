"""unoduo's terminal front end (the Textual app arrives with its own issue)."""

from engine import __version__

__all__ = ["__version__"]
