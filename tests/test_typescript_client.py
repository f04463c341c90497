"""A TypeScript client from the document alone: openapi-typescript writes the types of openapi/openapi.json,
and clients/typescript/check.ts — a third party's code reading every member of a view, of each game event
and of each account event — compiles under ``tsc --strict`` without a cast. No free-form object in the
document, no ``unknown`` in the generated schemas (tests/contract_figures.py prints both figures)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.contract_figures import (
    BIN,
    DOCUMENT,
    TYPESCRIPT,
    free_form_objects,
    generate_types,
    unknowns_in_schemas,
)

SPEC: dict[str, Any] = json.loads(DOCUMENT.read_text(encoding="utf-8"))
SCHEMAS: dict[str, Any] = SPEC["components"]["schemas"]
PROGRAM = (TYPESCRIPT / "check.ts").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def types(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("typescript")
    generate_types(folder / "api.d.ts")
    return folder


def compile_program(folder: Path, program: str) -> subprocess.CompletedProcess[str]:
    (folder / "check.ts").write_text(program, encoding="utf-8")
    flags = ["--strict", "--noEmit", "--noUnusedLocals", "--target", "es2020", "--module", "es2020"]
    return subprocess.run(
        [str(BIN / "tsc"), *flags, "--moduleResolution", "bundler", str(folder / "check.ts")],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_document_has_no_free_form_object() -> None:
    assert free_form_objects(SPEC) == []


def test_the_generated_schemas_say_unknown_nowhere(types: Path) -> None:
    assert unknowns_in_schemas((types / "api.d.ts").read_text(encoding="utf-8")) == []


def test_a_strict_program_reads_views_events_and_account_events_without_a_cast(types: Path) -> None:
    assert " as " not in re.sub(r"//.*", "", PROGRAM), "the program must not cast"
    compiled = compile_program(types, PROGRAM)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr


def test_the_compiler_does_refuse_a_wrong_read(types: Path) -> None:
    """The check can fail: a phase is not a number, a spectator's view may have no hand, and an event
    type the document does not have is no case of the union."""
    wrong = PROGRAM + (
        "\nexport const phase: number = ({} as View).phase;"
        "\nexport const hand = (view: View): string[] => view.hand.cards;"
        '\nexport const kind = (e: EventLine): boolean => e.type === "shuffle";\n'
    )
    compiled = compile_program(types, wrong)
    assert compiled.returncode != 0
    assert "TS2322" in compiled.stdout and "TS18048" in compiled.stdout and "TS2367" in compiled.stdout


def _members(name: str, seen: set[str]) -> set[str]:
    """Every member name of a component and of the components it uses (the program must read each)."""
    if name in seen:
        return set()
    seen.add(name)
    schema = SCHEMAS[name]
    found = set(schema.get("properties", {}))
    for ref in re.findall(r"#/components/schemas/(\w+)", json.dumps(schema)):
        if ref not in ("Action", "Rules", "RulesIn"):  # bodies of requests, and the options' table
            found |= _members(ref, seen)
    return found


@pytest.mark.parametrize("component", ["View", "EventLine", "AccountStreamLine"])
def test_the_program_reads_every_member(component: str) -> None:
    unread = {m for m in _members(component, set()) if not re.search(rf"\.{m}\b", PROGRAM)}
    assert unread == set(), f"check.ts does not read {sorted(unread)} of {component}"


def test_the_types_need_nothing_but_the_document() -> None:
    assert shutil.which("node"), "Node.js runs openapi-typescript and tsc (.ci/run installs it)"
    package = json.loads((TYPESCRIPT / "package.json").read_text(encoding="utf-8"))
    assert set(package["devDependencies"]) == {"openapi-typescript", "typescript"}
