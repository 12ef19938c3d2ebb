"""Start the capstan bridge in a headless FreeCAD.

    freecadcmd run_bridge.py -- [--port N] [--runtime-file PATH] [--output-dir DIR] [--debug]
    /usr/bin/python3 run_bridge.py [...]    # the Python FreeCAD was built for (Debian: 3.11)

freecadcmd refuses options it does not know, so the bridge's own come after `--`; it
runs this file as a module named `run_bridge`, not `__main__`, so the script starts the
bridge when it is the program (`sys.argv[0]` is this file), and not when imported.
The main thread stays in the bridge's loop and runs every queued command (FreeCAD's
document API is not thread-safe) until SIGINT/SIGTERM; the HTTP thread answers /ping
meanwhile. The runtime file defaults to `$CAPSTAN_HOME/run/freecad/server.json`.

A launch by capstan passes `--listen-fd` and `--secrets-fd` (the listening socket and
the token through inherited descriptors, `core/handover.py`) with `--no-runtime-file`,
as for Blender; nothing may exec afterwards.

The import path (issue 26) is arranged by the shared core's `import_path.py`
(`arrange_import_path`, whose doc gives the reasoning), read by its path from the
package's `core/` folder before this script imports anything beyond `os` and `sys`;
`capstan_freecad` is then loaded from this folder by path. Then, at start, the
bridge's folder is probed for writes with real file operations (core/addon_folder.py)
and a warning goes to stderr if any part of it can be written: the kernel layer is what
must make it read-only.
"""

import os
import sys

_FOLDER = os.path.dirname(os.path.abspath(__file__))
_PACKAGE = "capstan_freecad"


def _import_path_module(folder):
    """The core's import_path.py, run from its file (no import by name: the path is not
    arranged yet)."""
    where = os.path.join(folder, _PACKAGE, "core", "import_path.py")
    namespace = {"__name__": "capstan_freecad_import_path", "__file__": where}
    with open(where, encoding="utf-8") as f:
        exec(compile(f.read(), where, "exec"), namespace)
    return namespace


def _import_freecad():
    """freecadcmd has FreeCAD loaded; a plain Python 3 finds it in FreeCAD's library
    folder (CAPSTAN_FREECAD_LIB, default Debian's /usr/lib/freecad/lib), appended to the
    end of the path so that it shadows nothing."""
    try:
        import FreeCAD  # noqa: F401
    except ImportError:
        sys.path.append(os.environ.get("CAPSTAN_FREECAD_LIB") or "/usr/lib/freecad/lib")
        import FreeCAD  # noqa: F401


def main(argv):
    import argparse
    import faulthandler

    # A crash inside FreeCAD's C++ leaves only this: every thread's Python stack.
    faulthandler.enable(all_threads=True)
    argv = argv[argv.index("--") + 1:] if "--" in argv else argv[1:]
    parser = argparse.ArgumentParser(prog="run_bridge.py")
    parser.add_argument("--port", type=int, default=None)
    parser.add_argument("--runtime-file", default=None)
    parser.add_argument("--output-dir", default=None)
    parser.add_argument("--debug", action="store_true")
    parser.add_argument("--listen-fd", type=int, default=None)
    parser.add_argument("--secrets-fd", type=int, default=None)
    parser.add_argument("--no-runtime-file", action="store_true")
    args = parser.parse_args(argv)

    _import_freecad()
    from capstan_freecad.bridge import Bridge

    handed = None
    if args.listen_fd is not None or args.secrets_fd is not None:
        from capstan_freecad.core import handover

        handed = handover.take(args.listen_fd, args.secrets_fd)
        # Launched (and confined) by capstan: from here on nothing may exec.
        handed.exec_forbidden = handover.forbid_exec()
    Bridge(
        port=args.port,
        runtime_path=None if args.no_runtime_file else args.runtime_file,
        output_dir=args.output_dir,
        debug=args.debug or os.environ.get("CAPSTAN_BRIDGE_DEBUG") == "1",
        handed=handed,
        publish=not args.no_runtime_file,
    ).run_background()


if sys.argv and os.path.abspath(sys.argv[0]) == os.path.abspath(__file__):
    _import_path = _import_path_module(_FOLDER)
    sys.path[:] = _import_path["arrange_import_path"](sys.path, _FOLDER, os.path.dirname(getattr(os, "__file__", "") or ""))
    _import_path["load_own_package"](_FOLDER, _PACKAGE)
    from capstan_freecad.core import addon_folder

    addon_folder.warn_if_writable(_FOLDER, _PACKAGE, "FreeCAD")
    _code = 0
    try:
        main(sys.argv)
    except SystemExit as _exit:
        _code = _exit.code if isinstance(_exit.code, int) else 1
    except BaseException:  # noqa: BLE001 - reported, then the process ends below
        import traceback

        traceback.print_exc()
        _code = 1
    finally:
        # freecadcmd opens every argument after the script as a document once the
        # script returns (`--` included): the bridge's own options (a runtime-file path,
        # descriptor numbers, the output folder) must never reach it. So the process
        # ends here, after the exit handlers (the runtime file's removal among them).
        import atexit

        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_code)
