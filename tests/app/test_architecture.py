"""The layers keep to their rule: the use cases (ginrummy.app) know no HTTP, the engine knows nothing
but the standard library (tests/engine/test_purity.py), only the store talks to Redis
(tests/store/test_layering.py), and no module of the service imports another in a circle."""

from __future__ import annotations

import ast
from pathlib import Path

import ginrummy

PACKAGE = Path(ginrummy.__file__).parent
HTTP_MODULES = {"flask", "flask_smorest", "flask_cors", "werkzeug", "webargs", "apispec", "gunicorn"}


def imports_of(path: Path) -> set[str]:
    """The absolute module names ``path`` imports (relative imports resolved within ginrummy)."""
    package = ".".join(("ginrummy", *path.relative_to(PACKAGE).with_suffix("").parts))
    if path.name == "__init__.py":
        package = package.rsplit(".", 1)[0] + ".__init__"
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level)[0]
                module = f"{base}.{node.module}" if node.module else base
                if node.module is None:
                    names |= {f"{base}.{alias.name}" for alias in node.names}
                    continue
            else:
                module = node.module or ""
            names.add(module)
            names |= {f"{module}.{alias.name}" for alias in node.names}
    return names


def test_the_application_imports_no_http() -> None:
    app = sorted((PACKAGE / "app").glob("*.py"))
    assert len(app) > 10, "the scan found too few modules: the path is wrong"
    for path in app:
        names = imports_of(path)
        tops = {name.split(".")[0] for name in names}
        assert not tops & HTTP_MODULES, (
            f"app/{path.name} imports {tops & HTTP_MODULES}: the use cases know no HTTP"
        )
        assert not any(name.startswith("ginrummy.http") for name in names), (
            f"app/{path.name} imports the HTTP adapter"
        )
        assert "ApiError" not in path.read_text(), f"app/{path.name} speaks of ApiError"


def test_the_scan_sees_an_http_import() -> None:
    """The check above would pass vacuously if the scan could not see an import of flask at all."""
    assert "flask" in {name.split(".")[0] for name in imports_of(PACKAGE / "http" / "games.py")}


def test_no_module_of_the_service_is_in_an_import_circle() -> None:
    modules = {
        ".".join(("ginrummy", *p.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__"): p
        for p in PACKAGE.rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = set()
        for imported in imports_of(path):
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            # A package's __init__ re-exports its modules: an import of the package is not an edge back.
            if imported and imported != name and not name.startswith(imported + "."):
                graph[name].add(imported)
    circles = []
    state: dict[str, int] = {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if modules[nxt].name == "__init__.py":
                continue  # package facades (ginrummy.engine, …) import their modules by design
            if state.get(nxt) == 1:
                circles.append([*stack[stack.index(nxt) :], nxt] if nxt in stack else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*stack, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not circles, f"import circles: {circles}"


# The declarative request/response schemas and the meld solver are long by nature; anything else over
# this is a hub to split.
MAX_LINES = 600
LONG_BY_NATURE = {"http/schemas.py", "engine/melds.py"}


def test_no_module_of_the_service_is_a_hub() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name in LONG_BY_NATURE:
            continue
        lines = len(path.read_text().splitlines())
        assert lines <= MAX_LINES, f"{name} has {lines} lines: split it by job"


def test_no_function_of_the_application_is_radon_grade_d_or_worse() -> None:
    from radon.complexity import cc_rank, cc_visit

    for path in sorted((PACKAGE / "app").glob("*.py")):
        for block in cc_visit(path.read_text()):
            assert cc_rank(block.complexity) in "ABC", (
                f"app/{path.name}: {block.name} has cyclomatic complexity {block.complexity} "
                f"(grade {cc_rank(block.complexity)})"
            )
