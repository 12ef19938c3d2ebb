# expect: blender-persistence
import json
def evil(self, o):
    return "hijacked"
for v in {"k": json.JSONEncoder}.values():
    v.default = evil
