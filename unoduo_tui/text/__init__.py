"""Text from users and files, made safe to show.  No Textual here: the headless
commands (``list``, ``transcript``, ``verify``) and the screens both use it.

Anyone can write a save file that passes every check (the chain catches accidents,
not forgery), so every string read from one — names, ids, a branch's parent — is
untrusted: :func:`printable` before it reaches a terminal.  Names typed by a player,
given on the command line or taken from the login are cleaned once, at the edge,
by :func:`player_name`, so the save file's writer and reader agree on them.
"""

from __future__ import annotations

import re
import unicodedata

from engine.savefile import MAX_NAME

__all__ = ["printable", "player_name", "clip", "rule_book", "MAX_NAME"]

#: an ANSI escape sequence (CSI / OSC / DCS … up to its terminator), or a lone control
_ESCAPE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"            # CSI: colours, cursor moves, clear screen
    r"|\x1b[\]PX^_].*?(?:\x07|\x1b\\|$)"  # OSC / DCS / SOS / PM / APC, to BEL or ST
    r"|\x9b[0-?]*[ -/]*[@-~]"             # 8-bit CSI
    r"|[\x9d\x90\x98\x9e\x9f].*?(?:\x07|\x9c|$)",  # 8-bit OSC / DCS …
    re.DOTALL)


def _is_control(ch: str) -> bool:
    # Cc: C0 and C1 controls (ESC, BEL, newline, DEL…); Cf: bidi overrides and friends,
    # which can make a line read other than it is
    return unicodedata.category(ch) in ("Cc", "Cf")


def printable(text: object, newlines: bool = False) -> str:
    """``text`` with every escape sequence and control character removed (a newline
    too, unless ``newlines``): what is left cannot move the cursor, retitle the
    terminal, clear the screen or forge another line."""
    s = _ESCAPE.sub("", str(text))
    if newlines:
        return "\n".join("".join(c for c in line if not _is_control(c))
                         for line in s.split("\n"))
    return "".join(c for c in s if not _is_control(c))


def player_name(text: str | None, fallback: str = "Player") -> str:
    """A seat's name as the game stores it: printable, white space folded to single
    spaces, trimmed, at most :data:`MAX_NAME` characters; ``fallback`` when nothing
    is left."""
    name = " ".join(printable(text or "").split())[:MAX_NAME].rstrip()
    return name or fallback


def clip(text: object, width: int = 160) -> str:
    """Untrusted ``text`` made printable and cut to ``width`` characters."""
    s = printable(text)
    return s if len(s) <= width else s[:width - 1] + "…"


def rule_book() -> str:
    """The player-facing rule book shipped inside the package (``rules.md``)."""
    from importlib import resources

    return resources.files("unoduo_tui").joinpath("rules.md").read_text(encoding="utf-8")
