from bpy.ops import wm
wm.open_mainfile(filepath="/tmp/evil.blend", load_ui=False)
