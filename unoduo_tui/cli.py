"""The ``unoduo`` command.

    unoduo                      the menu            unoduo list       saved matches
    unoduo play [--vs LEVEL]    a new match         unoduo verify X   check a save file
    unoduo resume [ID|PATH]     carry on            unoduo export X --json
    unoduo rules                the rule book       unoduo simulate --bots a,b --matches N
    unoduo replay X             watch a match again unoduo transcript X
    unoduo replay --spoiler-free X   … from the start, its length and result hidden

Non-interactive commands never import Textual; interactive ones refuse a
``TERM=dumb`` terminal in plain text before Textual starts.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Sequence

from . import __version__

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def rule_book() -> str:
    """The player-facing rule book shipped inside the package."""
    from importlib import resources

    return resources.files("unoduo_tui").joinpath("rules.md").read_text(encoding="utf-8")


def _seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError("a seed is a whole number from 0 to 2**64-1")
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    def data_dir_option(default) -> argparse.ArgumentParser:
        options = argparse.ArgumentParser(add_help=False)
        options.add_argument("--data-dir", metavar="PATH", default=default,
                             help="where saved matches live (default: $UNODUO_DATA_DIR or "
                                  "the user data dir)")
        return options

    # `unoduo --data-dir X list` and `unoduo list --data-dir X` both work: a command's
    # own --data-dir must not put back the default over one given before the command
    top, common = data_dir_option(None), data_dir_option(argparse.SUPPRESS)
    parser = argparse.ArgumentParser(
        prog="unoduo", parents=[top],
        description="UNO Duo in your terminal. With no command: the main menu.")
    parser.add_argument("--version", action="version", version=f"unoduo {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", parents=[common], help="start a new match straight away")
    play.add_argument("--vs", metavar="LEVEL", help="a bot level, or 'human' for hot-seat")
    play.add_argument("--seed", type=_seed, help="a fixed seed (default: unguessable)")
    play.add_argument("--target", type=_positive, help="points that end the match (200)")
    play.add_argument("--name", help="your name")

    resume = sub.add_parser("resume", parents=[common], help="carry on a saved match")
    resume.add_argument("match", nargs="?", metavar="ID|PATH",
                        help="default: the newest unfinished match")

    listing = sub.add_parser("list", parents=[common], help="list saved matches")
    listing.add_argument("--spoiler-free", action="store_true",
                         help="finished matches without their round, scores or winner")

    verify = sub.add_parser("verify", parents=[common],
                            help="check a save file: framing, chain, legality")
    verify.add_argument("match", metavar="ID|PATH")

    export = sub.add_parser("export", parents=[common], help="a match's log as JSON lines")
    export.add_argument("match", metavar="ID|PATH")
    export.add_argument("--json", action="store_true", required=True,
                        help="JSON lines: header, one line per log entry, footer")

    sim = sub.add_parser("simulate", parents=[common], help="headless bot-vs-bot matches")
    sim.add_argument("--bots", default="random", metavar="A,B,…",
                     help="a bot level per seat, comma-separated, or one for all (default random)")
    sim.add_argument("--preset", choices=("duo", "classic"), default="duo")
    sim.add_argument("--seats", type=_positive, help="players (classic: 2–10; duo: 2)")
    sim.add_argument("--matches", type=_positive, default=10)
    sim.add_argument("--seed", type=_seed, default=1)
    sim.add_argument("--target", type=_positive, help="points that end each match (200)")
    sim.add_argument("--jobs", type=_positive, default=1, help="processes to play in")
    sim.add_argument("--think-ms", type=_positive, help="the hard bot's time per decision")
    sim.add_argument("--save", metavar="DIR", help="write every match as a save file in DIR")
    sim.add_argument("--json", action="store_true", help="print one JSON object")

    transcript = sub.add_parser("transcript", parents=[common],
                                help="a match as plain sentences, action by action")
    transcript.add_argument("match", metavar="ID|PATH")

    replay = sub.add_parser("replay", parents=[common],
                            help="watch a saved match again, step by step (read-only)")
    replay.add_argument("match", metavar="ID|PATH")
    replay.add_argument("--spoiler-free", action="store_true",
                        help="start at the beginning, with the match's length, its moments "
                             "to come and its result hidden (s toggles it)")

    sub.add_parser("rules", parents=[common], help="print the rule book")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    command = args.command or "menu"
    try:
        handler = _COMMANDS[command]
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `unoduo export … | head`
        sys.stderr.close()
        return EXIT_OK


def _store(args: argparse.Namespace):
    from .store import Store

    return Store(args.data_dir)


def _err(message: str) -> None:
    print(f"unoduo: {message}", file=sys.stderr)


# -- interactive ---------------------------------------------------------------------

def _terminal_problem() -> str | None:
    term = os.environ.get("TERM", "")
    if term in ("", "dumb", "unknown"):
        return (f"unoduo needs a full-screen terminal, and TERM={term or '(unset)'} is not "
                "one. Try TERM=xterm-256color, or run it in tmux.")
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return "unoduo needs an interactive terminal (stdin and stdout are not a tty)."
    return None


def _interactive(args: argparse.Namespace) -> int:
    problem = _terminal_problem()
    if problem:
        _err(problem)
        return EXIT_USAGE
    store = _store(args)
    try:
        from .app import run_app
    except ImportError as exc:  # pragma: no cover - the app ships with the package
        _err(f"the game table is not available: {exc}")
        return EXIT_FAIL
    if args.command == "play":
        return run_app(store, "play", vs=args.vs, seed=args.seed, target=args.target,
                       name=args.name)
    if args.command == "resume":
        return run_app(store, "resume", resume=args.match)
    if args.command == "replay":
        return run_app(store, "replay", replay=args.match, spoiler_free=args.spoiler_free)
    return run_app(store, "menu")


# -- headless ------------------------------------------------------------------------

def _list(args: argparse.Namespace) -> int:
    from .columns import short_names
    from .store import short_id

    rows = _store(args).summaries()
    if not rows:
        print("No saved matches yet. Start one with 'unoduo play'.")
        return EXIT_OK
    # the short id (enough for resume / replay / verify …) keeps a line within 80 columns
    print(f"{'ID':<6} {'STARTED':<16} {'PLAYERS':<24} {'ROUND':>5} {'SCORES':>9}  STATUS")
    for s in rows:
        started = s.created.astimezone().strftime("%Y-%m-%d %H:%M") if s.created else "?"
        players = " v ".join(seat.name for seat in s.seats) or "?"
        scores = "–".join(map(str, s.scores)) if s.scores else "-"
        rounds = str(s.round)
        status = s.status
        if args.spoiler_free and s.status == "finished":  # who won, and how long it ran
            rounds = scores = "?"
        elif s.status == "finished" and s.winner is not None and len(s.seats) == 2:
            # "Normal bot won" ends at column 80; like names stay apart ("Random b…2")
            status = short_names(s.seats[0].name, s.seats[1].name, 10)[s.winner] + " won"
        elif s.status == "finished":
            status = "a draw"
        if s.problem and s.status == "damaged":
            status += f": {s.problem.split(': ', 1)[-1]}"
        if s.undos:
            status += f", practice ({s.undos} undo{'s' * (s.undos != 1)})"
        if s.parent:
            status += f", branch of {short_id(s.parent[0])} @ {s.parent[1]}"
        print(f"{short_id(s.id):<6} {started:<16} {players[:24]:<24} {rounds:>5} {scores:>9}  "
              f"{status}")
    return EXIT_OK


def _read_only(args: argparse.Namespace):
    """(the match named by ``args.match``, opened read-only, or None; the error or None)."""
    from .store import SaveFileError

    try:
        return _store(args).open(args.match, read_only=True), None
    except SaveFileError as exc:
        return None, str(exc)


def _verify(args: argparse.Namespace) -> int:
    loaded, error = _read_only(args)
    if loaded is None:
        print(f"damaged: {error}")
        return EXIT_FAIL
    m = loaded.match
    state = ("finished, " + (f"{loaded.seats[m.winner].name} won" if m.winner is not None
                             else "a draw")) if m.over else f"in progress, round {m.round}"
    decisions = sum(1 for e in m.actions if not e.is_chance)
    note = f" ({'; '.join(loaded.notes)})" if loaded.notes else ""
    print(f"ok: {loaded.path}: {decisions} decisions, {m.log_length} log entries, "
          f"scores {'–'.join(map(str, m.scores))}, {state}; framing, chain and every move "
          f"check out{note}")
    return EXIT_OK


def _export(args: argparse.Namespace) -> int:
    loaded, error = _read_only(args)
    if loaded is None:
        _err(error)
        return EXIT_FAIL
    header = loaded.header
    out = sys.stdout
    out.write(json.dumps({"type": "header", **header.to_body()}) + "\n")
    # who made each decision: the seat to act before it, as a step-by-step replay shows
    seat_of = [m.to_act for m in type(loaded.match).replay_steps(
        header.rules, loaded.match.actions, header.seed)]
    decision = 0
    for i, entry in enumerate(loaded.match.actions):
        if entry.is_chance:
            out.write(json.dumps({"type": "chance", "i": i, "entry": str(entry)}) + "\n")
        else:
            out.write(json.dumps({"type": "decision", "i": i, "seat": seat_of[decision],
                                  "action": str(entry)}) + "\n")
            decision += 1
    m = loaded.match
    if m.over:
        out.write(json.dumps({"type": "footer", "winner": m.winner, "scores": list(m.scores),
                              "rounds": m.round}) + "\n")
    return EXIT_OK


def _simulate(args: argparse.Namespace) -> int:
    from engine import Rules, bots
    from engine.bots.arena import run_arena

    levels = tuple(x.strip() for x in args.bots.split(","))
    try:
        rules = Rules(preset=args.preset, target=args.target,
                      seats=args.seats or (len(levels) if len(levels) > 1 else None))
    except ValueError as exc:
        _err(str(exc))
        return EXIT_USAGE
    if len(levels) not in (1, rules.seats) or any(level not in bots.LEVELS for level in levels):
        count = "two" if rules.seats == 2 else str(rules.seats)
        _err(f"--bots takes {count} of {', '.join(bots.LEVELS)} (one per seat), "
             "comma-separated, or one for all")
        return EXIT_USAGE
    on_match = None
    if args.save:
        from .store import Seat

        store = _store(args)
        folder = Path(args.save).expanduser()

        def on_match(match, seat_levels) -> None:
            seats = tuple(Seat(f"{level.capitalize()} bot {s + 1}", f"bot:{level}")
                          for s, level in enumerate(seat_levels))
            with store.new_match(match, seats, durable=False, directory=folder):
                pass  # new_match writes the whole log and, the match being over, the footer

    result = run_arena(levels, args.matches, args.seed, jobs=args.jobs, rules=rules,
                       think_ms=args.think_ms, on_match=on_match)
    if args.json:
        out = result.to_dict()
        out["saved_to"] = str(Path(args.save).expanduser()) if args.save else None
        print(json.dumps(out))
    else:
        print(result.format())
        if args.save:
            print(f"saved to {Path(args.save).expanduser()}")
    return EXIT_OK


def _seat_label(seat) -> str:
    if seat.is_bot:
        return f"{seat.name} ({seat.level} bot)"
    return f"{seat.name} (human)"


def _result_line(m, names: Sequence[str]) -> str:
    totals = "–".join(map(str, m.scores))
    rounds = f"{m.round} round{'s' * (m.round != 1)}"
    if not m.over:
        who = names[m.to_act] if m.to_act is not None else "?"
        return f"Result: not finished — round {m.round}, {totals}, {who} to act."
    if m.winner is None:
        return f"Result: a draw at {totals} after {rounds}."
    return f"Result: {names[m.winner]} won, {totals}, after {rounds}."


def transcript_text(loaded) -> str:
    """A loaded match as text: header, then per round the draft, one numbered line per
    decision (its events as sentences, nothing hidden), the round's scores; the result."""
    from engine.events import describe
    from engine.replay import ReplayCursor

    header = loaded.header
    seats = loaded.seats
    names = tuple(s.name for s in seats)
    final = loaded.match
    created = header.created
    try:
        from datetime import datetime
        created = datetime.fromisoformat(created).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        pass
    classic = header.rules.preset == "classic"
    out = [("Classic UNO" if classic else "UNO Duo") + " — match transcript",
           f"Match {header.match_id}, started {created}",
           "Players: " + ", ".join(f"seat {i + 1} {_seat_label(s)}" for i, s in enumerate(seats)),
           f"Rules: {header.rules.describe()}",
           f"Seed: {header.seed}",
           _result_line(final, names), ""]
    from .store import parent_of
    parent = parent_of(header)
    if parent is not None:
        out.insert(-1, f"What if: a branch of match {parent[0]}, from after its "
                       f"action {parent[1]}")
    undos = getattr(loaded, "undos", 0)
    if undos:
        out.insert(-1, f"Practice: {undos} undo{'s' * (undos != 1)} (the lines below are "
                       "the moves that stand)")
    rejected: dict[int, list[str]] = {}

    def say(e) -> str:
        return describe(e, names, None)

    def section(events, m, number: int | None) -> None:
        line: list[str] = []

        def flush() -> None:
            nonlocal number
            if line:
                out.append((f"{number:>5}. " if number else "       ") + " ".join(line))
                line.clear()
                number = None  # what follows a round's end is not a new decision

        for e in events:
            k = e.kind
            if k == "reject":
                rejected.setdefault(e.seat, []).append(str(e.cards[0]))
            if k in ("round", "deal"):
                flush()
                rejected.clear()
                out.extend(["", f"== {say(e)}"])
            elif k == "dealt":
                continue  # the hands are listed at the start card
            elif k in ("under", "start", "round_end", "match_end", "cut", "first",
                       "dealer_draw", "dealer", "reshuffle"):
                flush()
                if k == "start" and classic and e.cards[0].rank != "W+4":
                    for s, name in enumerate(names):
                        out.append(f"       Dealt: {name} holds "
                                   + " ".join(str(c) for c in m.hand(s)))
                elif k == "start" and not classic:
                    for s, name in enumerate(names):
                        kept = " ".join(str(c) for c in m.hand(s))
                        rej = " ".join(rejected.get(s, ())) or "none"
                        out.append(f"       Draft: {name} kept {kept}; rejected {rej}")
                out.append(("       " if k not in ("cut", "first", "dealer_draw", "dealer")
                            else "") + say(e))
            else:
                line.append(say(e))
        flush()

    cursor = ReplayCursor(header.rules, final.actions, header.seed)
    for i in range(cursor.count + 1):
        section(cursor.events_of(i), cursor.goto(i), i or None)
    out.extend(["", _result_line(final, names)])
    return "\n".join(out) + "\n"


def _transcript(args: argparse.Namespace) -> int:
    loaded, error = _read_only(args)
    if loaded is None:
        _err(error)
        return EXIT_FAIL
    sys.stdout.write(transcript_text(loaded))
    return EXIT_OK


def _rules(args: argparse.Namespace) -> int:
    sys.stdout.write(rule_book())
    return EXIT_OK


_COMMANDS = {
    "menu": _interactive, "play": _interactive, "resume": _interactive, "list": _list,
    "verify": _verify, "export": _export, "simulate": _simulate, "rules": _rules,
    "transcript": _transcript, "replay": _interactive,
}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
