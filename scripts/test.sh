#!/usr/bin/env bash
# The test command: sets everything up, then lint, format check, type check and the tests.
# Extra arguments go to pytest (e.g. scripts/test.sh -k json).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PYOPENGL_PLATFORM=egl
echo "== ruff check";   .venv/bin/ruff check .
echo "== ruff format";  .venv/bin/ruff format --check .
echo "== mypy";         .venv/bin/mypy
echo "== pytest";       .venv/bin/python -m pytest "$@"
