# expect: dynamic-attribute
import bpy
NAMES = ["resolution_x"]
alias = max(NAMES, NAMES)
alias.append("file" + "path")
for k in NAMES:
    setattr(bpy.context.scene.render, k, "/tmp/evil")
