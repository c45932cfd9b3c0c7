"""The engine audit: sampled replies run in their real engines, inside a sandbox, and the scene
each engine built compared with the static parse (docs/audit.md).

A stage beside scoring and render: it uses the hub, the parsers and the scorer's matching;
nothing below it imports it (the CLI reaches it through the ``engine_audit`` stage hook).

This package's ``__init__`` imports nothing: the sandboxed engine workers (``audit.worker``)
import their runner modules from it with only the standard library, numpy and the engine.
"""
