# expect: blender-code-execution
import bpy
bpy.app.driver_namespace["run"] = print
