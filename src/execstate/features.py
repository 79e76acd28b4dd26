"""The column types of a record's JSON lines in the Hugging Face form (``dataset_info.features``).

Shared by the dataset card a build writes beside ``tasks.jsonl`` (``execstate.builder.dataset_card``) and the
exports that give ``datasets`` the same types (``execstate.export``), so both read one mapping.
"""

from __future__ import annotations

import types
import typing
from typing import Any

from pydantic import BaseModel

_SCALARS = {str: "string", int: "int64", float: "float64", bool: "bool"}


def dataset_features(model: type[BaseModel]) -> list[dict[str, Any]]:
    """The column types of a record's JSON lines, in the dataset-card YAML form (``dataset_info.features``).

    str/Literal -> string, int -> int64, float -> float64, bool -> bool, a nested record -> struct,
    list[X] -> list, and a dict (written as a JSON string, like ``Task.meta``) -> string. Optional
    fields keep their type (null is a missing value).
    """
    return [_feature(name, field.annotation) for name, field in model.model_fields.items()]


def _feature(name: str, annotation: Any) -> dict[str, Any]:
    annotation = _strip_optional(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return {"name": name, "struct": dataset_features(annotation)}
    if typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation)
        return {"name": name, "list": _SCALARS[_strip_optional(item)]}
    if typing.get_origin(annotation) is typing.Literal or annotation is dict or typing.get_origin(annotation) is dict:
        return {"name": name, "dtype": "string"}
    return {"name": name, "dtype": _SCALARS[annotation]}


def _strip_optional(annotation: Any) -> Any:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


__all__ = ["dataset_features"]
