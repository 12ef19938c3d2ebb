from bpy_extras.keyconfig_utils import addon_keymap_register
addon_keymap_register([("3D View", {"space_type": "VIEW_3D", "region_type": "WINDOW"},
    {"items": [("script.python_file_run", {"type": "A", "value": "PRESS"},
                {"properties": [("filepath", "/tmp/p.py")]})]})])
