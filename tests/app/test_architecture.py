"""The layers keep to their rule: the use cases (ginrummy.app) know no HTTP, the engine knows nothing
but the standard library (tests/engine/test_purity.py), only the store talks to Redis
(tests/store/test_layering.py), and no module of the service imports another in a circle. Inside the
application, the contexts depend one way and export their use cases (ginrummy.app's docstring)."""

from __future__ import annotations

import ast
import importlib
import typing
from pathlib import Path

import ginrummy
import ginrummy.app

PACKAGE = Path(ginrummy.__file__).parent
APP = PACKAGE / "app"
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
    app = sorted(APP.rglob("*.py"))
    assert len(app) > 10, "the scan found too few modules: the path is wrong"
    for path in app:
        name = path.relative_to(PACKAGE).as_posix()
        names = imports_of(path)
        tops = {name.split(".")[0] for name in names}
        assert not tops & HTTP_MODULES, f"{name} imports {tops & HTTP_MODULES}: the use cases know no HTTP"
        assert not any(name.startswith("ginrummy.http") for name in names), f"{name} imports the HTTP adapter"
        assert "ApiError" not in path.read_text(), f"{name} speaks of ApiError"


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

    for path in sorted(APP.rglob("*.py")):
        for block in cc_visit(path.read_text()):
            assert cc_rank(block.complexity) in "ABC", (
                f"{path.relative_to(PACKAGE)}: {block.name} has cyclomatic complexity {block.complexity} "
                f"(grade {cc_rank(block.complexity)})"
            )


# The contexts of the application, in the one order their dependencies follow: each imports only those
# before it. The root's modules and the shapes import none (the root's __init__ wires them all).
CONTEXTS = ("players", "archive", "playing", "meeting", "accounts", "tournaments")
ROOT = {"__init__", "calls", "clocks", "config", "encoding", "errors", "metrics", "security"}
SHARED = "shapes"


def app_modules() -> dict[str, Path]:
    """Every module of the application by its dotted name under ``ginrummy.app`` (``playing.moves``)."""
    return {".".join(p.relative_to(APP).with_suffix("").parts): p for p in sorted(APP.rglob("*.py"))}


def contexts_imported(path: Path) -> set[str]:
    """The first parts under ``ginrummy.app`` of what ``path`` imports (``playing``, ``config``, …)."""
    return {
        name.removeprefix("ginrummy.app.").split(".")[0]
        for name in imports_of(path)
        if name.startswith("ginrummy.app.")
    }


def test_every_module_of_the_application_has_a_place() -> None:
    """A module is one of the root's, a shape, or in a context: a new folder or root module is a decision,
    written in the lists above and in ginrummy.app's docstring."""
    for name in app_modules():
        first = name.split(".")[0]
        assert (name in ROOT) or first in CONTEXTS or first == SHARED, (
            f"app/{name.replace('.', '/')}.py is in no context (CONTEXTS, ROOT in this test)"
        )
    for context in (*CONTEXTS, SHARED):
        assert (APP / context / "__init__.py").is_file(), f"app/{context}/ is not a package"


def test_the_contexts_depend_one_way() -> None:
    modules = app_modules()
    assert len(modules) > 30, "the scan found too few modules: the path is wrong"
    for name, path in modules.items():
        first = name.split(".")[0]
        if name == "__init__":
            continue  # the composition root: build() wires every context
        # The root's modules and the shapes are shared by all: they depend on no context.
        allowed = set(CONTEXTS[: CONTEXTS.index(first) + 1]) if first in CONTEXTS else set()
        wrong = (contexts_imported(path) & set(CONTEXTS)) - allowed
        assert not wrong, (
            f"app/{name.replace('.', '/')}.py imports {sorted(wrong)}: contexts depend one way, {' <- '.join(CONTEXTS)}"
        )


def test_the_scan_sees_the_imports_between_contexts() -> None:
    """The check above would pass vacuously if it could not see a context importing another."""
    assert "players" in contexts_imported(APP / "playing" / "seats.py")
    assert "archive" in contexts_imported(APP / "playing" / "unit_of_work.py")
    assert "playing" in contexts_imported(APP / "meeting" / "seeks.py")


def test_each_context_exports_its_use_cases_and_nothing_else() -> None:
    """A context's __init__ exports the use-case classes that build() wires into Services (and the
    Drainer, which the processes start); the other modules of the context are its helpers."""
    started = {"Drainer"}  # not in Services: the HTTP adapter and the bot workers start one each
    wired = {
        hint.__name__
        for hint in typing.get_type_hints(ginrummy.app.Services).values()
        if hint.__module__.startswith("ginrummy.app.") and hint.__module__.split(".")[2] in CONTEXTS
    }
    assert len(wired) > 10, "the scan found too few use cases: Services is not read"
    exported = set()
    for context in CONTEXTS:
        package = importlib.import_module(f"ginrummy.app.{context}")
        names = set(package.__all__)
        for name in names:
            assert getattr(package, name).__module__.startswith(f"ginrummy.app.{context}."), (
                f"ginrummy.app.{context} exports {name}, which is not its own"
            )
        exported |= names
    assert wired <= exported, f"use cases no context exports: {sorted(wired - exported)}"
    assert exported <= wired | started, f"exported but wired nowhere: {sorted(exported - wired - started)}"


def test_inside_the_application_no_module_imports_a_context_through_its_init() -> None:
    """Modules import one another by their own names: a context's __init__ is for build() and the
    adapter, so that importing one helper never loads a whole context in a circle."""
    modules = app_modules()
    for name, path in modules.items():
        if name == "__init__":
            continue
        for imported in imports_of(path):
            first, _, rest = imported.removeprefix("ginrummy.app.").partition(".")
            if imported.startswith("ginrummy.app.") and first in (*CONTEXTS, SHARED) and "." not in rest:
                assert not rest or f"{first}.{rest}" in modules, (
                    f"app/{name.replace('.', '/')}.py imports {rest} from ginrummy.app.{first}'s __init__"
                )
