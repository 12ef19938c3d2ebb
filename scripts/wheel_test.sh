#!/usr/bin/env bash
# The wheel, in two steps (scripts/test runs the first before the test lanes and the
# second in a lane):
#   bash scripts/wheel_test.sh build CACHE WHEEL_DIR   maturin (from PyPI, in its own venv
#                                                      under CACHE, reused) builds the wheel
#   bash scripts/wheel_test.sh test WHEEL_DIR BLENDER_PYTHON
#                                                      installed into a fresh venv with no
#                                                      Rust on PATH, tested against real Blender
# The build comes first because cargo re-links `target/debug/capstan` for it (the
# `-p capstan` build resolves features differently from the workspace's), and the test
# binaries and the MCP suite start that file while the lanes run.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  build)
    cache=$2
    wheel_dir=$3
    maturin_venv="$cache/tools/maturin-1.16.0"
    if [ ! -x "$maturin_venv/bin/maturin" ]; then
      python3 -m venv "$maturin_venv"
      "$maturin_venv/bin/pip" install --quiet --disable-pip-version-check "maturin==1.16.0"
    fi
    # The dev profile reuses what the debug build compiled: this packs the binary.
    "$maturin_venv/bin/maturin" build --quiet --profile dev --locked -o "$wheel_dir"
    ;;
  test)
    wheel_dir=$2
    blender_python=$3
    wheel_venv=$(mktemp -d)
    trap 'rm -rf "$wheel_venv"' EXIT
    python3 -m venv "$wheel_venv"
    "$wheel_venv/bin/pip" install --quiet --disable-pip-version-check --no-index --no-deps "$wheel_dir"/capstan_mcp-*.whl
    CAPSTAN_WHEEL_VENV="$wheel_venv" "$blender_python" -m pytest -q tests/wheel
    ;;
  *)
    echo "usage: wheel_test.sh build CACHE WHEEL_DIR | test WHEEL_DIR BLENDER_PYTHON" >&2
    exit 2
    ;;
esac
