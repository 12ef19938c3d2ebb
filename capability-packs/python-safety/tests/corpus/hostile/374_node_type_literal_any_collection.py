# expect: blender-file-access
import bpy

kinds = {"reader": "GeometryNodeImportOBJ"}
