# expect: blender-persistence
import bpy
bpy.context.scene.cycles.unregister()
