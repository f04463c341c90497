"""What a package's files import, and what importing a package loads: for the tests that keep the SDK, the
programs built on it and the service apart."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path


def absolute_imports(path: Path) -> list[str]:
    """The modules the file at ``path`` imports by their absolute name (``from . import`` left out)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.append(node.module or "")
    return found


def loaded_by(module: str, packages: tuple[str, ...]) -> list[str]:
    """The modules of ``packages`` that a fresh interpreter has loaded once it has imported ``module``."""
    program = (
        f"import json, sys, {module}\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {packages!r})))"
    )
    loaded = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    names: list[str] = json.loads(loaded.stdout)
    return names
