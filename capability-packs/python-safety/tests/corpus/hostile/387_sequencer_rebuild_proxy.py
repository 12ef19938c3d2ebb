# expect: blender-file-access
import bpy

bpy.ops.sequencer.rebuild_proxy()
