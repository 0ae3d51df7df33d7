"""The replay viewer's keys: one declaration each (the footer, the palette and the
help read them), the autoplay speeds and the moments' jump keys and timeline marks."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from engine.replay import MOMENTS

__all__ = ["BINDINGS", "SPEEDS", "MOMENT_KEYS", "JUMPS", "CLASSIC_LABELS",
           "WAIT_WHILE_PICKING", "QUIET", "QUIET_IDS"]

#: autoplay speeds, in actions a second
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)

#: each moment's jump key (next; the capital goes back), timeline mark and label
JUMPS = {"volley": ("v", "2", "Draw 2 volley"), "dump": ("o", "R", "Reverse dump"),
         "challenge": ("c", "!", "W+4 challenge"), "catch": ("x", "x", "UNO catch"),
         "round": ("e", "|", "round end"), "reverse": ("r", "r", "Reverse"),
         "skip": ("k", "s", "Skip")}
#: (key, moment, mark, label) in the engine's order (:data:`engine.replay.MOMENTS`, the
#: one list of moments: one without a key here fails at import)
MOMENT_KEYS = tuple((JUMPS[kind][0], kind, *JUMPS[kind][1:]) for kind in MOMENTS)
#: a label that differs in classic UNO, where a Draw 2 is not a volley (C6)
CLASSIC_LABELS = {"volley": "Draw 2"}

#: keys that wait while a line of the log is picked: asking (g), moving on their own
#: (Space), rewriting the log (p)
WAIT_WHILE_PICKING = frozenset({"goto", "autoplay", "perspective"})

#: bindings that are only cursor movement: no palette entry
QUIET = {"step", "turn", "round"}
QUIET_IDS = {"replay.log_up"}  # the palette's "Log" entry does what ↑ does, and more

BINDINGS: list[BindingType] = [
    Binding("right", "step(1)", "Step", id="replay.next", key_display="←→",
            tooltip="One action forward"),
    Binding("left", "step(-1)", "Back", id="replay.back", show=False,
            tooltip="One action back"),
    Binding("shift+right", "turn(1)", "Next turn", id="replay.next_turn", show=False,
            tooltip="To the next turn"),
    Binding("shift+left", "turn(-1)", "Previous turn", id="replay.prev_turn", show=False,
            tooltip="Back to the turn before"),
    Binding("pagedown", "round(1)", "Next round", id="replay.next_round", show=False,
            tooltip="To the next round"),
    Binding("pageup", "round(-1)", "Previous round", id="replay.prev_round", show=False,
            tooltip="Back to the round before"),
    Binding("home", "edge(0)", "Start", id="replay.start", show=False,
            tooltip="To the start of the match"),
    Binding("end", "edge(1)", "End", id="replay.end", show=False,
            tooltip="To the last action"),
    Binding("g", "goto", "Go to", id="replay.goto", tooltip="Go to an action number"),
    Binding("space", "autoplay", "Play", id="replay.autoplay", key_display="␣",
            tooltip="Play the actions one by one (again: pause)"),
    Binding("plus,equals_sign", "speed(1)", "Faster", id="replay.faster", show=False,
            tooltip="Autoplay faster"),
    Binding("minus", "speed(-1)", "Slower", id="replay.slower", show=False,
            tooltip="Autoplay slower"),
    *[b for key, kind, _, label in MOMENT_KEYS for b in (
        Binding(key, f"moment('{kind}', 1)", f"Next {label}", id=f"replay.next_{kind}",
                show=False, tooltip=f"To the next {label}"),
        Binding(key.upper(), f"moment('{kind}', -1)", f"Previous {label}",
                id=f"replay.prev_{kind}", show=False,
                tooltip=f"Back to the previous {label}"))],
    Binding("l,tab", "log", "Log", id="replay.log", key_display="l",
            tooltip="Pick a line of the log (↑ ↓, Enter goes there; Escape: done)"),
    Binding("up", "log(-1)", "Log: the line before", id="replay.log_up", show=False,
            tooltip="Pick the log's line before this action"),
    Binding("p", "perspective", "View", id="replay.perspective",
            tooltip="Each seat's view in turn, then all hands"),
    Binding("s", "spoilers", "Spoiler-free", id="replay.spoilers", show=False,
            tooltip="Hide the match's length, its future moments and the final scores"),
    Binding("a", "review", "Review", id="replay.review",
            tooltip="What the hard bot thinks of each decision (again: hide it)"),
    Binding("m", "mistake(1)", "Next mistake", id="replay.next_mistake", show=False,
            tooltip="To the next mistake or blunder (review on)"),
    Binding("M", "mistake(-1)", "Previous mistake", id="replay.prev_mistake", show=False,
            tooltip="Back to the previous mistake or blunder (review on)"),
    Binding("b", "branch", "What if", id="replay.branch", show=False,
            tooltip="A new practice match from this position, against a bot"),
    Binding("question_mark", "help", "Help", id="replay.help", key_display="?",
            tooltip="Every key"),
    Binding("q,escape", "close", "Close", id="replay.close", tooltip="Leave the replay"),
]
