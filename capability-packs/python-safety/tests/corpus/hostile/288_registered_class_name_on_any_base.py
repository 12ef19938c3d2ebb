# expect: blender-python-class
import bpy
mods = {'t': 1}
print(mods.get('x') or bpy.context.scene, getattr(bpy.context, 'WM_OT_context_toggle', None))
