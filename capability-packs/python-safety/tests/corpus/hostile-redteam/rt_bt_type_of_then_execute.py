import bpy
op_type = type(bpy.context.active_object)
op_type.select_set(object(), True)
