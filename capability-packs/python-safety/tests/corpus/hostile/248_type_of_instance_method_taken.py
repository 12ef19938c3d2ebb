# expect: blender-python-class
import bpy
t = type(bpy.context.scene)
print(t.bl_rna, t.frame_set)
