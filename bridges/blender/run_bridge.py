"""Start the capstan bridge in a Blender that is starting up.

    blender -b --factory-startup --python run_bridge.py -- [--port N] [--runtime-file PATH]
    python3.11 run_bridge.py [--port N] [--runtime-file PATH]        # with PyPI `bpy`
    blender --python run_bridge.py -- [...]                          # GUI

Background (`-b`, or Blender as a Python module): the main thread stays in the
bridge's loop and runs queued bpy work until SIGINT/SIGTERM (timers never fire in
background mode); the HTTP thread keeps answering /ping meanwhile.
GUI: the bridge starts in timer mode and Blender's own event loop goes on.

The import path (issue 26: a module planted in the add-on's folder, first on
`sys.path`, shadowed the standard library's and ran at the next import). Before this
script imports anything beyond `os` and `sys` (both loaded by the interpreter itself),
`arrange_import_path` makes sure that:
- the add-on's folder is on the path once, at the end: what it holds is found only
  when nothing else provides the name; capstan's own `capstan_bridge` package is
  loaded from this folder by path (`load_own_package`), not found by name;
- no entry is relative or empty (`''` is the working directory, wherever Blender was
  started from);
- nothing that this process may write comes before the standard library: an entry
  before the first one under the standard library's folder that is writable by this
  process (or does not exist yet and could be created) is moved to just after the
  standard library's entries, keeping its order. Checked with `os.access`, which
  over-approximates (root may write anywhere; the kernel's Landlock rules are not
  consulted), so it errs towards moving an entry, which changes no name the standard
  library provides.
Then, at start, the add-on's folder is probed for writes with real file operations
(containment/addon_folder.py) and a warning goes to stderr if any part of it can be
written: the kernel layer is what must make it read-only.
"""

import os
import sys


def _under(path, folder):
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _may_write(path):
    """May this process write `path`, or create it (its nearest existing ancestor)?"""
    probe = path
    while not os.path.exists(probe):
        parent = os.path.dirname(probe)
        if parent == probe:
            return False
        probe = parent
    return os.access(probe, os.W_OK)


def arrange_import_path(path, addon_folder, stdlib_dir, may_write=_may_write):
    """The import path to use (see the module doc); `path` is not changed."""
    here = os.path.realpath(addon_folder)
    entries = []
    for entry in path:
        if type(entry) is not str or not os.path.isabs(entry):
            continue  # '' and relative entries name the working directory
        if os.path.realpath(entry) == here or entry in entries:
            continue
        entries.append(entry)
    if stdlib_dir:
        stdlib = os.path.realpath(stdlib_dir)
        inside = [i for i, e in enumerate(entries) if _under(os.path.realpath(e), stdlib)]
        if inside:
            first = inside[0]
            last = first
            while last + 1 < len(entries) and _under(os.path.realpath(entries[last + 1]), stdlib):
                last += 1
            before = entries[:first]
            moved = [e for e in before if may_write(e)]
            kept = [e for e in before if e not in moved]
            entries = kept + entries[first:last + 1] + moved + entries[last + 1:]
    return entries + [addon_folder]


def load_own_package(addon_folder):
    """Import `capstan_bridge` from `addon_folder` itself, whatever else is on the path
    (a copy installed as a legacy add-on in Blender's writable scripts folder would
    otherwise come first now that this folder is last); its submodules then come from
    the same folder, through the package's `__path__`."""
    import importlib.util

    package = os.path.join(addon_folder, "capstan_bridge")
    spec = importlib.util.spec_from_file_location("capstan_bridge", os.path.join(package, "__init__.py"),
                                                  submodule_search_locations=[package])
    module = importlib.util.module_from_spec(spec)
    sys.modules["capstan_bridge"] = module
    spec.loader.exec_module(module)
    return module


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

    handed = None
    if args.listen_fd is not None or args.secrets_fd is not None:
        from capstan_bridge import handover

        handed = handover.take(args.listen_fd, args.secrets_fd)
        # Launched (and confined) by capstan: from here on nothing may exec.
        handed.exec_forbidden = handover.forbid_exec()
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
    _folder = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = arrange_import_path(sys.path, _folder, os.path.dirname(getattr(os, "__file__", "") or ""))
    load_own_package(_folder)
    from capstan_bridge.containment import addon_folder

    addon_folder.warn_if_writable(_folder)
    main(sys.argv)
