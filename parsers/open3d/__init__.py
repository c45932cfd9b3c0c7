"""The Open3D language: parser (static evaluation of the reply's open3d/numpy script) and
writer (a scene as an open3d script, in open3d's Y-up frame)."""

from __future__ import annotations

from parsers import PARSERS, WRITERS, same_in_every_domain
from parsers.open3d.parser import LANGUAGE, evaluate_open3d, parse_open3d
from parsers.open3d.writer import write_open3d

PARSERS.add(LANGUAGE, same_in_every_domain(parse_open3d))
WRITERS.add(LANGUAGE, write_open3d)

__all__ = ["LANGUAGE", "evaluate_open3d", "parse_open3d", "write_open3d"]
