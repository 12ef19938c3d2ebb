# expect: dynamic-attribute
import bpy
cat = "w" + "m"
getattr(bpy.ops, cat).quit_blender()
