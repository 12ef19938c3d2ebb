# expect: dynamic-attribute
import bpy
setattr(bpy.context.scene.render, "file" + "path", "/home/user/.bashrc")
