#!/bin/sh
# The FreeCAD bridge's tests against real FreeCAD (freecadcmd), with pytest from a venv
# over the system Python that FreeCAD's Debian package uses. FreeCAD missing: the tests
# fail (they never skip). Usage: bridges/freecad/test.sh [pytest args]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
venv=${CAPSTAN_FREECAD_VENV:-$HOME/.cache/capstan/freecad-venv}
if [ ! -x "$venv/bin/pytest" ]; then
    /usr/bin/python3 -m venv --system-site-packages "$venv"
    "$venv/bin/python" -m pip install --quiet pytest
fi
cd "$here"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider tests "$@"
