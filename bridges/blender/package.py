"""Package the add-on both ways:

- `capstan_bridge-<version>-extension.zip`: a Blender extension (files at the
  zip root, with blender_manifest.toml); install with Preferences > Get Extensions >
  Install from Disk, or `blender --command extension install-file`.
- `capstan_bridge-<version>-legacy.zip`: a legacy add-on (a `capstan_bridge/` folder
  with bl_info); install with Preferences > Add-ons > Install.

Both need Blender 4.5 LTS or newer (tested on 4.5 LTS and 5.2 LTS).

The shared bridge core (`bridges/core/capstan_bridge_core/`) is the package's `core`
subpackage through a symlink in the source tree; the zips hold its files as plain
files under `core/` (the walk follows the link), so an installed add-on is
self-contained.

    python3 package.py [OUT_DIR]        # default: ../../target/addon
"""

import os
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(HERE, "capstan_bridge")


def version():
    for line in open(os.path.join(PACKAGE, "blender_manifest.toml"), encoding="utf-8"):
        if line.startswith("version"):
            return line.split("=", 1)[1].strip().strip('"')
    raise SystemExit("blender_manifest.toml has no version")


def files():
    for root, dirs, names in os.walk(PACKAGE, followlinks=True):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if not name.endswith((".pyc", ".pyo")):
                full = os.path.join(root, name)
                yield full, os.path.relpath(full, PACKAGE)


def build(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    v = version()
    extension = os.path.join(out_dir, "capstan_bridge-%s-extension.zip" % v)
    legacy = os.path.join(out_dir, "capstan_bridge-%s-legacy.zip" % v)
    with zipfile.ZipFile(extension, "w", zipfile.ZIP_DEFLATED) as z:
        for full, rel in files():
            z.write(full, rel)
    with zipfile.ZipFile(legacy, "w", zipfile.ZIP_DEFLATED) as z:
        for full, rel in files():
            if rel != "blender_manifest.toml":
                z.write(full, os.path.join("capstan_bridge", rel))
    return extension, legacy


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "target", "addon")
    for path in build(os.path.abspath(out)):
        print(path)
