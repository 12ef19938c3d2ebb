import bpy
print(bpy.data.texts.load("/etc/passwd").as_string())
