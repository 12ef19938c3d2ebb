"""The checker's list of names allowed under `bpy.types`
(capability-packs/python-safety/src/bpy_types.txt), checked against this Blender: every
listed name is one of Blender's own data types, and no class Blender registered from
Python is listed (their methods evaluate strings and write files with any `self`)."""

import os
import sys

import bpy
import pytest

PACK = os.path.join(os.path.dirname(__file__), "..", "..", "..", "capability-packs", "python-safety")
sys.path.insert(0, os.path.join(PACK, "tools"))

import list_bpy_types  # noqa: E402


def listed():
    with open(os.path.join(PACK, "src", "bpy_types.txt"), encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def test_the_list_is_what_the_tool_reads_from_this_blender():
    names = listed()
    assert names == sorted(names), "bpy_types.txt must stay sorted (the checker binary-searches it)"
    if bpy.app.version_string.startswith("5.0"):
        assert names == list_bpy_types.allowed_names(), "regenerate with tools/list_bpy_types.py"


def test_no_python_registered_class_is_listed():
    for name in listed():
        cls = getattr(bpy.types, name, None)
        if cls is None:
            continue  # a type of another Blender version
        # `_bpy_types` holds the Python helpers of Blender's data types; 4.5 LTS calls it `bpy_types`.
        assert cls.__module__ in ("bpy.types", "_bpy_types", "bpy_types", "builtins"), name
        assert name not in list_bpy_types.REGISTRABLE_BASES, name


@pytest.mark.parametrize("name", ["WM_OT_context_toggle", "WM_OT_context_set_value", "SCRIPT_OT_execute_preset", "NODE_OT_add_node", "ANIM_OT_keying_set_export", "Menu", "Operator", "Panel", "UI_UL_list"])
def test_the_routes_of_the_issue_are_not_listed(name):
    assert hasattr(bpy.types, name)
    assert name not in listed()


def test_the_data_types_scripts_name_are_listed():
    for name in ("Mesh", "Object", "ShaderNodeBsdfPrincipled", "Material", "Scene", "Camera", "Light", "ID", "bpy_struct"):
        assert name in listed(), name
