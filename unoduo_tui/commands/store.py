"""``unoduo store copy FROM TO`` (#27): move saved matches between the files of a data
dir (or a serve dir: every player's folder) and a PostgreSQL database, both ways;
``unoduo store migrate URL``: bring a database's schema up to date.

A copy is verified: each match is decoded and replayed before it is written, and read
back from where it went and compared byte for byte.  A match already there with the
same bytes is skipped; one there with other bytes is left alone and named (exit
status 1).  Nothing is removed from FROM."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Iterator

from .common import EXIT_FAIL, EXIT_OK, Subparsers, UsageError, clip, err

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    store = sub.add_parser(
        "store", parents=[common], help="copy saved matches between files and PostgreSQL",
        description="Copy saved matches between a data dir (or a serve dir, with its "
                    "players' folders) and a PostgreSQL database (postgresql://…), either "
                    "way, every match verified; or bring a database's schema up to date.")
    what = store.add_subparsers(dest="action", metavar="ACTION", required=True)
    copy = what.add_parser("copy", help="copy every saved match from FROM to TO")
    copy.add_argument("source", metavar="FROM", help="a data or serve dir, or postgresql://…")
    copy.add_argument("target", metavar="TO", help="a data or serve dir, or postgresql://…")
    copy.set_defaults(run=run)
    migrate = what.add_parser("migrate", help="apply the database's schema migrations")
    migrate.add_argument("source", metavar="URL")
    migrate.set_defaults(run=run, target=None)


def _from_files(root: Path) -> Iterator[tuple[str, str, str, Path]]:
    """(match id, owner, owner's name, file) of every save under ``root``: its own
    matches (the operator's, owner ``''``) and each serve player's."""
    from ..record.identity import owner_of
    from ..savehandle import SUFFIX, id_of

    for path in sorted((root / "matches").glob("*" + SUFFIX)):
        yield id_of(path), "", "", path
    players = root / "players"
    if players.is_dir():
        for folder in sorted(p for p in players.iterdir() if p.is_dir()):
            owner = owner_of(folder)
            if owner.fingerprint is None:
                continue
            for path in sorted((folder / "matches").glob("*" + SUFFIX)):
                yield id_of(path), owner.fingerprint, owner.name or "", path


def run(args: argparse.Namespace) -> int:
    from ..storage import describe, is_database

    if args.action == "migrate":
        if not is_database(args.source):
            raise UsageError("migrate takes a postgresql:// URL")
        done = _migrate(args.source)
        print(f"{describe(args.source)}: schema up to date"
              + (f" (applied {', '.join(map(str, done))})" if done else ""))
        return EXIT_OK
    source, target = args.source, args.target
    if is_database(source) == is_database(target):
        raise UsageError("copy goes from files to a database or back: one of FROM and TO is "
                         "a postgresql:// URL, the other a folder")
    if not is_database(source) and not Path(source).expanduser().is_dir():
        raise UsageError(f"{clip(source, 100)} is not a folder")
    return _copy(source, target)


def _database(url: str):
    from ..store import SaveFileError
    from ..storage.pg import database

    try:
        return database(url)
    except (SaveFileError, OSError) as exc:
        raise UsageError(f"cannot use the store: {clip(exc)}") from None


def _migrate(url: str) -> list[int]:
    """The migrations applied now (a :func:`~..storage.pg.database` would have applied
    them already, unsaid)."""
    import psycopg

    from ..storage.pg import Database

    try:
        psycopg.connect(url, connect_timeout=3).close()  # what is wrong, said plainly
        db = Database(url)
        try:
            return db.migrate()
        finally:
            db.close()
    except Exception as exc:  # noqa: BLE001 - psycopg's, the pool's: one line
        raise UsageError(f"cannot use the store: {clip(exc)}") from None


def _copy(source: str, target: str) -> int:
    from engine.savefile import load

    from ..files import private_dir, put_new, read_regular
    from ..savehandle import SUFFIX
    from ..ssh.identity import IDENTITY_FILE
    from ..storage import describe, folder_for, is_database
    from ..storage.pg import PgStore
    from ..store import SaveFileError

    copied = 0
    problems: list[str] = []
    if is_database(target):
        db = _database(target)
        pg = PgStore(target, Path("/"), owner=None)
        for match_id, owner, name, path in _from_files(Path(source).expanduser()):
            try:
                data = read_regular(path)
                load(data, str(path))
                if owner and name:
                    db_name(db, owner, name)
                try:
                    pg.put(data, owner, match_id)
                except FileExistsError:
                    pass
                if pg.image(match_id)[1] != data:
                    raise SaveFileError(f"{match_id}: in the database already, with other "
                                        "moves: left alone")
                copied += 1
            except (SaveFileError, OSError) as exc:
                problems.append(f"{path}: {exc}")
        where = describe(target)
    else:
        root = Path(target).expanduser()
        pg = PgStore(source, root, owner=None)
        for match_id, owner, name in list(pg.owners()):
            try:
                _, data = pg.image(match_id)
                load(data, match_id)
                folder = folder_for(root, owner)
                private_dir(folder / "matches")
                if owner and not (folder / IDENTITY_FILE).exists():
                    import json

                    put_new(folder / IDENTITY_FILE, (json.dumps(
                        {"fingerprint": owner, "name": name or "Player"}) + "\n").encode())
                path = folder / "matches" / (match_id + SUFFIX)
                try:
                    put_new(path, data)
                except FileExistsError:
                    pass  # compared below
                if read_regular(path) != data:
                    raise SaveFileError(f"{path}: there already, with other moves: left alone")
                copied += 1
            except (SaveFileError, OSError) as exc:
                problems.append(f"{match_id}: {exc}")
        where = str(root)
    for line in problems:
        err(line)
    print(f"{copied} matches in {clip(where, 100)}, each verified"
          + (f"; {len(problems)} not copied (above)" if problems else ""))
    return EXIT_FAIL if problems else EXIT_OK


def db_name(db, owner: str, name: str) -> None:
    """A copied player's name, unless the database knows them already."""
    with db.pool.connection() as conn:
        conn.execute("INSERT INTO identities (fingerprint, name) VALUES (%s, %s) "
                     "ON CONFLICT (fingerprint) DO NOTHING", (owner, name))
