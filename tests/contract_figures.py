"""The contract's figures: free-form objects in the OpenAPI document, and ``unknown`` in the TypeScript
types openapi-typescript writes from it (issue 31). Both are 0; tests/test_typescript_client.py holds
them there. Run it to print them (it generates the types with clients/typescript's openapi-typescript):

    .venv/bin/python -m tests.contract_figures
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOCUMENT = ROOT / "openapi" / "openapi.json"
TYPESCRIPT = ROOT / "clients" / "typescript"
BIN = TYPESCRIPT / "node_modules" / ".bin"


def free_form_objects(document: dict[str, Any]) -> list[str]:
    """Where the document has an object whose members it does not say: no properties and no typed
    additionalProperties, or additionalProperties allowing anything."""
    found: list[str] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            extra = node.get("additionalProperties")
            if (
                node.get("type") == "object"
                and not node.get("properties")
                and not isinstance(extra, dict)
                or extra is True
                or extra == {}
            ):
                found.append(where)
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{where}/{index}")

    walk(document, "#")
    return found


def generate_types(out: Path) -> None:
    """clients/typescript's openapi-typescript on the document, writing `out`."""
    if not (BIN / "openapi-typescript").exists():
        raise SystemExit(
            "clients/typescript has no node_modules: run `make test` (or npm ci in clients/typescript)"
        )
    subprocess.run(
        [str(BIN / "openapi-typescript"), str(DOCUMENT), "-o", str(out)],
        check=True,
        capture_output=True,
        text=True,
    )


def unknowns_in_schemas(types: str) -> list[str]:
    """The lines of the generated ``components.schemas`` that say ``unknown`` (comments aside)."""
    start = types.index("export interface components {")
    end = types.index("\n    responses:", start) if "\n    responses:" in types[start:] else len(types)
    lines = types[start:end].splitlines()
    code = [line for line in lines if not line.strip().startswith(("*", "/**", "//"))]
    return [line.strip() for line in code if re.search(r"\bunknown\b", line)]


def main() -> None:
    document = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    free = free_form_objects(document)
    print(f"schemas in the document: {len(document['components']['schemas'])}")
    print(f"free-form objects: {len(free)}")
    for where in free:
        print(f"  {where}")
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "api.d.ts"
        generate_types(out)
        unknown = unknowns_in_schemas(out.read_text(encoding="utf-8"))
    print(
        f"`unknown` in the generated TypeScript schemas (views, events, challenges, accounts, …): {len(unknown)}"
    )
    for line in unknown:
        print(f"  {line}")
    sys.exit(0)


if __name__ == "__main__":
    main()
