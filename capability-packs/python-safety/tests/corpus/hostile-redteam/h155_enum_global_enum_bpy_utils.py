import enum
E = enum.Enum("E", [("_script_base_dir", "/tmp/evil_scripts")], module="bpy.utils", type=str)
enum.global_enum(E)
