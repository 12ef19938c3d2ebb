//! The routing families this pack serves. `animation` and `rigging` are also declared
//! by blender-core (the host merges a family's cues across packs): the cues here are
//! only the words of this pack's capabilities, and none of blender-core's phrases
//! ("animate", "keyframe", "turntable", "constraint", "armature", ...) is repeated or
//! shadowed. `physics` is this pack's own.

use capstan_sdk::Family;

pub fn families() -> Vec<Family> {
    vec![
        Family::new("animation", "Keyframes and motion")
            .cues(4, &["interpolation", "easing", "ease in", "ease out", "linear motion", "frame range", "frame rate", "fps", "shape key", "shape keys", "blend shape", "morph target", "once around", "360"])
            // 5: above mutate's "remove"/"delete"/"clear the" (animation comes first in the table, so a tie is ours).
            .cues(5, &["keyframes", "all keys", "the animation", "rotation animation", "frames long", "follow path", "along the path", "along a curve", "along the curve", "playhead", "current frame", "go to frame", "jump to frame"]),
        Family::new("rigging", "Constraints, armatures and bones")
            .cues(4, &["vertex group", "vertex groups", "weight paint", "weights", "skin the", "skinning", "bind", "pose the", "pose bone", "posing", "spine", "joint"])
            // 6: rigging comes after mutate and object in the table, so it must beat "remove" and "parent" (5).
            .cues(6, &["bone", "to the rig", "to the armature", "limit rotation", "limit location", "limit scale", "limit the"]),
        Family::new("physics", "Physics simulation: rigid bodies, cloth, collisions, fluids, particles, force fields")
            .cues(5, &["physics", "rigid body", "rigidbody", "simulate", "simulation", "cloth", "fabric", "fluid", "smoke", "liquid", "mantaflow", "particle", "particles", "force field", "collision", "gravity"])
            // 6: "collider" contains spatial's "collide" (5, a check): making one is physics.
            .cues(6, &["collider", "colliders", "passive", "active rigid"])
            .cues(4, &["hair", "vortex", "wind", "turbulence", "emitter", "drape"])
            .cues(3, &["fire", "bake the"]),
    ]
}
