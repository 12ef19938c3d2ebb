"""The import path of a bridge's launcher script (`run_bridge.py` of each app).

Why (issue 26): a module planted in the add-on's folder, first on `sys.path`, shadowed
the standard library's and ran at the next import. Before the launcher
imports anything beyond `os` and `sys` (both loaded by the interpreter itself),
`arrange_import_path` makes sure that:
- the add-on's folder is on the path once, at the end: what it holds is found only
  when nothing else provides the name; capstan's own package (`capstan_bridge`,
  `capstan_freecad`) is loaded from this folder by path (`load_own_package`), not found by name;
- no entry is relative or empty (`''` is the working directory, wherever the app was
  started from);
- nothing that this process may write comes before the standard library: an entry
  before the first one under the standard library's folder that is writable by this
  process (or does not exist yet and could be created) is moved to just after the
  standard library's entries, keeping its order. Checked with `os.access`, which
  over-approximates (root may write anywhere; the kernel's Landlock rules are not
  consulted), so it errs towards moving an entry, which changes no name the standard
  library provides.
Then, at start, the add-on's folder is probed for writes with real file operations
(core/addon_folder.py) and a warning goes to stderr if any part of it can be
written: the kernel layer is what must make it read-only.

A launcher cannot import this module by name before the path is arranged (that is the
point), so it reads this file by its path, next to the package it launches
(`<package>/core/import_path.py`), and runs it with `exec`: only `os` and
`sys` are imported, both loaded by the interpreter itself.
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


def load_own_package(addon_folder, name):
    """Import the bridge's package `name` from `addon_folder` itself, whatever else is
    on the path (a copy installed as a legacy add-on in Blender's writable scripts
    folder would otherwise come first now that this folder is last); its submodules,
    the shared `core` included, then come from the same folder, through the package's
    `__path__`."""
    import importlib.util

    package = os.path.join(addon_folder, name)
    spec = importlib.util.spec_from_file_location(name, os.path.join(package, "__init__.py"),
                                                  submodule_search_locations=[package])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
