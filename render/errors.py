"""Errors of the render stage, importable without pyrender (the CLI modules catch them)."""

from __future__ import annotations

from spatialbabel.errors import SpatialBabelError

#: What a Debian machine needs for offscreen rendering with Mesa's EGL.
EGL_PACKAGES = "libegl1 libegl-mesa0 libgl1-mesa-dri libgl1"


class RenderError(SpatialBabelError):
    """A scene cannot be drawn as asked (no such camera, too many objects)."""


class RendererUnavailable(RenderError):
    """No offscreen OpenGL context could be opened; the message says what to install."""
