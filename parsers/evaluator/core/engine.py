"""The engine table: what a language's scene library looks like to the evaluator.

An engine (three.js, bpy, Open3D, Unity) is a set of record kinds (``Mesh``, ``Vector3``) with
methods, getters and field hooks, the names a script sees without importing anything, and
the modules it can import. Engine functions are plain Python functions over evaluator values;
they report through the ``CallContext`` they are given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from parsers.evaluator.core.context import CallContext
from parsers.evaluator.core.values import Builtin, Record, Unknown, Value

MethodImpl = Callable[[CallContext, Record, list[Value], dict[str, Value]], Value]
GetterImpl = Callable[[CallContext, Record], Value]
#: Called when a script assigns ``record.name = value``; returns True when it handled the
#: assignment (stored it elsewhere, refused it with a diagnostic), False to store the field.
SetHook = Callable[[CallContext, Record, str, Value], bool]


@dataclass(frozen=True)
class HelperCall:
    """A call of a helper that cannot run to a result, handed to
    ``Engine.helper_without_body``: the helper is never defined (the reply was cut off before
    it, or the model never wrote it), its body is a stub (``pass``, ``// TODO``, ``throw new
    NotImplementedException()``, or every statement of it was cut off), or it ran and made
    nothing and returned nothing."""

    name: str
    #: The declared parameter names, in order; None when the helper is never declared.
    parameters: tuple[str, ...] | None
    args: list[Value]
    kwargs: dict[str, Value]
    #: "is never defined", "has no body" or "makes nothing".
    why: str


@dataclass
class Kind:
    """One engine type. ``base`` names the kind whose members it inherits."""

    name: str
    base: str | None = None
    methods: dict[str, MethodImpl] = field(default_factory=dict)
    getters: dict[str, GetterImpl] = field(default_factory=dict)
    on_set: SetHook | None = None
    #: Copied on read and assignment (C# structs).
    value_type: bool = False
    #: Unmodelled members read as inert values without a diagnostic (renderers, controls:
    #: nothing they do changes the scene).
    inert: bool = False
    #: Builds ``methods`` on first use (an engine table is made per parse; most kinds are
    #: never touched).
    factory: Callable[[], dict[str, MethodImpl]] | None = None

    def resolved_methods(self) -> dict[str, MethodImpl]:
        if self.factory is not None:
            self.methods = {**self.factory(), **self.methods}
            self.factory = None
        return self.methods


class Engine:
    """Base of every engine table. Subclasses fill ``kinds`` and override the hooks."""

    name = "engine"

    def __init__(self) -> None:
        self.kinds: dict[str, Kind] = {}
        self._method_cache: dict[tuple[str, str], Builtin | None] = {}
        # Every member read of an engine record walks its kind's chain: kept until a kind is
        # added (which may be a base a chain is missing).
        self._chains: dict[str, tuple[Kind, ...]] = {}

    # --- tables -----------------------------------------------------------------------------
    def add_kind(self, kind: Kind) -> Kind:
        self.kinds[kind.name] = kind
        self._chains.clear()
        return kind

    def chain(self, kind_name: str) -> tuple[Kind, ...]:
        """The kind and its bases, most derived first."""
        chain = self._chains.get(kind_name)
        if chain is None:
            found: list[Kind] = []
            kind = self.kinds.get(kind_name)
            while kind is not None and len(found) < 32:
                found.append(kind)
                kind = self.kinds.get(kind.base) if kind.base else None
            chain = self._chains[kind_name] = tuple(found)
        return chain

    def is_a(self, record: Value, kind_name: str) -> bool:
        return isinstance(record, Record) and any(
            k.name == kind_name for k in self.chain(record.kind)
        )

    def method(self, kind_name: str, name: str) -> Builtin | None:
        key = (kind_name, name)
        if key not in self._method_cache:
            found: Builtin | None = None
            for kind in self.chain(kind_name):
                methods = kind.resolved_methods()
                if name in methods:
                    found = Builtin(f"{kind.name}.{name}", methods[name])
                    break
            self._method_cache[key] = found
        return self._method_cache[key]

    def getter(self, kind_name: str, name: str) -> GetterImpl | None:
        for kind in self.chain(kind_name):
            if name in kind.getters:
                return kind.getters[name]
        return None

    def set_hook(self, kind_name: str) -> SetHook | None:
        for kind in self.chain(kind_name):
            if kind.on_set is not None:
                return kind.on_set
        return None

    def owns(self, record: Record) -> bool:
        """Whether ``record`` is one of the engine's objects: its fields are the engine's own
        properties, which the engine's methods read (a deletion of one is not followed)."""
        return bool(record.kind) and record.kind in self.kinds

    def is_inert(self, kind_name: str) -> bool:
        return any(kind.inert for kind in self.chain(kind_name))

    # --- hooks --------------------------------------------------------------------------------
    def globals(self) -> dict[str, Value]:
        """Names every script sees without importing (``THREE`` for three.js scripts that
        forgot the import, ``window``, ``document``)."""
        return {}

    def resolve_import(self, ctx: CallContext, module: str, name: str | None) -> Value:
        """The value ``import`` binds: the module (``name`` None) or one of its members."""
        return Unknown(f"module {module!r} is not known")

    def unbound_name(self, ctx: CallContext, name: str) -> Value | None:
        """A value for a name the script never defined (a missing import), or None."""
        return None

    def missing_member(self, ctx: CallContext, record: Record, name: str) -> Value:
        """What reading an unmodelled member of an engine record gives."""
        if self.is_inert(record.kind):
            return Unknown(f"{record.kind}.{name} does not change the scene", inert=True)
        return Unknown(f"{record.kind}.{name} is not modelled")

    def call_on_unknown(
        self,
        ctx: CallContext,
        receiver: Unknown,
        name: str,
        args: list[Value],
        kwargs: dict[str, Value],
    ) -> Value | None:
        """Called for ``receiver.name(args)`` when the receiver is unknown (``scene.add(cube)``
        with no ``scene`` defined); a value, or None to give back an unknown."""
        return None

    def object_count(self) -> int | None:
        """How many scene objects the engine has made so far, or None when the engine does not
        read helpers without a body (``helper_without_body`` is then never called)."""
        return None

    def helper_without_body(self, ctx: CallContext, call: HelperCall) -> Value | None:
        """What a call of a helper that cannot run gives (see ``HelperCall``): an object built
        from what the call carries (a shape named by the helper or an argument, a position),
        or None to leave the call as it is."""
        return None

    def after_program(self, ctx: CallContext) -> None:
        """Runs once the program's statements are done (page ``load`` handlers...)."""


class Part:
    """One part of an engine: the members of a few of its kinds (three's vectors, Unity's
    meshes, bpy's operators). An engine holds its parts rather than inheriting them, so each
    part reads alone and reaches the engine's state, its record makers and the other parts by
    name (``self.engine``, ``self.engine.materials``); the engine merges the parts' method
    tables into its kinds in one place, its ``_register_kinds``."""

    #: Each part narrows this to its engine's class.
    engine: Engine

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
