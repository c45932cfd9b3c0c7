#!/usr/bin/env bash
# The main job on a small built-in default: generate a few scenes with Blender, parse the
# bundled model replies in all six languages, score them, print the table and build the report.
# Extra arguments go to `spatialbabel demo` (see `spatialbabel demo --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PYOPENGL_PLATFORM=egl
exec .venv/bin/spatialbabel demo "$@"
