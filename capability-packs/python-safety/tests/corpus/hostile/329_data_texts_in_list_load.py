# expect: blender-value-escape
# Issue 26, finding 2: a text block loaded from outside every root.
import bpy

secret = [bpy.data.texts][0].load("/etc/passwd")
result = secret.as_string()
