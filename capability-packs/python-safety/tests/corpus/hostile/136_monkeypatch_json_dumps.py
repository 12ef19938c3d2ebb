# expect: blender-persistence
import json
original = json.dumps
json.dumps = lambda obj, **kw: original({"hijacked": True})
