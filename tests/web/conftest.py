"""The web tests' games deal from the run's seed, not from a fresh secret one, so that a game that fails
a test plays again with ``--test-seed`` (a reshuffle or a rare ending is otherwise never seen twice); and
the games databases the server is tested on: an SQLite file, and PostgreSQL on a server of the run's own."""
from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import tempfile
import uuid
import zlib
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from ginsim.web import game


@pytest.fixture(autouse=True)
def seeded_deals(request: pytest.FixtureRequest, test_seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's games take their seeds, in order, from a stream of the run's seed and the test's id."""
    stream = random.Random(test_seed * 2**32 + zlib.crc32(request.node.nodeid.encode()))
    monkeypatch.setattr(game, "secrets", SimpleNamespace(randbits=stream.getrandbits))


def _postgres_programs() -> Path | None:
    """The folder of Debian's PostgreSQL server programs (the newest version installed), if any."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda path: int(path.parts[-3]))
    return found[-1].parent if found else None


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server of this test run alone, on a free port of 127.0.0.1 (trust authentication, a
    folder of its own removed at the end): its address. ``.ci/run`` installs Debian's postgresql package."""
    programs = _postgres_programs()
    if programs is None:
        if os.environ.get("CI"):
            pytest.fail("no PostgreSQL server programs on this machine: .ci/run installs Debian's postgresql")
        pytest.skip("no PostgreSQL server on this machine (apt-get install postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="ginsim-postgres-"))
    as_owner: list[str] = []
    if os.geteuid() == 0:  # the server refuses to run as root: it runs as the package's postgres user
        shutil.chown(folder, "postgres")
        as_owner = ["runuser", "-u", "postgres", "--"]
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data = folder / "data"
    subprocess.run([*as_owner, str(programs / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
                    "--no-sync"], check=True, capture_output=True)
    started = subprocess.run([*as_owner, str(programs / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w",
                              "-o", f"-p {port} -h 127.0.0.1 -k {folder} -c fsync=off", "start"], capture_output=True)
    assert started.returncode == 0, (folder / "log").read_text() if (folder / "log").exists() else started.stderr
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_owner, str(programs / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new, empty games database of each kind: an SQLite file, and a database of its own on the test run's
    PostgreSQL server."""
    if request.param == "sqlite":
        yield str(tmp_path / "games.sqlite3")
        return
    psycopg = pytest.importorskip("psycopg")
    server = request.getfixturevalue("postgres_server")
    name = f"games_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield server.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
