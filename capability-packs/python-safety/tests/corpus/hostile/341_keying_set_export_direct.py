# expect: blender-file-access
# Issue 26: keying_set_export writes a Python file; the bl_idname is written unescaped.
import bpy

scene = bpy.context.scene
scene.keying_sets.new(idname="x\nimport os\n")
bpy.ops.anim.keying_set_export()
