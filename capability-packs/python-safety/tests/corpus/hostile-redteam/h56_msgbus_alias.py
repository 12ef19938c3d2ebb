import bpy
mb = bpy.msgbus
owner = object()
mb.subscribe_rna(key=(bpy.types.Object, "location"), owner=owner, args=(), notify=lambda: None)
