"""An embedded PostgreSQL for local runs and tests: initialise it, start it, wait for it, stop it, never
orphan it.

:class:`EmbeddedPostgres` runs the real PostgreSQL 16 binaries (``initdb``, ``postgres``) shipped inside
the ``pgserver`` wheel — not pgserver's Python wrapper, which keeps a server running for as long as any
process of the machine holds a handle on it and, as root, adds a system user and opens up the permissions
of every parent directory. Here one object owns one server process, like
:class:`~ginrummy.store.embedded.EmbeddedRedis`: it listens on loopback TCP only (no Unix socket), trusts
loopback connections (a development server, like the embedded Redis without a password), keeps its data
in ``data_dir`` (``initdb`` on first use, the same cluster on every later start), and gets a fast shutdown
(SIGINT) when its parent dies.

PostgreSQL refuses to run as root. As root, the binaries run in a user namespace of their own
(``unshare --user``) where root is mapped to ``nobody``: the files stay root's on disk, nothing outside
the data directory changes, and no user is created. ``ginrummy-serve`` uses this class when
``DATABASE_URL`` is unset; the test suite uses it for its servers.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

import psycopg

from .database import create_database
from .embedded import EmbeddedServer, die_with_parent, free_port

SUPERUSER = "postgres"
DATABASE = "ginrummy"
NOBODY = 65534  # the uid and gid root is mapped to when the server runs as root (in a user namespace)
LOG_NAME = "postgresql.log"
# Settings of a throw-away server (durable=False): faster, and a crash of the machine may lose its data.
NOT_DURABLE = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


def postgres_binary(name: str = "postgres") -> Path:
    """The path of ``postgres`` (or ``initdb``, ``pg_dump``, …) shipped inside the installed pgserver
    wheel. The package itself is not imported: only its files are used."""
    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the pgserver package is not installed; `pip install pgserver` ships PostgreSQL")
    path = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin" / name
    if not path.is_file():
        raise RuntimeError(f"{name} not found in the pgserver package at {path}")
    return path


def _as_non_root(command: list[str]) -> list[str]:
    """``command`` as it must be run by this process: unchanged, or inside a user namespace as root."""
    if os.geteuid() != 0:
        return command
    unshare = shutil.which("unshare")
    if unshare is None:
        raise RuntimeError(
            "PostgreSQL does not run as root, and `unshare` (util-linux) is missing to run it as nobody; "
            "run as another user, or set DATABASE_URL"
        )
    return [unshare, "--user", f"--map-user={NOBODY}", f"--map-group={NOBODY}", *command]


class EmbeddedPostgres(EmbeddedServer):  # kill(): its backends notice the postmaster is gone
    """A real PostgreSQL server process on loopback, with its cluster in ``data_dir``.

    Use it as a context manager or call ``start()``/``stop()``::

        with EmbeddedPostgres("./data/postgres") as server:
            database = Database(server.url)

    ``port=None`` picks a free port. ``database`` is created at start when missing; ``url`` names it.
    ``settings`` are extra server settings. ``durable=False`` is for throw-away servers (tests): nothing is
    synced to disk (``initdb --no-sync``, ``fsync``, ``synchronous_commit`` and ``full_page_writes`` off),
    so a crash of the machine may lose or corrupt its data, and it starts and writes faster.
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str] = "./data/postgres",
        *,
        port: int | None = None,
        host: str = "127.0.0.1",
        database: str = DATABASE,
        settings: Mapping[str, str] | None = None,
        durable: bool = True,
        start_timeout: float = 30.0,
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.host = host
        self.requested_port = port
        self.port: int = port or 0
        self.database = database
        self.durable = durable
        self.settings = dict(settings or {})
        if not durable:
            self.settings = {**NOT_DURABLE, **self.settings}
        self.start_timeout = start_timeout
        self.process: subprocess.Popen[bytes] | None = None

    # -- public ---------------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """``postgresql://postgres@host:port/<database>`` of the running server."""
        return self.url_of(self.database)

    def url_of(self, database: str) -> str:
        """The URL of another database of this server (``postgres`` is always there)."""
        return f"postgresql://{SUPERUSER}@{self.host}:{self.port}/{database}"

    @property
    def log_path(self) -> Path:
        return self.data_dir / LOG_NAME

    @property
    def initialised(self) -> bool:
        """Whether ``data_dir`` holds a database cluster already."""
        return (self.data_dir / "PG_VERSION").is_file()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def init(self) -> EmbeddedPostgres:
        """Make the database cluster in ``data_dir`` (``initdb``) unless there is one already."""
        if self.initialised:
            return self
        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        if self.data_dir.exists() and any(self.data_dir.iterdir()):
            raise RuntimeError(f"{self.data_dir} is neither empty nor a PostgreSQL data directory")
        command = [
            str(postgres_binary("initdb")),
            "--pgdata", str(self.data_dir),
            "--username", SUPERUSER,
            # Loopback only (see _server_command); the development server trusts its own machine.
            "--auth", "trust",
            # Text compares by bytes whatever the machine's locale; names are compared case-folded by
            # the store itself (the players table keeps the folded name).
            "--encoding", "UTF8", "--locale", "C",
            "--no-instructions",
        ]  # fmt: skip
        if not self.durable:
            command.append("--no-sync")
        result = subprocess.run(_as_non_root(command), capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            output = " | ".join((result.stdout + result.stderr).strip().splitlines()[-8:])
            raise RuntimeError(f"initdb failed ({result.returncode}): {output}")
        return self

    def start(self) -> EmbeddedPostgres:
        """Initialise if needed, start the server, wait until it answers, create ``database`` if missing.

        Raises RuntimeError, with the end of the server's log, when it cannot."""
        if self.running:
            return self
        self.init()
        attempts = 1 if self.requested_port else 5
        for attempt in range(attempts):
            self.port = self.requested_port or free_port(self.host)
            try:
                self._spawn()
                break
            except _PortTaken:
                if attempt == attempts - 1:
                    raise RuntimeError(f"PostgreSQL could not bind a port: {self._log_tail()}") from None
        try:
            self._create_database()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self, timeout: float = 15.0) -> None:
        """Stop the server: a fast shutdown (SIGINT: sessions are ended, a checkpoint is written), an
        immediate one (SIGQUIT) if that hangs, SIGKILL as the last resort."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        for signum, wait in ((signal.SIGINT, timeout), (signal.SIGQUIT, 5.0), (signal.SIGKILL, 5.0)):
            process.send_signal(signum)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(wait)
                return

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"<EmbeddedPostgres {self.host}:{self.port} {state} dir={self.data_dir}>"

    # -- internals ------------------------------------------------------------------------------------

    def _server_command(self) -> list[str]:
        settings = {
            "listen_addresses": self.host,
            "port": str(self.port),
            # No Unix socket: its directory would have to exist and be writable, and a long data
            # directory path can exceed the 107 bytes a socket's path may have.
            "unix_socket_directories": "",
            **self.settings,
        }
        command = [str(postgres_binary("postgres")), "-D", str(self.data_dir)]
        for name, value in settings.items():
            command += ["-c", f"{name}={value}"]
        return _as_non_root(command)

    def _spawn(self) -> None:
        self._log_offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                self._server_command(),
                cwd=self.data_dir,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                # Own session: a Ctrl+C in the terminal must not reach PostgreSQL before the service has
                # drained. SIGINT is PostgreSQL's fast shutdown (SIGTERM would wait for every session).
                start_new_session=True,
                preexec_fn=die_with_parent(signal.SIGINT),
            )
        deadline = time.monotonic() + self.start_timeout
        while True:
            if self.process.poll() is not None:
                tail = self._log_tail()
                self.process = None
                if "could not bind" in tail and not self.requested_port:
                    raise _PortTaken()
                if 'lock file "postmaster.pid" already exists' in tail:
                    raise RuntimeError(
                        f"another PostgreSQL is already using {self.data_dir}; stop it, or give this one "
                        "its own data directory (ginrummy-serve --data-dir, GIN_DATA_DIR)"
                    )
                raise RuntimeError(f"PostgreSQL exited at start-up: {tail}")
            if self._answers():
                return
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"PostgreSQL did not answer in {self.start_timeout}s: {self._log_tail()}")
            time.sleep(0.02)

    def _answers(self) -> bool:
        """Whether our server (not another one on the port) accepts connections."""
        try:
            with psycopg.connect(self.url_of("postgres"), connect_timeout=2, autocommit=True) as conn:
                row = conn.execute("SELECT current_setting('data_directory')").fetchone()
        except psycopg.OperationalError:
            return False  # not listening yet, or still starting up ("the database system is starting up")
        return row is not None and Path(row[0]) == self.data_dir

    def _create_database(self) -> None:
        create_database(self.url, exist_ok=True)

    def _log_tail(self, lines: int = 8) -> str:
        try:
            with self.log_path.open("rb") as fh:
                fh.seek(getattr(self, "_log_offset", 0))
                text = fh.read().decode("utf-8", "replace")
        except OSError:
            return "(no log)"
        return " | ".join(text.strip().splitlines()[-lines:]) or "(empty log)"


class _PortTaken(Exception):
    """PostgreSQL lost the race for the free port it was given."""
