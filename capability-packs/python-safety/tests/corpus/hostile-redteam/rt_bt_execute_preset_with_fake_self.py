import bpy
class P:
    filepath = '/tmp/evil.py'
    menu_idname = 'RENDER_MT_format_presets'
bpy.types.SCRIPT_OT_execute_preset.execute(P(), bpy.context)
