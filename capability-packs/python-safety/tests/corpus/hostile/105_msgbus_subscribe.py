# expect: blender-persistence
import bpy
owner = object()
bpy.msgbus.subscribe_rna(key=(bpy.types.Object, "location"), owner=owner, args=(), notify=lambda: print("moved"))
