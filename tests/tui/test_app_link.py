"""#14: screens, dialogs and widgets reach the app through a typed interface
(:func:`unoduo_tui.app_link.unoduo`), not ``self.app.<our method>`` (untyped: a Textual
``App`` has no such name) or ``getattr(self.app, …)``."""

from __future__ import annotations

import re
from pathlib import Path

from textual.app import App

import unoduo_tui
from unoduo_tui.app import UnoDuoApp

ROOT = Path(unoduo_tui.__file__).parent


def _ours() -> set[str]:
    """The names UnoDuoApp adds to a Textual App: its methods and its attributes."""
    names = set(vars(UnoDuoApp)) | set(vars(UnoDuoApp(None)))
    plain = App()
    return {n for n in names if not n.startswith("__") and not hasattr(plain, n)}


OURS = _ours()


def test_the_app_has_names_of_its_own_to_check():
    assert {"store", "new_match", "resume_match", "open_replay", "bot_pause"} <= OURS


def test_no_screen_reaches_our_app_untyped():
    bad = []
    for path in sorted(ROOT.rglob("*.py")):
        if path.name in ("app.py", "app_link.py"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "getattr(self.app" in line:
                bad.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
            for name in re.findall(r"\bself\.app\.([A-Za-z_]\w*)", line):
                if name in OURS:
                    bad.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert bad == []
