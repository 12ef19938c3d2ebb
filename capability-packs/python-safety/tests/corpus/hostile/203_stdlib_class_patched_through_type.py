# expect: blender-persistence
import json
def evil(self, o):
    return "hijacked"
type(json.JSONEncoder()).default = evil
