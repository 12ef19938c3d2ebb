"""Scene deltas that cost what changed, not what the scene holds.

A mutating command says what it touches, through the `Tracker` its context carries
(`ctx.delta`): an object it is about to change, one it created, one it is about to
remove, a datablock, a scene-level settings domain. The tracker fingerprints exactly
those things before the command changes them and again afterwards, and reports the
difference (`tracker.py`). Nothing walks the whole scene.

Two nets catch a command that under-reports:
- always: the object and datablock counts (`len(bpy.data.objects)` is O(1)) before and
  after; a count that moved by more than the command reported triggers a name-set
  comparison of that collection (logged as a bridge bug);
- in verification mode (`CAPSTAN_BRIDGE_VERIFY_DELTA=1`, on in capstan's tests), a full
  snapshot before and after (`full.py`, O(scene)) must give the same delta, or the
  command fails with `delta_mismatch`.

Fingerprints (`fingerprint.py`) cover objects (transform, visibility, parenting,
collections, modifiers, constraints, materials, data, shape keys, animation, physics,
pose, custom properties), datablocks (materials and worlds with their node trees,
collections, images, actions, node groups) and settings domains (render, world,
scene). Objects and datablocks are keyed by `session_uid`, so a rename is a change,
not a removal and an addition.
"""

from .tracker import ReadOnly, Tracker

__all__ = ["ReadOnly", "Tracker"]
