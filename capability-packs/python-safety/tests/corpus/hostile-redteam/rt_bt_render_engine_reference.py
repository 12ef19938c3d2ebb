import bpy
engines = [bpy.types.RenderEngine]
