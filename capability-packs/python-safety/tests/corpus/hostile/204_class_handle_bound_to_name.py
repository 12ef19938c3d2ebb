# expect: blender-persistence
import json
def evil(self, o):
    return "hijacked"
T = type(json.JSONEncoder())
T.default = evil
