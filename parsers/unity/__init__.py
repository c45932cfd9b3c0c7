"""The Unity C# language: parser (static evaluation of the reply's C# against a model of
UnityEngine) and writer (a scene as a MonoBehaviour in Unity's left-handed frame)."""

from __future__ import annotations

from parsers import PARSERS, WRITERS, same_in_every_domain
from parsers.unity.parser import LANGUAGE, evaluate_unity, parse_unity
from parsers.unity.writer import write_unity

PARSERS.add(LANGUAGE, same_in_every_domain(parse_unity))
WRITERS.add(LANGUAGE, write_unity)

__all__ = ["LANGUAGE", "evaluate_unity", "parse_unity", "write_unity"]
