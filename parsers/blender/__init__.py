"""The Blender Python language: parser (static evaluation of the reply's bpy script against a
model of Blender 5.0) and writer (a scene as a bpy script in Blender's Z-up frame)."""

from __future__ import annotations

from parsers import PARSERS, WRITERS, same_in_every_domain
from parsers.blender.parser import LANGUAGE, evaluate_blender, parse_blender
from parsers.blender.writer import write_blender

PARSERS.add(LANGUAGE, same_in_every_domain(parse_blender))
WRITERS.add(LANGUAGE, write_blender)

__all__ = ["LANGUAGE", "evaluate_blender", "parse_blender", "write_blender"]
