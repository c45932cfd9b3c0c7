"""Typed build options: the flags of ``spatialbabel suite build`` come from each suite's frozen
dataclass, and parse back into it."""

from __future__ import annotations

import argparse

import pytest

from suites.base import SuiteError
from suites.options import add_option_flags, check_options, options_from_args, recorded_options
from suites.provise import TASKS, ProViseOptions
from suites.spacecast.suite import SpaceCastOptions
from suites.spatialmind.options import SpatialMindOptions


def _parse(options_type: type, prefix: str, argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_option_flags(parser.add_argument_group("build"), options_type, prefix)
    return parser.parse_args(argv)


def test_flags_parse_back_into_the_dataclass() -> None:
    args = _parse(
        SpaceCastOptions, "spacecast", ["--spacecast-seed", "3", "--spacecast-scenes", "2"]
    )
    options = options_from_args(SpaceCastOptions, args, "spacecast")
    assert options == SpaceCastOptions(seed=3, scenes=2)
    assert options.executor is None  # not a flag: the command's --executor flags set it
    assert recorded_options(options, "spacecast") == {
        "spacecast_bev": False,
        "spacecast_resolution": 512,
        "spacecast_scenes": 2,
        "spacecast_seed": 3,
        "spacecast_workers": 1,
    }


def test_a_bool_option_is_a_switch() -> None:
    off = options_from_args(
        SpaceCastOptions, _parse(SpaceCastOptions, "spacecast", []), "spacecast"
    )
    on = options_from_args(
        SpaceCastOptions, _parse(SpaceCastOptions, "spacecast", ["--spacecast-bev"]), "spacecast"
    )
    assert (off.bev, on.bev) == (False, True)
    with pytest.raises(SystemExit):  # a switch takes no value
        _parse(SpaceCastOptions, "spacecast", ["--spacecast-bev", "False"])


def test_defaults_are_the_dataclass_defaults() -> None:
    args = _parse(SpatialMindOptions, "spatialmind", [])
    assert options_from_args(SpatialMindOptions, args, "spatialmind") == SpatialMindOptions()
    assert args.spatialmind_min_visible == 0.0005


def test_many_valued_flag_is_a_tuple_recorded_as_a_list() -> None:
    args = _parse(ProViseOptions, "provise", ["--provise-tasks", "depth", "size"])
    options = options_from_args(ProViseOptions, args, "provise")
    assert options.tasks == ("depth", "size")
    assert recorded_options(options, "provise") == {
        "provise_seed": 0,
        "provise_tasks": ["depth", "size"],
    }
    assert (
        options_from_args(ProViseOptions, _parse(ProViseOptions, "provise", []), "provise").tasks
        == TASKS
    )


def test_choices_and_types_come_from_the_fields() -> None:
    with pytest.raises(SystemExit):
        _parse(SpatialMindOptions, "spatialmind", ["--spatialmind-inputs", "audio"])
    with pytest.raises(SystemExit):
        _parse(SpaceCastOptions, "spacecast", ["--spacecast-seed", "x"])


def test_bad_values_are_refused_by_the_dataclass() -> None:
    with pytest.raises(SuiteError, match="--provise-seed must not be negative"):
        ProViseOptions(seed=-1)
    with pytest.raises(SuiteError, match="--spacecast-workers must be >= 1"):
        SpaceCastOptions(workers=0)


def test_a_suite_refuses_another_suites_options() -> None:
    with pytest.raises(
        TypeError, match="suite provise builds with ProViseOptions, got SpaceCastOptions"
    ):
        check_options(SpaceCastOptions(), ProViseOptions, "provise")
