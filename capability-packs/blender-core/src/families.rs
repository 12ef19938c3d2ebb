//! The routing families blender-core serves, with the words that send a request to
//! each. The host builds its router from these (the key's prefix is a namespace, the
//! family is the routing class).
//!
//! Moving, rotating, renaming and deleting an object are one family, `mutate`, as the
//! catalog has it (`scene.modify_object`, `scene.delete_object`): they change an object
//! that exists. `object` is for an object's relations (parenting, collections).

use capstan_sdk::Family;

pub fn families() -> Vec<Family> {
    vec![
        Family::new("inspect", "Look at the scene or an object without changing anything")
            .cues(3, &["what s in", "whats in", "what is in", "how many", "list", "describe", "where is", "is there", "are there", "inspect", "overview", "tell me about", "show me", "which object", "snapshot", "compare the scene", "just tell me"]),
        Family::new("create", "Add new objects: primitives, empties, cameras, lights")
            .cues(3, &["add", "create", "make a", "make an", "insert", "spawn", "new", "place a", "put a", "build a"])
            .cues(1, &["cube", "sphere", "cylinder", "cone", "torus", "plane", "monkey", "suzanne"])
            // Primitive names holding another family's word ("uv"): a UV sphere is made, not unwrapped.
            .cues(6, &["uv sphere", "ico sphere", "icosphere"]),
        Family::new("mutate", "Change or delete existing objects: transform, visibility, name, modifiers")
            .cues(5, &["delete", "remove", "erase", "get rid of", "clear the", "destroy"])
            .cues(3, &["move", "rotate", "scale", "resize", "rename", "hide", "unhide", "bigger", "smaller", "taller", "shift", "translate", "turn"])
            // "make the cube twice as big": a factor of an existing object's size, not "make a".
            .cues(4, &["twice as", "half as", "times as big", "times bigger", "times larger"])
            .cues(4, &["modifier", "bevel", "subdivide", "subdivision", "smooth the", "mirror", "array", "solidify", "decimate", "wireframe"]),
        Family::new("object", "Objects as wholes: parents and children, collections, duplicates, selection, renaming any datablock")
            .cues(5, &["parent", "unparent", "child of", "attach", "hierarchy", "group under"]),
        Family::new("material", "Materials and colours of objects")
            .cues(4, &["material", "colour", "color", "paint", "chrome", "metal", "metallic", "gold", "copper", "glass", "plastic", "rubber", "shader", "texture", "look like", "roughness", "shiny", "glossy", "matte", "glow", "emissive", "red", "blue", "green"]),
        Family::new("lighting", "Lights and lighting rigs")
            .cues(4, &["light", "lighting", "lamp", "softbox", "three point", "illuminat", "key light", "rim light", "spotlight"]),
        Family::new("world", "The world: background colour, sky, environment")
            .cues(4, &["hdri", "background", "sky", "environment", "world", "ambient"]),
        Family::new("camera", "The camera: placement, aim, lens, depth of field")
            .cues(4, &["camera", "lens", "focal", "depth of field", "dof", "bokeh", "shot", "framing", "viewpoint"]),
        Family::new("render", "Render settings and rendering images")
            .cues(4, &["render", "png", "jpg", "jpeg", "final image", "take a picture", "screenshot", "still image"])
            .cues(2, &["resolution", "cycles", "eevee", "sample"]),
        Family::new("animation", "Keyframes and motion")
            .cues(4, &["animate", "animation", "keyframe", "key frame", "spin", "bounce", "turntable", "timeline", "motion"]),
        Family::new("rigging", "Constraints, armatures and bones")
            .cues(4, &["rig", "armature", "bone", "skeleton", "track to", "copy location", "follow"])
            .cues(5, &["constraint", "constrain"]),
    ]
}
