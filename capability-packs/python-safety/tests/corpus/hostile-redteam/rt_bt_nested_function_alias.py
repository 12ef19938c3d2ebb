import bpy
def outer():
    T = bpy.types
    def inner():
        return T.SCRIPT_OT_execute_preset
    return inner()
