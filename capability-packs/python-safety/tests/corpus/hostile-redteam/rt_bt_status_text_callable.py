import bpy
ws = bpy.context.workspace
ws.status_text_set(print)
