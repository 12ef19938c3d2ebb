# expect: blender-file-access
import bpy
t = bpy.data.texts.load("/root/.aws/credentials")
print(t.as_string())
