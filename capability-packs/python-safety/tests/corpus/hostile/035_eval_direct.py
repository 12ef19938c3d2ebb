# expect: dangerous-builtin
import bpy
payload = bpy.context.scene.get("payload", "1")
print(eval(payload))
