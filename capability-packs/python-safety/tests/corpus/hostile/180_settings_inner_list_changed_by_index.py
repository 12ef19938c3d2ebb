# expect: dynamic-attribute
import bpy
pairs = [["resolution_x", 1]]
pairs[0][0] = "file" + "path"
for k, v in pairs:
    setattr(bpy.context.scene.render, k, "/tmp/evil")
