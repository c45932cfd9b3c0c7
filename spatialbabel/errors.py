"""Exceptions shared by every stage."""

from __future__ import annotations


class SpatialBabelError(Exception):
    """Base class of every error the toolchain raises on purpose."""


class SceneValidationError(SpatialBabelError, ValueError):
    """A scene value broke a contract; ``field`` names where (``objects[3].size``)."""

    def __init__(self, field: str, problem: str, *, source: str | None = None) -> None:
        self.field = field
        self.problem = problem
        self.source = source
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{field}: {problem}" if field else f"{where}{problem}")

    def within(self, prefix: str) -> SceneValidationError:
        """The same error with its field nested under ``prefix`` (``objects[3]``)."""
        field = f"{prefix}.{self.field}" if self.field else prefix
        if self.field.startswith("["):
            field = f"{prefix}{self.field}"
        return SceneValidationError(field, self.problem, source=self.source)

    def in_file(self, source: str) -> SceneValidationError:
        return SceneValidationError(self.field, self.problem, source=source)


class RegistryError(SpatialBabelError, KeyError):
    """A name was looked up in a registry that does not hold it, or registered twice."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""
