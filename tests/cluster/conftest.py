"""One real PostgreSQL per test session (per xdist worker), a database per test."""

from __future__ import annotations

import pytest

from .servers import Postgres, missing


@pytest.fixture(scope="session")
def postgres():
    why = missing()
    if why:
        pytest.skip(why)
    server = Postgres().start()
    yield server
    server.stop()


@pytest.fixture
def pg_url(postgres):
    """A new, empty database of the session's server."""
    return postgres.new_db()
