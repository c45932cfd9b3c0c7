"""What a built-in is called with: positional ``Args``, keyword ``Kwargs``, and ``arg`` to
read one argument by position or, failing that, by keyword (``UNDEFINED`` when neither is
given, so the built-in's default applies)."""

from __future__ import annotations

from parsers.evaluator.core.values import UNDEFINED, Value

Args = list[Value]
Kwargs = dict[str, Value]


def arg(args: Args, i: int, kwargs: Kwargs | None = None, name: str | None = None) -> Value:
    """Argument ``i``, else keyword ``name`` (when ``kwargs`` is given), else ``UNDEFINED``."""
    if i < len(args):
        return args[i]
    if kwargs is not None and name is not None and name in kwargs:
        return kwargs[name]
    return UNDEFINED
