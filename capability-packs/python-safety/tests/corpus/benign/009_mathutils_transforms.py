from math import radians
from mathutils import Vector, Matrix, Euler, Quaternion

a = Vector((1.0, 2.0, 3.0))
b = Vector((0.0, 1.0, 0.0))
print("dot", a.dot(b), "cross", a.cross(b), "length", round(a.length, 3))
print("normalized", a.normalized())

rot = Matrix.Rotation(radians(90), 4, 'Z')
loc = Matrix.Translation((2.0, 0.0, 0.0))
world = loc @ rot
print("transformed", world @ Vector((1.0, 0.0, 0.0)))

e = Euler((radians(30), radians(45), radians(60)), 'XYZ')
q = e.to_quaternion()
print("quaternion", q)
print("back to euler", q.to_euler())

q2 = Quaternion((0.0, 0.0, 1.0), radians(180))
mid = q.slerp(q2, 0.5)
print("slerp", mid)
print("angle between", round(a.angle(b), 4))
