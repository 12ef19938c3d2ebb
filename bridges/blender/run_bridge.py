"""Start the capstan bridge in a Blender that is starting up.

    blender -b --factory-startup --python run_bridge.py -- [--port N] [--runtime-file PATH]
    python3.11 run_bridge.py [--port N] [--runtime-file PATH]        # with PyPI `bpy`
    blender --python run_bridge.py -- [...]                          # GUI

Background (`-b`, or Blender as a Python module): the main thread stays in the
bridge's loop and runs queued bpy work until SIGINT/SIGTERM (timers never fire in
background mode); the HTTP thread keeps answering /ping meanwhile.
GUI: the bridge starts in timer mode and Blender's own event loop goes on.

The import path (issue 26) is arranged by the shared core's `import_path.py`
(`arrange_import_path`, whose doc gives the reasoning), read by its path from the
package's `core/` folder before this script imports anything beyond `os` and `sys`.
Then, at start, the add-on's folder is probed for writes with real file operations
(core/addon_folder.py) and a warning goes to stderr if any part of it can be
written: the kernel layer is what must make it read-only.
"""

import os
import sys

_FOLDER = os.path.dirname(os.path.abspath(__file__))


def _import_path_module(folder):
    """The core's import_path.py, run from its file (no import by name: the path is not
    arranged yet)."""
    where = os.path.join(folder, "capstan_bridge", "core", "import_path.py")
    namespace = {"__name__": "capstan_bridge_import_path", "__file__": where}
    with open(where, encoding="utf-8") as f:
        exec(compile(f.read(), where, "exec"), namespace)
    return namespace


_import_path = _import_path_module(_FOLDER)
arrange_import_path = _import_path["arrange_import_path"]


def main(argv):
    import argparse
    import faulthandler

    # A crash inside Blender's C code leaves only this: the Python stacks of every
    # thread at the fatal signal, on stderr (capstan's log of this instance).
    faulthandler.enable(all_threads=True)

    if "--" in argv:
        argv = argv[argv.index("--") + 1:]
    elif argv and argv[0].endswith(".py"):
        argv = argv[1:]
    parser = argparse.ArgumentParser(prog="run_bridge.py")
    parser.add_argument("--port", type=int, default=None)
    parser.add_argument("--runtime-file", default=None)
    parser.add_argument("--output-dir", default=None)
    parser.add_argument("--debug", action="store_true")
    # A launch by capstan: the listening socket and the secrets (token, exec key) come
    # through inherited descriptors, and capstan writes the runtime record itself.
    parser.add_argument("--listen-fd", type=int, default=None)
    parser.add_argument("--secrets-fd", type=int, default=None)
    parser.add_argument("--no-runtime-file", action="store_true")
    args = parser.parse_args(argv)

    import bpy  # Blender's own, or the PyPI module
    from capstan_bridge.bridge import Bridge
    from capstan_bridge.commands import long_calls

    handed = None
    if args.listen_fd is not None or args.secrets_fd is not None:
        from capstan_bridge.core import handover

        handed = handover.take(args.listen_fd, args.secrets_fd)
        if args.secrets_fd is not None:
            from capstan_bridge.containment import attestation

            attestation.set_key(handed.secrets.get("exec_key"))
        # Launched (and confined) by capstan: from here on nothing may exec.
        handed.exec_forbidden = handover.forbid_exec()
    # Started again after a cancelled long call: the scene as it was before that call
    # (opened once exec is forbidden, with the file's scripts off).
    if long_calls.restore_checkpoint():
        print("capstan bridge: restored the scene from the checkpoint", file=sys.stderr)
    bridge = Bridge(
        port=args.port,
        runtime_path=None if args.no_runtime_file else args.runtime_file,
        output_dir=args.output_dir,
        debug=args.debug,
        handed=handed,
        publish=not args.no_runtime_file,
    )
    if bpy.app.background:
        bridge.run_background()
    else:
        bridge.start_gui()


if __name__ == "__main__":
    sys.path[:] = arrange_import_path(sys.path, _FOLDER, os.path.dirname(getattr(os, "__file__", "") or ""))
    _import_path["load_own_package"](_FOLDER, "capstan_bridge")
    from capstan_bridge.core import addon_folder

    addon_folder.warn_if_writable(_FOLDER, "capstan_bridge", "Blender")
    main(sys.argv)
