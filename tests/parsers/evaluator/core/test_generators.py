"""Generator functions in the evaluator's core (``parsers/evaluator/core/generators.py``), through
the Python front end: bodies run lazily, interleaved with their consumer as in the language;
delegation, sent values, errors, caps and the end of the run."""

from __future__ import annotations

from typing import Any

from parsers.evaluator import Engine, Limits, evaluate
from parsers.evaluator.python.front import lower_python
from parsers.evaluator.python.lib import Python
from parsers.result import Diagnostics


def run(code: str, limits: Limits | None = None) -> tuple[dict[str, Any], set[str], Any]:
    evaluation = evaluate(
        code,
        grammar="python",
        front_end=lower_python,
        dialect=Python(),
        engine=Engine(),
        limits=limits or Limits(),
    )
    diagnostics = Diagnostics()
    evaluation.reporter.flush(diagnostics)
    codes = {d.code for d in diagnostics.items}
    return evaluation.interpreter.globals.vars, codes, evaluation.interpreter


def test_body_and_consumer_interleave() -> None:
    values, codes, interp = run(
        "log = []\n"
        "def gen(n):\n"
        "    log.append('start')\n"
        "    for i in range(n):\n"
        "        log.append(f'make {i}')\n"
        "        yield i\n"
        "    log.append('end')\n"
        "g = gen(2)\n"
        "log.append('created')\n"
        "for v in g:\n"
        "    log.append(f'use {v}')\n"
        "again = list(g)\n"
    )
    assert values["log"] == ["created", "start", "make 0", "use 0", "make 1", "use 1", "end"]
    assert values["again"] == []
    assert not codes
    assert interp.depth == 0 and interp.frames == [] and interp.generators == []


def test_yield_from_gives_the_delegates_return_value_and_sent_values() -> None:
    values, codes, _ = run(
        "def inner():\n"
        "    got = yield 1\n"
        "    yield got\n"
        "    return 'done'\n"
        "def outer():\n"
        "    result = yield from inner()\n"
        "    yield result\n"
        "    yield from [7, 8]\n"
        "items = list(outer())\n"
        "nothing_sent = items[1] is None\n"
        "g = outer()\n"
        "first = next(g)\n"
        "echoed = g.send('hello')\n"
    )
    assert [values["items"][i] for i in (0, 2, 3, 4)] == [1, "done", 7, 8]
    assert values["nothing_sent"] is True
    assert (values["first"], values["echoed"]) == (1, "hello")
    assert not codes


def test_recursive_generators_and_generator_expressions() -> None:
    values, _, interp = run(
        "def walk(node, depth=0):\n"
        "    name, children = node\n"
        "    yield (depth, name)\n"
        "    for child in children:\n"
        "        yield from walk(child, depth + 1)\n"
        "tree = ('a', [('b', [('c', [])]), ('d', [])])\n"
        "order = list(walk(tree))\n"
        "log = []\n"
        "lazy = (log.append(i) or i * i for i in range(3))\n"
        "before = list(log)\n"
        "total = sum(lazy)\n"
    )
    assert values["order"] == [(0, "a"), (1, "b"), (2, "c"), (1, "d")]
    assert values["before"] == [] and values["log"] == [0, 1, 2] and values["total"] == 5
    assert interp.depth == 0 and interp.frames == []


def test_errors_in_the_body_reach_the_consumer() -> None:
    values, codes, _ = run(
        "def gen():\n"
        "    yield 1\n"
        "    raise ValueError('bad')\n"
        "seen = []\n"
        "try:\n"
        "    for v in gen():\n"
        "        seen.append(v)\n"
        "except ValueError:\n"
        "    seen.append('caught')\n"
    )
    assert values["seen"] == [1, "caught"]
    assert "eval.uncaught_throw" not in codes


def test_endless_generators_stop_at_the_caps_and_the_run_goes_on() -> None:
    values, codes, interp = run(
        "def forever():\n"
        "    n = 0\n"
        "    while True:\n"
        "        yield n\n"
        "        n += 1\n"
        "count = 0\n"
        "for v in forever():\n"
        "    count += 1\n"
        "def deeper(n):\n"
        "    yield n\n"
        "    yield from deeper(n + 1)\n"
        "depths = list(deeper(0))\n"
        "after = 'ran'\n",
        Limits(max_loop_iterations=50),
    )
    assert values["count"] == 50 and values["after"] == "ran"
    assert "eval.loop_limit" in codes and "eval.recursion_limit" in codes
    assert len(values["depths"]) == Limits().max_call_depth
    assert interp.depth == 0 and interp.frames == [] and interp.generators == []


def test_suspended_bodies_are_abandoned_without_running_the_script() -> None:
    values, _, interp = run(
        "log = []\n"
        "def gen():\n"
        "    try:\n"
        "        yield 1\n"
        "        yield 2\n"
        "    finally:\n"
        "        log.append('finally')\n"
        "for v in gen():\n"
        "    break\n"
        "log.append('end')\n"
    )
    assert values["log"] == ["end"]
    assert interp.generators == []


def test_budget_stop_inside_a_body_ends_the_run_cleanly() -> None:
    _, codes, interp = run(
        "def gen():\n    while True:\n        x = 1\n        yield x\nfor v in gen():\n    pass\n",
        Limits(max_steps=500, max_loop_iterations=10**6),
    )
    assert "eval.budget" in codes
    assert interp.generators == [] and interp.frames == []


def test_yield_outside_a_function_is_reported() -> None:
    _, codes, _ = run("x = 1\nyield x\n")
    assert "eval.yield_outside_generator" in codes
