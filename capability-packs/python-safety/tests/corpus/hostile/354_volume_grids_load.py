# expect: blender-file-access
import bpy

vol = bpy.data.volumes.new("v")
vol.grids.load()
