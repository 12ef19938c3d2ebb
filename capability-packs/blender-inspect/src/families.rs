//! The routing family this pack serves. `inspect` is blender-core's family too: cues
//! merge across packs, so these add the words of looking closer (mesh data, RNA, a
//! preview picture) without taking blender-core's phrases ("how many", "list",
//! "describe", "inspect", "snapshot" stay as they are; "screenshot" stays `render`).

use capstan_sdk::Family;

pub fn families() -> Vec<Family> {
    vec![
        Family::new("inspect", "Look at the scene or an object without changing anything")
            .cues(4, &["vertex positions", "vertex data", "face data", "mesh data", "uv coordinates", "vertex weights", "scene graph", "scene tree", "outliner", "missing files", "missing textures", "linked libraries", "datablocks", "rna", "api docs", "enum values", "what properties", "preview image", "quick look", "what does it look like", "diagnostics", "sanity check", "manifold", "non manifold", "watertight", "loose geometry", "boundary edges", "flipped normals", "mesh quality", "zero area faces", "ngons"])
            .cues(3, &["vertices", "polygons", "topology", "normals", "shape keys", "attributes", "which modifiers", "which constraints", "file paths", "external files", "file references", "relative or absolute"]),
    ]
}
