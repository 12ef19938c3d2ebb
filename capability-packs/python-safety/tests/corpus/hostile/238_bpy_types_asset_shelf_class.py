# expect: blender-python-class
import bpy
shelf = bpy.types.VIEW3D_AST_pose_library
