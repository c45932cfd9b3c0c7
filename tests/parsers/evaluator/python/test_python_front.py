"""The Python front end and dialect (shared by the Blender and Open3D parsers): Python's own
semantics, evaluated statically, and the repairs reported when code is cut off."""

from __future__ import annotations

from typing import Any

import pytest

from parsers.evaluator import Engine, Limits, evaluate
from parsers.evaluator.python.front import lower_python
from parsers.evaluator.python.lib import Python, python_module
from parsers.evaluator.python.numpy_lib import is_array, numpy_module, register
from parsers.result import Diagnostics


class _Engine(Engine):
    def __init__(self) -> None:
        super().__init__()
        register(self)

    def resolve_import(self, ctx: Any, module: str, name: str | None) -> Any:
        found = python_module(ctx, module) or (numpy_module() if module == "numpy" else None)
        if found is None:
            return super().resolve_import(ctx, module, name)
        return found if name is None else ctx.member(found, name)


def run(code: str) -> tuple[dict[str, Any], set[str]]:
    evaluation = evaluate(
        code,
        grammar="python",
        front_end=lower_python,
        dialect=Python(),
        engine=_Engine(),
        limits=Limits(),
    )
    diagnostics = Diagnostics()
    evaluation.reporter.flush(diagnostics)
    return evaluation.interpreter.globals.vars, {d.code for d in diagnostics.items}


def test_arithmetic_keeps_python_ints_and_floats() -> None:
    values, _ = run(
        "a = 7 // 2\nb = 7 / 2\nc = -7 % 3\nd = 2 ** 10\ne = 1_000 + 0x1F\nf = 1 < 2 < 3"
    )
    assert (values["a"], values["b"], values["c"], values["d"], values["e"], values["f"]) == (
        3,
        3.5,
        2,
        1024,
        1031,
        True,
    )


def test_strings_fstrings_and_escapes() -> None:
    values, _ = run(
        "i = 3\na = f'S_{i:02d}_{i * 2}'\nb = 'x\\ty' + r'\\n'\nc = 'ab' 'cd'\nd = int('8B', 16)"
    )
    assert values["a"] == "S_03_6"
    assert values["b"] == "x\ty\\n"
    assert values["c"] == "abcd"
    assert values["d"] == 139


def test_unpacking_comprehensions_and_lazy_builtins() -> None:
    values, _ = run(
        "x, (y, z), *rest = 1, (2, 3), 4, 5\n"
        "pairs = [(i, c) for i, c in enumerate('ab') if i >= 0]\n"
        "d = {k: v for k, v in zip('xy', [1, 2])}\n"
        "s = sum(i for i in range(5))\n"
        "m = list(map(lambda v: v * 2, [1, 2]))"
    )
    assert (values["x"], values["y"], values["z"], values["rest"]) == (1, 2, 3, [4, 5])
    assert values["pairs"] == [(0, "a"), (1, "b")]
    assert values["d"] == {"x": 1, "y": 2}
    assert (values["s"], values["m"]) == (10, [2, 4])


def test_functions_defaults_keywords_and_closures() -> None:
    values, _ = run(
        "def f(a, b=2, *args, c, d=4, **kw):\n    return (a, b, args, c, d, kw)\n"
        "r = f(1, c=3, e=5)\n"
        "def outer():\n    n = 10\n    def inner(k):\n        return n + k\n    return inner(1)\n"
        "o = outer()\ncount = 0\ndef bump():\n    global count\n    count += 1\nbump()\nbump()"
    )
    assert values["r"] == (1, 2, (), 3, 4, {"e": 5})
    assert (values["o"], values["count"]) == (11, 2)


def test_classes_properties_super_and_dataclasses() -> None:
    values, _ = run(
        "from dataclasses import dataclass\n"
        "class A:\n    scale = 2\n    def __init__(self, v):\n        self.v = v\n    @property\n    def twice(self):\n        return self.v * 2\n"
        "class B(A):\n    def __init__(self, v):\n        super().__init__(v + 1)\n"
        "b = B(1)\nt = b.twice\n"
        "@dataclass\nclass Spec:\n    kind: str\n    size: float = 1.0\n"
        "s = Spec('cube')\nk, z = s.kind, s.size"
    )
    assert (values["t"], values["k"], values["z"]) == (4, "cube", 1.0)


def test_list_plus_equals_extends_in_place() -> None:
    values, _ = run("a = [1]\nb = a\na += [2, 3]")
    assert values["b"] == [1, 2, 3]


def test_numpy_arrays_and_slice_assignment() -> None:
    values, _ = run(
        "import numpy as np\nT = np.eye(4)\nT[:3, 3] = [1, 2, 3]\nv = (T @ np.array([0, 0, 0, 1]))[:3]\nn = float(np.linalg.norm(v))"
    )
    assert is_array(values["T"])
    assert values["n"] == pytest.approx(14**0.5)


def test_cut_off_statement_is_left_out_and_located() -> None:
    values, codes = run("a = 1\nb = [2,\nc = 3\nd = (4")
    assert values["a"] == 1 and "d" not in values
    assert "py.syntax" in codes


def test_runaway_values_are_cut_not_built() -> None:
    values, _ = run("s = 'ab'\nfor i in range(64):\n    s = s + s\nx = 10 ** 10 ** 10")
    assert not isinstance(values["s"], str) or len(values["s"]) <= 1_000_000


def test_what_the_reader_cannot_follow_is_a_warning_with_its_line() -> None:
    """Nothing silent: a statement, decorator or dynamic code the reader skips is a warning
    with its line, not an info."""
    evaluation = evaluate(
        "import functools\n"
        "@some_registry.register\n"
        "def made():\n    return 1\n"
        "class Holder:\n"
        "    for i in range(3):\n"
        "        pass\n"
        "    @unknown.wrapper\n"
        "    def method(self):\n        return 2\n"
        "exec('x = 1')\n"
        "value = made()\n",
        grammar="python",
        front_end=lower_python,
        dialect=Python(),
        engine=_Engine(),
        limits=Limits(),
    )
    diagnostics = Diagnostics()
    evaluation.reporter.flush(diagnostics)
    found = {(d.code, d.line) for d in diagnostics.items if d.severity == "warning"}
    assert ("py.unknown_decorator", 2) in found
    assert ("py.unsupported", 6) in found
    assert ("py.unknown_decorator", 8) in found
    assert ("py.dynamic_code", 11) in found
    # The undecorated function is still the function.
    assert evaluation.interpreter.globals.vars["value"] == 1
