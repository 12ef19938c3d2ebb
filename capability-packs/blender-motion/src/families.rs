//! The routing families this pack serves. `animation` and `rigging` are also declared
//! by blender-core (the host merges a family's cues across packs): the cues here are
//! only the words of this pack's capabilities, and none of blender-core's phrases
//! ("animate", "keyframe", "turntable", "constraint", "armature", ...) is repeated or
//! shadowed. `physics` is this pack's own.

use capstan_sdk::Family;

pub fn families() -> Vec<Family> {
    vec![
        Family::new("animation", "Keyframes and motion")
            .cues(4, &["interpolation", "easing", "ease in", "ease out", "linear motion", "frame range", "frame rate", "fps", "shape key", "blend shape", "morph target", "follow path", "along the path", "along a curve", "along the curve", "clear keyframes", "remove keyframes", "delete keyframes", "remove the animation", "360"]),
        Family::new("rigging", "Constraints, armatures and bones")
            .cues(4, &["vertex group", "weight paint", "weights", "skin the", "skinning", "bind", "pose the", "pose bone", "posing", "add a bone", "spine", "joint"]),
        Family::new("physics", "Physics simulation: rigid bodies, cloth, collisions, fluids, particles, force fields")
            .cues(5, &["physics", "rigid body", "rigidbody", "simulate", "simulation", "cloth", "fabric", "fluid", "smoke", "liquid", "mantaflow", "particle", "hair system", "force field", "collider", "gravity"])
            .cues(3, &["fire", "wind", "vortex", "turbulence", "drape", "fall onto", "drop onto", "bake the", "emitter", "collision"]),
    ]
}
