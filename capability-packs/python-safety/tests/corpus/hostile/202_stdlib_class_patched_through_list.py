# expect: blender-persistence
import json
def evil(self, o):
    return "hijacked"
[json.JSONEncoder][0].default = evil
