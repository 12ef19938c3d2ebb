"""The selection and the active object, as a delta sees them.

Selection is state the user sees (in GUI Blender it is how a user and an agent point at
things) and undo restores, so a command that changes it reports it: the settings domain
`selection` in the delta. A command that changes the selection on purpose says so
(`ctx.delta.touch_selection()`), and its tracker reads the view layer's selection before
and after. `view_layer.objects.selected` is filtered in C, so the cost is the number of
selected objects, plus one `foreach_get` over the objects' `session_uid` (C speed) to
tell new and removed objects from the others.

The whole-scene snapshot of verification mode leaves the selection out, and the
comparison ignores the domain: Blender's selected list leaves out hidden objects, but
only after the depsgraph has evaluated their visibility, so hiding a selected object
would read as a selection change at one moment and not at the next. Commands that use
the selection as a tool (operators that need one) restore it themselves.

What counts as a change, among objects that exist before and after: one was selected
or deselected, or another object became active. Objects the command added or removed
are reported as added or removed already; that a new object arrives selected or that
removing the active object leaves none active is not a selection change of its own.
Right after an object is removed, the view layer's selected list may still hold an
empty entry for it until the layer resyncs; such entries are skipped.
"""

import array

import bpy

DOMAIN = "selection"


def _object_uids():
    objects = bpy.data.objects
    uids = array.array("i", [0]) * len(objects)
    if len(objects):
        objects.foreach_get("session_uid", uids)
    return frozenset(uids)


def state():
    """(selected uids, active uid or None, every object's uid): plain values, so a
    snapshot kept between commands holds no reference into Blender's memory."""
    layer = bpy.context.view_layer
    active = layer.objects.active  # first: reading it brings the layer's object list up to date
    selected = frozenset(o.session_uid for o in layer.objects.selected if o is not None)
    return selected, None if active is None else active.session_uid, _object_uids()


def changed(before, after):
    """Whether the selection or the active object changed between two `state()`s."""
    sel_b, act_b, all_b = before
    sel_a, act_a, all_a = after
    if any(uid not in sel_a and uid in all_a for uid in sel_b):
        return True  # an object that is still there was deselected
    if any(uid in all_b for uid in sel_a - sel_b):
        return True  # an object that was there already was selected
    if act_a == act_b:
        return False
    if act_a is None:
        return act_b in all_a  # the active one is still there but no longer active
    return act_a in all_b  # another existing object became active
