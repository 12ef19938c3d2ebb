import bpy
TextCls = bpy.types.Text
TextCls.as_module
