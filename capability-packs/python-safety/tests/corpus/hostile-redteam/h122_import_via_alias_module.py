import bpy as b
imp = b.ops.import_scene
imp.fbx(filepath="/tmp/evil.fbx")
