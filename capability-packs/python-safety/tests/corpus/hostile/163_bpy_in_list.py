# expect: blender-code-execution
import bpy
mods = [bpy]
mods[0].ops.file.unpack_all(method="WRITE_LOCAL")
