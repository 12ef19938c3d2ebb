#!/usr/bin/env bash
# The wheel: built with maturin (from PyPI, in its own venv under CACHE, reused), installed
# into a fresh venv with no Rust on PATH, and tested against real Blender.
#   bash scripts/wheel_test.sh CACHE BLENDER_PYTHON
# The dev profile reuses the `capstan` binary the test build made, so this packs it
# rather than compiling it again. scripts/test runs it in a lane beside the test binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=$1
blender_python=$2
maturin_venv="$cache/tools/maturin-1.16.0"
if [ ! -x "$maturin_venv/bin/maturin" ]; then
  python3 -m venv "$maturin_venv"
  "$maturin_venv/bin/pip" install --quiet --disable-pip-version-check "maturin==1.16.0"
fi
wheel_dir=$(mktemp -d)
wheel_venv=$(mktemp -d)
trap 'rm -rf "$wheel_dir" "$wheel_venv"' EXIT
"$maturin_venv/bin/maturin" build --quiet --profile dev --locked -o "$wheel_dir"
python3 -m venv "$wheel_venv"
"$wheel_venv/bin/pip" install --quiet --disable-pip-version-check --no-index --no-deps "$wheel_dir"/capstan_mcp-*.whl
CAPSTAN_WHEEL_VENV="$wheel_venv" "$blender_python" -m pytest -q tests/wheel
