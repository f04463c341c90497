"""The OpenAPI document's response schemas, written from the TypedDicts that type what the service sends.

Every body the service sends is typed once, as a ``TypedDict`` beside the code that builds it
(:mod:`ginrummy.engine.shapes` for the engine's JSON, :mod:`ginrummy.app.shapes` for the use cases'),
and mypy checks each builder against it. This module turns those types into JSON Schema components, so
the document cannot say anything else: a member added to a TypedDict is in the document at the next
``make openapi``, and the suite validates every response against the document (:mod:`.conformance`).

How a type is written:

- ``int``, ``float``, ``str``, ``bool``, ``None``; ``list[T]`` and ``tuple[T, ...]``; ``dict[str, T]``
  (an object keyed by data, e.g. ratings by rules family, its values typed);
- ``Literal["a", "b"]``: an enum; ``X | None``: nullable;
- a ``TypedDict``: a component of its class name, ``additionalProperties: false``, its required members
  (``total`` and ``Required``/``NotRequired``) required, its docstring the description;
- a union of TypedDicts that each have a ``type: Literal[...]``: a ``oneOf`` discriminated on ``type``;
- ``Annotated[A | B, Component("Name")]``: the component ``Name`` (a union written once, referred to);
- ``Annotated[T, "text"]``: a description; ``Annotated[T, Schema(...)]``: more JSON Schema (a pattern…);
  ``Annotated[T, Ref("Name")]``: the component ``Name`` defined elsewhere (the request schemas' Action).

>>> from ginrummy.engine.shapes import Knock
>>> components: dict = {}
>>> schema_of(Knock, components)
{'$ref': '#/components/schemas/Knock'}
>>> components["Knock"]["required"][:3], components["Knock"]["properties"]["discard"]["anyOf"][1]
(['knocker', 'melds', 'deadwood_cards'], {'type': 'null'})
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

from ginrummy.engine.shapes import Component, Ref, Schema

REF = "#/components/schemas/"


def ref(typed: Any) -> dict[str, Any]:
    """The reference to the component of `typed` (a TypedDict, or a union named by ``Component``), for
    ``@blp.response`` or a stream's line; :func:`register` writes the component (and the ones it refers to)
    into the document."""
    _WANTED.append(typed)
    if get_origin(typed) is typing.Annotated:
        names = [m.name for m in get_args(typed)[1:] if isinstance(m, Component)]
        if names:
            return {"$ref": REF + names[0]}
    if not is_typeddict(typed):
        raise TypeError(f"{typed!r} is no component: a TypedDict, or a union named by Component")
    return {"$ref": REF + typed.__name__}


_WANTED: list[Any] = []
_OWNERS: dict[str, Any] = {}  # a component's name → its type: two types of one name would be one schema


def register(spec: Any, *more: Any) -> None:
    """Every component :func:`ref` was asked for (and `more`), with the ones they use, in `spec`
    (an apispec ``APISpec``)."""
    components: dict[str, Any] = {}
    for typed in (*_WANTED, *more):
        schema_of(typed, components)
    for name in sorted(components):
        spec.components.schema(name, components[name])


def schema_of(tp: Any, components: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of the type `tp`; TypedDicts go into `components` and are referred to."""
    description: str | None = None
    extra: dict[str, Any] = {}
    if get_origin(tp) is typing.Annotated:
        tp, *metadata = get_args(tp)
        for item in metadata:
            if isinstance(item, Component):
                rest = tuple(m for m in metadata if m is not item)
                return _named(item.name, typing.Annotated[(tp, *rest)] if rest else tp, components)
            if isinstance(item, Ref):
                return _described({"$ref": REF + item.name}, metadata)
            if isinstance(item, str):
                description = item
            elif isinstance(item, Schema):
                extra.update(item.keywords)
    schema = {**_bare(tp, components), **extra}
    return {**schema, "description": description} if description else schema


def _named(name: str, tp: Any, components: dict[str, Any]) -> dict[str, Any]:
    if name not in components:
        components[name] = {}
        components[name] = schema_of(tp, components)
    if _OWNERS.setdefault(name, tp) != tp:
        raise TypeError(f"two types are named {name}")
    return {"$ref": REF + name}


