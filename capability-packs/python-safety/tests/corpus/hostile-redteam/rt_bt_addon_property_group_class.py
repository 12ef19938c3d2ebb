import bpy
print(bpy.types.CyclesRenderSettings)
