"""Hugging Face ``datasets`` features of execstate's JSON-lines records, for a schema fixed in advance."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from execstate.builder import dataset_features
from execstate.errors import UsageError


def hf_features(model: type[BaseModel]) -> Any:
    """``datasets.Features`` of ``model``'s JSON lines (``Task``, ``Response``, ``Grade``, ...).

    Pass it as ``load_dataset("json", data_files=..., features=hf_features(Response))`` when a column may
    be null in every row of the file, or of its first 10 MB chunk, which pyarrow would otherwise type
    ``null`` (and then fail on a later chunk). Same types as the build's dataset card.
    """
    try:
        import datasets
    except ImportError:
        raise UsageError("hf_features needs the datasets package. Fix: pip install datasets") from None
    return datasets.Features({f["name"]: _feature(datasets, f) for f in dataset_features(model)})


def _feature(datasets: Any, spec: dict[str, Any]) -> Any:
    if "struct" in spec:
        return {f["name"]: _feature(datasets, f) for f in spec["struct"]}
    if "list" in spec:
        return [datasets.Value(spec["list"])]
    return datasets.Value(spec["dtype"])
