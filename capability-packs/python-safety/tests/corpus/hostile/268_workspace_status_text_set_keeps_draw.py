# expect: blender-persistence
import bpy
bpy.context.workspace.status_text_set(lambda self, ctx: None)
