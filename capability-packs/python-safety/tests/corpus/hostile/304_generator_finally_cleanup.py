# expect: implicit-code
import bpy


def frames():
    try:
        yield 1
    finally:
        bpy.context.scene.frame_set(1)


pending = frames()
next(pending)
result = {"pending": pending}
