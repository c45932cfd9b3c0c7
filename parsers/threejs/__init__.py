"""The three.js language: parser (static evaluation of the reply's JavaScript against a model of
three r187) and writer (a scene as an ES-module script)."""

from __future__ import annotations

from parsers import PARSERS, WRITERS, same_in_every_domain
from parsers.threejs.parser import LANGUAGE, evaluate_threejs, parse_threejs
from parsers.threejs.writer import write_threejs

PARSERS.add(LANGUAGE, same_in_every_domain(parse_threejs))
WRITERS.add(LANGUAGE, write_threejs)

__all__ = ["LANGUAGE", "evaluate_threejs", "parse_threejs", "write_threejs"]
