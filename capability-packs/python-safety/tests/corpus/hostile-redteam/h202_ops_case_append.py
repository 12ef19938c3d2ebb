import bpy
bpy.ops.WM.append(directory="/tmp/evil.blend/Text/", filename="payload.py")
