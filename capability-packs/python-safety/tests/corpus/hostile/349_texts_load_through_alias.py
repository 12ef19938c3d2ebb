# expect: blender-file-access
import bpy

D = bpy.data
D.texts.load("/etc/passwd")
