"""The clients' generated files follow the OpenAPI document: clients/generate.py --check finds none stale,
each table names exactly the document's codes — the SDK a class for each, the terminal and the web client a
sentence for each —, and the SDK's models type exactly the components the service's answers hold."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import typing
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from gin_cli import main as cli_main
from gin_cli import words
from ginrummy_client import _models, models
from ginrummy_client.errors import ERRORS_BY_CODE, ERRORS_BY_STATUS, ApiError, error_from_problem

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "clients" / "generate.py"
DOCUMENT: dict[str, Any] = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
SCHEMAS: dict[str, Any] = DOCUMENT["components"]["schemas"]
CODES: dict[str, Any] = SCHEMAS["Problem"]["properties"]["code"]["x-codes"]


def generate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_no_generated_file_is_stale() -> None:
    done = generate("--check")
    assert done.returncode == 0, done.stderr + "run `make openapi`"


@pytest.fixture(scope="module")
def generator() -> ModuleType:
    """clients/generate.py as a module (it is a script, outside any package)."""
    spec = importlib.util.spec_from_file_location("generate", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_check_names_the_stale_files_and_writes_nothing(generator: ModuleType, tmp_path: Path) -> None:
    """A code more in the document makes every table stale (and --check leaves the files alone)."""
    document = json.loads(json.dumps(DOCUMENT))
    code = document["components"]["schemas"]["Problem"]["properties"]["code"]
    code["enum"].append("brand_new")
    code["x-codes"]["brand_new"] = {"status": 409, "title": "Brand new", "sentence": "It is new."}
    for path, render in generator.OUTPUTS.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(render(DOCUMENT), encoding="utf-8")
    assert generator.stale(DOCUMENT, tmp_path) == {}
    outdated = generator.stale(document, tmp_path)
    assert sorted(path.relative_to(tmp_path).as_posix() for path in outdated) == sorted(generator.OUTPUTS)
    texts = "".join(outdated.values())
    assert "class BrandNew(Conflict):" in texts and '"brand_new": "It is new."' in texts
    assert 'brand_new: "It is new."' in texts


def test_the_sdk_has_a_class_for_each_code_and_no_other() -> None:
    with_status = {code for code, described in CODES.items() if described["status"] is not None}
    assert set(ERRORS_BY_CODE) == with_status
    for code in sorted(with_status):
        status = CODES[code]["status"]
        error = error_from_problem(status, {"code": code, "status": status})
        assert type(error) is ERRORS_BY_CODE[code] and error.code == code
        assert isinstance(error, ERRORS_BY_STATUS.get(status, ApiError)), code


def test_the_sdk_keeps_its_classes_by_status(generator: ModuleType) -> None:
    assert {status: cls.__name__ for status, cls in ERRORS_BY_STATUS.items()} == generator.SDK_STATUS_CLASSES
    written = {code for cls in ERRORS_BY_STATUS.values() for code in cls.codes}
    assert written <= generator.SDK_WRITTEN


def test_the_terminal_and_the_web_client_have_a_sentence_for_each_code() -> None:
    assert {code: described["sentence"] for code, described in CODES.items()} == words.SENTENCES
    web = (ROOT / "clients" / "web" / "js" / "sentences.js").read_text(encoding="utf-8")
    assert sorted(line.split(":")[0].strip() for line in web.splitlines() if line.startswith("  ")) == sorted(
        CODES
    )


def test_the_clients_own_tables_name_codes_of_the_document() -> None:
    """What the clients add by code (the terminal's hints and its codes shown in their own words, the web
    client's codes shown with their reason) names no code the service does not have."""
    web = (ROOT / "clients" / "web" / "js" / "words.js").read_text(encoding="utf-8")
    with_reason = json.loads(web.split("const WITH_REASON = new Set(", 1)[1].split(");", 1)[0])
    for table in (set(cli_main.LOOK_UP), words.OWN_WORDS, set(with_reason)):
        assert table and table <= set(CODES), table - set(CODES)


def test_the_sdk_models_type_each_component_an_answer_holds(generator: ModuleType) -> None:
    """An object is a TypedDict with the document's members (those it does not require NotRequired), a
    discriminated union the union of its members, and a request's body no model at all."""
    answered = generator.answered(DOCUMENT)
    assert {"View", "Event", "DealEvent", "Moved", "Challenge", "AccountEvent", "Problem"} <= set(answered)
    for name in answered:
        schema, model = SCHEMAS[name], getattr(models, name)
        if "properties" in schema:
            required = set(schema.get("required", ()))
            assert model.__required_keys__ == required, name
            assert model.__optional_keys__ == set(schema["properties"]) - required, name
            typing.get_type_hints(model)  # every annotation resolves
        elif "discriminator" in schema:
            members = [getattr(models, one["$ref"].rsplit("/", 1)[-1]) for one in schema["oneOf"]]
            assert list(typing.get_args(model)) == members, name
    assert typing.get_args(typing.get_type_hints(models.DealEvent)["type"]) == ("deal",)
    assert not {"CreateGameIn", "SeekIn", "SignUpIn"} & set(_models.__all__)
    assert set(_models.__all__) == {*answered, *generator.SDK_MODEL_NAMES, "RulesInOptions"}


def test_the_sdk_keeps_its_names_of_components(generator: ModuleType) -> None:
    """Its names from before its models were generated name the components (MoveResult is Moved)."""
    assert models.MoveResult is models.Moved and models.SeatPlayer == models.Player
    for name, target in generator.SDK_MODEL_NAMES.items():
        named = [getattr(models, part) for part in target.split(" | ")]
        assert getattr(models, name) == (named[0] if len(named) == 1 else typing.Union[*named]), name


def test_a_new_member_of_an_answer_makes_the_models_stale(generator: ModuleType) -> None:
    document = json.loads(json.dumps(DOCUMENT))
    document["components"]["schemas"]["View"]["properties"]["brand_new"] = {
        "description": "It is new.",
        "enum": ["a", "b", None],
    }
    text = generator.sdk_models(document)
    assert text != generator.sdk_models(DOCUMENT)
    assert '    #: It is new.\n    brand_new: NotRequired[Literal["a", "b"] | None]\n' in text
