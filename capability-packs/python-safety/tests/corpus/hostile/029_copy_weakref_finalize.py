# expect: dangerous-name
import bpy
import copy
copy.weakref.finalize(bpy.context.scene, print, "outlives the script")
