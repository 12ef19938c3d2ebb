# expect: blender-python-class
import bpy
g = bpy.types.VIEW3D_GGT_xform_gizmo
