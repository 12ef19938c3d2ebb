import bpy
ops = bpy.context.window_manager.operators
