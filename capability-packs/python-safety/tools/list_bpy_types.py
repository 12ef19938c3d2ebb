"""Writes src/bpy_types.txt: the names under `bpy.types` a checked script may use (for
isinstance checks, annotations, comparisons), read from a real Blender.

    <python with bpy> tools/list_bpy_types.py > src/bpy_types.txt

A name is listed when its class is Blender's own data type: defined in C (module
`bpy.types`, or the C wrappers in `builtins`), or one of the data types that
`_bpy_types` extends with Python helpers whose methods, whatever `self` they are given,
only read and write scene data (Object.children, Mesh.from_pydata, ...). Everything else
is left out, and so rejected by the checker wherever it is named:
- every class Blender (or an add-on) registered from Python: operators (`WM_OT_*`),
  menus, panels, headers, UI lists, gizmos, asset shelves, file handlers, render
  engines, property groups; their methods evaluate strings, import modules, start
  processes or write files with the real builtins of Blender's own modules;
- the Python base classes those are made from (Operator, Menu, Panel, ...): they are
  only useful registered, and their Python methods (Menu.path_menu lists any directory)
  take any object as `self`.
`bridges/blender/tests/test_checker_bpy_types.py` checks the list against the installed
Blender.
"""

import sys

import bpy

# Python base classes of registrable types (from _bpy_types): never listed.
REGISTRABLE_BASES = frozenset("""AddonPreferences AssetShelf FileHandler Gizmo GizmoGroup Header
HydraRenderEngine KeyingSetInfo Macro Menu Operator Panel PropertyGroup RenderEngine UIList USDHook""".split())


def allowed_names():
    names = []
    for name in dir(bpy.types):
        if name.startswith("_"):
            continue
        cls = getattr(bpy.types, name, None)
        if not isinstance(cls, type) or name in REGISTRABLE_BASES:
            continue
        if cls.__module__ in ("bpy.types", "_bpy_types", "bpy_types", "builtins"):  # bpy_types: 4.5 LTS's _bpy_types
            names.append(name)
    return sorted(names)


def main():
    out = sys.stdout
    out.write("# Names under bpy.types a checked script may use, from Blender %s\n" % bpy.app.version_string)
    out.write("# (written by tools/list_bpy_types.py; sorted, one a line)\n")
    for name in allowed_names():
        out.write(name + "\n")


if __name__ == "__main__":
    main()
