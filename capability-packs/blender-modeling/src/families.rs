//! The routing families this pack serves, with cue words for its own capabilities.
//! Families merge across packs in the host's router: blender-core declares create,
//! mutate and object already, so the cues here are only the words that point at this
//! pack's capabilities (curves, text, booleans, joins, collections, ...), never ones
//! that would pull blender-core's phrases elsewhere ("array", "spin", "turn" stay out).

use capstan_sdk::Family;

pub fn families() -> Vec<Family> {
    vec![
        Family::new("create", "Add new objects: primitives, curves, text, meshes from data; convert between curve and mesh")
            .cues(3, &["curve", "bezier", "nurbs", "3d text", "text object", "lettering", "vertices", "convert to mesh", "convert to curve"]),
        Family::new("mutate", "Change existing geometry: apply modifiers, booleans, mesh edits, remesh, cleanup, join, separate, transforms")
            .cues(4, &["apply the", "boolean", "cut a hole", "carve", "extrude", "inset", "remesh", "voxel", "inflate", "flatten",
                       "merge by distance", "remove doubles", "purge", "clean up", "cleanup", "shade smooth", "shade flat", "auto smooth",
                       "normals", "join", "separate", "loose parts", "set origin", "origin to", "apply scale", "apply rotation",
                       "apply transform", "bisect", "triangulate", "poke", "dissolve", "sculpt", "subtract", "intersect", "shade", "pivot",
                       "split", "per material", "origin", "cutter", "hole in", "randomize", "randomise", "jitter"]),
        Family::new("object", "Objects as wholes: parents, duplicates, collections, custom properties, selection, renaming any datablock")
            .cues(5, &["duplicate", "clone", "copies of", "collection", "custom property", "property", "metadata", "tag"])
            // Selection is how a user points at things; "rename" alone stays blender-core's
            // mutate cue (renaming an object), the phrases below name other datablocks. Both
            // outweigh the words they come with ("select the objects with the red material"
            // is a selection, not a material change).
            .cues(9, &["select", "selected", "deselect", "selection", "active object", "make active"])
            .cues(9, &["rename the material", "rename the collection", "rename the mesh", "rename the image", "rename the world",
                       "rename the action", "rename the node group", "datablock", "data block", "misspelt", "misspelled"]),
        Family::new("generation", "Procedural generation: patterns, terrain, LOD chains, scattering, geometry nodes")
            .cues(5, &["terrain", "landscape", "mountains", "hills", "scatter", "distribute", "level of detail", "lod", "geometry nodes",
                       "node graph", "geometry node", "set position", "procedural", "radial pattern", "in a circle", "grid of", "row of", "ring of", "populate",
                       "lower poly", "low poly", "fewer polygons", "lighter versions"]),
    ]
}
