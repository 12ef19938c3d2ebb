import bpy
bpy.ops.screen.screenshot(filepath="/tmp/screen.png")
