import bpy.types as bt
bt.Panel
