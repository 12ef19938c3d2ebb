import bpy
bpy.utils.register_cli_command("evil", lambda argv: 0)
