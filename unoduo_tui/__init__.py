"""unoduo's terminal front end: the Textual app, the ``unoduo`` command, the file store."""

from engine import __version__

__all__ = ["__version__"]
