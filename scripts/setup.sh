#!/usr/bin/env bash
# Set up everything SpatialBabel needs on a fresh Debian machine with Python 3.11 and Node 20:
# system libraries, a virtual environment with the project and all its extras, and the npm
# packages the engine-parity tests run. Safe to run again: finished steps are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3.11}"
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python3

# open3d needs libusb; pyrender renders offscreen through Mesa's EGL; the report test drives
# headless Chromium. Each is checked first so that a machine that has them needs no root.
need_apt=()
[ -e /usr/lib/x86_64-linux-gnu/libusb-1.0.so.0 ] || [ -e /usr/lib/aarch64-linux-gnu/libusb-1.0.so.0 ] || need_apt+=(libusb-1.0-0)
ldconfig -p 2>/dev/null | grep -q 'libEGL_mesa.so' || need_apt+=(libegl1 libegl-mesa0 libgl1-mesa-dri libgbm1)
# PyOpenGL 3.1.0 (pyrender's pin) loads GL entry points from libGL.so.1 even under EGL.
ldconfig -p 2>/dev/null | grep -q 'libGL.so.1' || need_apt+=(libgl1)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
# Mono compiles and runs the C# conformance programs and the Unity harness (a UnityEngine
# facade); bubblewrap sandboxes the engine audit's runs of model code.
command -v mcs >/dev/null 2>&1 || need_apt+=(mono-mcs)
command -v mono >/dev/null 2>&1 || need_apt+=(mono-runtime)
[ -e /usr/lib/mono/4.5/System.Core.dll ] || need_apt+=(libmono-system-core4.0-cil)
command -v bwrap >/dev/null 2>&1 || need_apt+=(bubblewrap)
command -v chromedriver >/dev/null 2>&1 || need_apt+=(chromium-driver)
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "setup: installing Debian packages: ${need_apt[*]}"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get install -y -q "${need_apt[@]}" >/dev/null 2>&1 || {
        $SUDO apt-get update -q >/dev/null
        $SUDO apt-get install -y -q "${need_apt[@]}" >/dev/null
    }
fi

# The venv is rebuilt only when the dependency list changes.
stamp=".venv/.spatialbabel-installed"
want="$(cat pyproject.toml | sha256sum | cut -c1-16)"
if [ ! -x .venv/bin/python ]; then
    echo "setup: creating .venv with $PYTHON"
    "$PYTHON" -m venv .venv
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "setup: installing spatialbabel with all extras into .venv (bpy alone is 374 MB)"
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e ".[all]"
    echo "$want" > "$stamp"
fi

if [ -f package-lock.json ]; then
    lock="$(sha256sum package-lock.json | cut -c1-16)"
    if [ "$(cat node_modules/.spatialbabel-installed 2>/dev/null)" != "$lock" ]; then
        echo "setup: installing npm packages (three, typescript) into node_modules"
        npm ci --no-audit --no-fund --loglevel=error
        echo "$lock" > node_modules/.spatialbabel-installed
    fi
fi
