"""The executor interface on the local process pool: results in unit order, each worker's state
built once, a worker killed mid-unit retried elsewhere, a unit that keeps killing its worker
named in the error with the finished units kept, a unit's own exception not retried, and the
command-line options. (Ray: tests/scale/test_ray_cluster.py.)"""

from __future__ import annotations

import argparse
import os
import signal
from pathlib import Path

import pytest

from spatialbabel.run.executor import (
    ExecutorOptions,
    Progress,
    UnitFailed,
    UnitLoop,
    WorkerContext,
    add_executor_arguments,
    executor_options,
    make_executor,
)
from spatialbabel.run.local_pool import LocalExecutor

State = tuple[int, Path]


def _setup(context: WorkerContext, folder: str) -> State:
    assert context.cpus >= 1 and context.scratch.is_dir()
    # One file per state built: the test counts them.
    (Path(folder) / f"setup-{os.getpid()}").touch()
    return os.getpid(), Path(folder)


def _square(state: State, unit: int) -> tuple[int, int]:
    pid, folder = state
    (folder / f"unit-{unit}").write_text(str(pid))
    return unit * unit, pid


def _dies_once(state: State, unit: int) -> tuple[int, int]:
    """Unit 5 kills its worker the first time it runs, as the OOM killer or a crash would."""
    _, folder = state
    marker = folder / f"attempt-{unit}-{len(list(folder.glob(f'attempt-{unit}-*')))}"
    marker.write_text(str(os.getpid()))
    if unit == 5 and marker.name.endswith("-0"):
        os.kill(os.getpid(), signal.SIGKILL)
    return _square(state, unit)


def _always_dies(state: State, unit: int) -> tuple[int, int]:
    _, folder = state
    if unit == 3:
        (folder / f"attempt-3-{len(list(folder.glob('attempt-3-*')))}").touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return _square(state, unit)


def _raises(state: State, unit: int) -> tuple[int, int]:
    _, folder = state
    if unit == 2:
        (folder / f"attempt-2-{len(list(folder.glob('attempt-2-*')))}").touch()
        raise ValueError("unit 2 is bad")
    return _square(state, unit)


def _name(unit: int) -> str:
    return f"thing #{unit}"


@pytest.mark.parametrize("long_lived", [False, True], ids=["forked-batches", "spawned-workers"])
def test_results_come_in_unit_order_and_each_worker_sets_up_once(
    tmp_path: Path, long_lived: bool
) -> None:
    loop = UnitLoop(_setup, _square, (str(tmp_path),), long_lived=long_lived)
    units = list(range(24))
    results = LocalExecutor(2).map(loop, units, progress=Progress(len(units)))
    assert [value for value, _ in results] == [u * u for u in units]
    workers = {pid for _, pid in results}
    assert os.getpid() not in workers and 1 <= len(workers) <= 2
    assert sorted(p.name for p in tmp_path.glob("setup-*")) == sorted(f"setup-{p}" for p in workers)


def test_a_small_run_of_cheap_units_stays_in_this_process(tmp_path: Path) -> None:
    loop = UnitLoop(_setup, _square, (str(tmp_path),))
    assert LocalExecutor(2).map(loop, [1, 2, 3]) == [
        (1, os.getpid()),
        (4, os.getpid()),
        (9, os.getpid()),
    ]
    assert LocalExecutor(2).map(loop, []) == []


@pytest.mark.parametrize("long_lived", [False, True], ids=["forked-batches", "spawned-workers"])
def test_a_worker_killed_mid_unit_is_replaced_and_the_unit_run_again(
    tmp_path: Path, long_lived: bool, capfd: pytest.CaptureFixture[str]
) -> None:
    loop = UnitLoop(_setup, _dies_once, (str(tmp_path),), long_lived=long_lived, describe=_name)
    units = list(range(12))
    results = LocalExecutor(2, max_retries=1).map(loop, units)
    assert [value for value, _ in results] == [u * u for u in units]
    assert len(list(tmp_path.glob("attempt-5-*"))) == 2
    killed = int((tmp_path / "attempt-5-0").read_text())
    assert results[5][1] != killed
    # Only the killed worker was started again: two workers at first, at most one more after.
    assert 2 <= len(list(tmp_path.glob("setup-*"))) <= 3
    err = capfd.readouterr().err
    assert "thing #5" in err and "its worker died" in err and "attempt 2 of 2" in err


def test_a_unit_that_keeps_killing_its_worker_is_named_and_the_rest_kept(tmp_path: Path) -> None:
    loop = UnitLoop(_setup, _always_dies, (str(tmp_path),), long_lived=True, describe=_name)
    with pytest.raises(UnitFailed) as failed:
        LocalExecutor(2, max_retries=2).map(loop, list(range(8)))
    assert failed.value.unit == "thing #3" and failed.value.attempts == 3
    assert str(failed.value).startswith("thing #3: its worker died on all 3 attempts")
    assert len(list(tmp_path.glob("attempt-3-*"))) == 3
    # The units before it finished and kept what they wrote.
    assert {p.name for p in tmp_path.glob("unit-*")} >= {"unit-0", "unit-1", "unit-2"}


def test_a_unit_that_raises_ends_the_run_with_its_own_error_unretried(tmp_path: Path) -> None:
    loop = UnitLoop(_setup, _raises, (str(tmp_path),), long_lived=True)
    with pytest.raises(ValueError, match="unit 2 is bad"):
        LocalExecutor(2).map(loop, list(range(6)))
    assert len(list(tmp_path.glob("attempt-2-*"))) == 1


def _options(*argv: str, env: str | None = None) -> ExecutorOptions:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=None)
    add_executor_arguments(parser)
    return executor_options(parser.parse_args(argv))


def test_command_line_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert _options() == ExecutorOptions("local", None, None, 3)
    assert _options("--executor", "ray") == ExecutorOptions("ray", None, None, 3)
    assert _options("--ray-address", "auto", "--max-retries", "0") == ExecutorOptions(
        "ray", None, "auto", 0
    )
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.1:6379")
    assert _options("--executor", "ray", "--workers", "4").address == "10.0.0.1:6379"
    assert _options().address is None
    with pytest.raises(ValueError, match="needs the ray executor"):
        _options("--executor", "local", "--ray-address", "auto")
    with pytest.raises(ValueError, match="max retries"):
        _options("--max-retries", "-1")
    with pytest.raises(ValueError, match="workers"):
        _options("--workers", "0")
    local = make_executor(ExecutorOptions(workers=None), default_workers=3)
    assert local.name == "local" and local.workers(UnitLoop(_setup, _square)) == 3