def _described(schema: dict[str, Any], metadata: list[Any]) -> dict[str, Any]:
    texts = [m for m in metadata if isinstance(m, str)]
    return {**schema, "description": texts[0]} if texts else schema


def _bare(tp: Any, components: dict[str, Any]) -> dict[str, Any]:
    if tp is Any or tp is object:
        raise TypeError("a response member must be typed: Any says nothing to a client")
    if tp is None or tp is type(None):
        return {"type": "null"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if is_typeddict(tp):
        return _component(tp, components)
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        kinds = {type(a) for a in args}
        json_type = {str: "string", int: "integer", bool: "boolean"}[kinds.pop()] if len(kinds) == 1 else None
        return {"type": json_type, "enum": list(args)} if json_type else {"enum": list(args)}
    if origin in (list, tuple) and (origin is list or (len(args) == 2 and args[1] is Ellipsis)):
        return {"type": "array", "items": schema_of(args[0], components)}
    if origin is tuple:
        items = [schema_of(a, components) for a in args]
        return {"type": "array", "prefixItems": items, "minItems": len(items), "maxItems": len(items)}
    if origin is dict:
        if args[0] is not str:
            raise TypeError(f"JSON object keys are strings, not {args[0]}")
        return {"type": "object", "additionalProperties": schema_of(args[1], components)}
    if origin in (Union, types.UnionType):
        return _union(args, components)
    raise TypeError(f"no JSON Schema for {tp!r}")


def _union(args: tuple[Any, ...], components: dict[str, Any]) -> dict[str, Any]:
    members = [a for a in args if a is not type(None)]
    options: list[dict[str, Any]] = [{"type": "null"}] if len(members) < len(args) else []
    tags = [_tag(m) for m in members]
    if len(members) == 1:
        schema = schema_of(members[0], components)
    elif all(tags):
        schema = {
            "oneOf": [schema_of(m, components) for m in members],
            "discriminator": {
                "propertyName": "type",
                "mapping": {
                    tag: REF + m.__name__ for m, names in zip(members, tags, strict=True) for tag in names
                },
            },
        }
    else:
        return {"anyOf": [*(schema_of(m, components) for m in members), *options]}
    return {"anyOf": [schema, *options]} if options else schema


def _tag(tp: Any) -> tuple[str, ...]:
    """The values of a TypedDict's ``type: Literal[...]`` member (empty: it has none)."""
    if not is_typeddict(tp):
        return ()
    kind = get_type_hints(tp, include_extras=True).get("type")
    while get_origin(kind) is typing.Annotated:
        kind = get_args(kind)[0]
    return tuple(get_args(kind)) if get_origin(kind) is Literal else ()


def _component(typed: Any, components: dict[str, Any]) -> dict[str, Any]:
    name = typed.__name__
    if name not in components:
        components[name] = {}  # a placeholder while its members are written (a type may refer to itself)
        hints = get_type_hints(typed, include_extras=True)
        properties = {member: schema_of(_unwrap_required(hint), components) for member, hint in hints.items()}
        schema: dict[str, Any] = {"type": "object", "properties": properties}
        # From the hints, not __required_keys__: Python 3.11 cannot see NotRequired in the string
        # annotations of a module with ``from __future__ import annotations``.
        required = [m for m, hint in hints.items() if get_origin(hint) is not typing.NotRequired]
        if required:
            schema["required"] = required
        schema["additionalProperties"] = False
        if typed.__doc__:
            schema["description"] = " ".join(typed.__doc__.split())
        components[name] = schema
    if _OWNERS.setdefault(name, typed) is not typed:
        raise TypeError(f"two types are named {name}: {_OWNERS[name]} and {typed}")
    return {"$ref": REF + name}


def _unwrap_required(hint: Any) -> Any:
    """``Required[T]``/``NotRequired[T]`` say whether the member is required, not its type."""
    if get_origin(hint) in (typing.Required, typing.NotRequired):
        return get_args(hint)[0]
    return hint
