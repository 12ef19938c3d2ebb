import bpy
shelf = bpy.types.AssetShelf
