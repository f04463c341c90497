"""The SDK's modules stand apart: every request goes through the one Requestor, no module reaches into
another's private names, the imports that run (not those for type checking) form no circle, and each part
of the API is a resource client of the Client."""

from __future__ import annotations

import ast
from pathlib import Path

import ginrummy_client
from ginrummy_client import Client
from ginrummy_client.resource import Resource

PACKAGE = Path(ginrummy_client.__file__).parent


def parsed(name: str) -> ast.Module:
    path = PACKAGE / f"{name}.py"
    return ast.parse(path.read_text(), filename=str(path))


def modules() -> list[str]:
    return sorted(path.stem for path in PACKAGE.glob("*.py"))


def test_no_module_uses_a_private_name_but_its_own() -> None:
    for name in modules():
        for node in ast.walk(parsed(name)):
            if isinstance(node, ast.Attribute):
                private = node.attr.startswith("_") and not node.attr.startswith("__")
                own = isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"}
                assert own or not private, f"{name}.py line {node.lineno} uses .{node.attr} of another object"
            elif isinstance(node, ast.ImportFrom) and node.level == 1:
                for alias in node.names:
                    assert not alias.name.startswith("_") or node.module == "_version", (
                        f"{name}.py imports {alias.name} from .{node.module}"
                    )


def runtime_imports(name: str) -> set[str]:
    """The package's modules that ``name`` imports when it runs (``if TYPE_CHECKING:`` blocks left out)."""
    found: set[str] = set()
    for node in parsed(name).body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            found.add(node.module)
    return found


def test_the_imports_that_run_form_no_circle() -> None:
    graph = {name: runtime_imports(name) for name in modules()}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, "an import circle: " + " -> ".join((*path, name))
        if name in done:
            return
        for imported in graph.get(name, set()):
            visit(imported, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())
    assert graph["events"] <= {"errors", "models", "transport"}  # a feed needs no Game
    # The resource clients get their Client when it makes them: none imports it (but to type it).
    assert [name for name, imported in graph.items() if "client" in imported] == ["__init__"]


def test_only_the_requestor_sends() -> None:
    """``session.request`` is called in one place: :meth:`Requestor.request`."""
    callers = []
    for name in modules():
        for node in ast.walk(parsed(name)):
            if isinstance(node, ast.FunctionDef):
                for inner in ast.walk(node):
                    if (
                        isinstance(inner, ast.Attribute)
                        and inner.attr in {"request", "get", "post", "delete"}
                        and isinstance(inner.value, ast.Attribute)
                        and inner.value.attr == "session"
                    ):
                        callers.append(f"{name}.{node.name}")
    assert callers == ["transport.request"]


def test_each_part_of_the_api_is_a_resource_client_sharing_the_clients_requestor() -> None:
    client = Client("http://127.0.0.1:9", token="gin_p_secret")
    parts = {name: value for name, value in vars(client).items() if isinstance(value, Resource)}
    assert sorted(parts) == [
        "account", "archive", "challenges", "games", "lobby", "players", "reviews", "service",
        "tournaments",
    ]  # fmt: skip
    for part in parts.values():
        assert part.requestor is client.requestor and part.token == "gin_p_secret"
    client.token = None  # signed out: every part acts without a token from now on
    assert all(part.token is None for part in parts.values())
