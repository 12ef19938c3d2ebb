from bpy import msgbus as mb, types as t
mb.subscribe_rna(key=(t.Object, "name"), owner=t, args=(), notify=lambda: None)
