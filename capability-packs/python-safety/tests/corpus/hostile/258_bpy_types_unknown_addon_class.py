# expect: blender-python-class
import bpy
print(bpy.types.MyAddonPanelThing)
