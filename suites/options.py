"""A suite's build options as one frozen dataclass: each field an ``option`` with its default and
help, so the default lives in one place. ``spatialbabel suite build`` derives the flags from the
dataclass (``--<suite>-<field>``, dest ``<suite>_<field>``, so that suites never clash), builds
the dataclass back from the parsed flags, and records the flags' values in ``suite.json``."""

from __future__ import annotations

import argparse
import types
from collections.abc import Sequence
from dataclasses import Field, dataclass, field, fields
from pathlib import Path
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

T = TypeVar("T")
OptionsT = TypeVar("OptionsT")


def option(
    default: T,
    *,
    help: str,
    choices: Sequence[str] | None = None,
    nargs: str | None = None,
    metavar: str | None = None,
) -> T:
    """A field that is also a flag of ``spatialbabel suite build``; ``help`` may use argparse's
    ``%(default)s``. The flag's type is the field's (``int | None`` is ``int``, and
    ``tuple[str, ...]`` with ``nargs`` is ``str``); a ``bool`` field is a switch."""
    flag: dict[str, Any] = {"help": help}
    if choices is not None:
        flag["choices"] = tuple(choices)
    if nargs is not None:
        flag["nargs"] = nargs
    if metavar is not None:
        flag["metavar"] = metavar
    made: T = field(default=default, metadata={"flag": flag})
    return made


@dataclass(frozen=True)
class NoOptions:
    """The options of a suite that has none."""


def _flags(options_type: type) -> list[Field[Any]]:
    return [item for item in fields(options_type) if "flag" in item.metadata]


def _scalar(hint: Any) -> type:
    """The type argparse converts one value to: ``int | None`` -> int, ``tuple[str, ...]`` -> str."""
    if get_origin(hint) in (Union, types.UnionType):
        (hint,) = [arg for arg in get_args(hint) if arg is not type(None)]
    if get_origin(hint) is tuple:
        hint = get_args(hint)[0]
    if not isinstance(hint, type):
        raise TypeError(f"an option's type must be a class, got {hint!r}")
    return hint


def _dest(prefix: str, item: Field[Any]) -> str:
    return f"{prefix}_{item.name}"


def add_option_flags(group: argparse._ArgumentGroup, options_type: type, prefix: str) -> None:
    """One flag per ``option`` field of ``options_type``, in field order."""
    hints = get_type_hints(options_type)
    for item in _flags(options_type):
        name = _dest(prefix, item)
        kind = _scalar(hints[item.name])
        # A bool option is a switch, off by default: argparse's bool() would read "False" as on.
        how: dict[str, Any] = {"action": "store_true"} if kind is bool else {"type": kind}
        group.add_argument(
            "--" + name.replace("_", "-"),
            dest=name,
            default=item.default,
            **how,
            **item.metadata["flag"],
        )


def options_from_args(
    options_type: type[OptionsT], args: argparse.Namespace, prefix: str
) -> OptionsT:
    """The options the parsed flags say; a flag missing from ``args`` keeps its default."""
    values: dict[str, Any] = {}
    for item in _flags(options_type):
        value: Any = getattr(args, _dest(prefix, item), item.default)
        values[item.name] = tuple(value) if "nargs" in item.metadata["flag"] else value
    return options_type(**values)


def recorded_options(options: object, prefix: str) -> dict[str, object]:
    """The flags' values, by dest in sorted order, as ``suite.json`` records them."""
    values: dict[str, object] = {}
    for item in _flags(type(options)):
        value = getattr(options, item.name)
        if isinstance(value, Path):
            value = str(value)
        elif isinstance(value, tuple):
            value = list(value)
        values[_dest(prefix, item)] = value
    return dict(sorted(values.items()))


def check_options(options: object, options_type: type[OptionsT], suite: str) -> OptionsT:
    """``options`` as the suite's own type; TypeError naming both for a caller's mix-up."""
    if not isinstance(options, options_type):
        raise TypeError(
            f"suite {suite} builds with {options_type.__name__}, got {type(options).__name__}"
        )
    return options


__all__ = [
    "NoOptions",
    "add_option_flags",
    "check_options",
    "option",
    "options_from_args",
    "recorded_options",
]
