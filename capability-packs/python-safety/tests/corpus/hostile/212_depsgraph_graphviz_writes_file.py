# expect: blender-file-access
import bpy
dg = bpy.context.evaluated_depsgraph_get()
dg.debug_relations_graphviz(filepath="/home/user/.profile")
