from bpy.ops import WM as w
w.read_homefile(filepath="/tmp/evil.blend")
