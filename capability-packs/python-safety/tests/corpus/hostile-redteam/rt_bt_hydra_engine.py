import bpy
bpy.types.HydraRenderEngine
