"""Bring the scene up to date around a command, so that what a command reads, and the
delta it reports, are what Blender would draw and render at the current frame.

Blender evaluates lazily. Setting `scale` leaves `Object.dimensions` at its old value,
adding a modifier leaves the evaluated mesh unbuilt, and inserting a keyframe at
another frame leaves the animated property at the value last written to it, until
something re-evaluates the scene (in the GUI, the next redraw or frame change). A read
that answers from those stale values reports a scene that does not exist (issue 27:
the cube scaled to 4 m tall still read 2 m; a turntable read 360 deg at frame 1).

Two steps, both on the main thread:
- `before_command()`, before every command, read or mutating: `view_layer.update()`
  evaluates what is tagged (matrices, dimensions, modifier stacks, constraints,
  drivers), including changes made outside capstan (the GUI, a script);
- `after_change(objects)`, after a mutating command and before its delta is measured:
  the objects whose keyframes the command changed are tagged for time re-evaluation,
  so their animated properties hold their keyed value at the current frame, as after
  a frame change in Blender. Only those: an unkeyed edit of some other animated object
  stays as the user made it until Blender's own next frame change, exactly as in the
  GUI.

Why not `scene.frame_set(frame_current)` before each command: it re-evaluates every
time-dependent thing, which steps simulations (a fluid domain in replay mode
simulates on a frame change) and runs frame-change handlers on every call. Tagging
only what the command changed costs nothing when nothing was animated (about 1 us
per call for the factory scene on 5.2) and never starts a simulation.
"""


def before_command():
    import bpy

    view_layer = getattr(bpy.context, "view_layer", None)
    if view_layer is not None:
        view_layer.update()


def after_change(objects):
    """Re-evaluate the animation of `objects` (whose keyframes just changed) at the
    current frame, then the dependency graph."""
    import bpy

    for obj in objects:
        obj.update_tag(refresh={"TIME"})
    view_layer = getattr(bpy.context, "view_layer", None)
    if view_layer is not None:
        view_layer.update()
