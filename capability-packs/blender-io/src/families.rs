//! The routing families this pack serves, with the words that send a request to them.
//! Cues avoid other packs' phrases: "hdri" and "environment" stay `world`, "texture"
//! stays `material`, "snapshot" stays `inspect`, "empty" and "plane" stay `create`, and
//! "blend" is never a single-word cue (it would match "blender").

use capstan_sdk::Family;

pub fn families() -> Vec<Family> {
    vec![
        Family::new("io", "Files in and out: import and export 3D formats, save and open .blend files, append from libraries, image planes, file paths made relative or absolute, images packed")
            .cues(5, &["import", "export", "glb", "gltf", "fbx", "stl file", "obj file", "ply file", "usd", "usdz", "alembic", "blend file", "save the file",
                       "save the scene", "save as", "save a copy", "open the file", "open the saved", "new file", "empty file", "blank scene", "start over",
                       "append", "link from", "image plane", "as a plane", "on a plane", "reference image", "reference photo", "3d print",
                       "make paths", "make all paths", "make the paths", "make file paths", "make all file paths", "make the file paths",
                       "pack the images", "pack images", "pack all images", "pack the textures", "pack textures", "pack all textures",
                       "pack resources", "external data"])
            .cues(4, &["stl", "obj", "ply", "file format", "to disk", "bring in"]),
        Family::new("assets", "Local asset libraries (never the network): search, bring in assets, HDRIs and PBR texture sets, mark assets")
            .cues(5, &["asset", "assets", "asset library", "my library", "the library", "texture set", "pbr", "poly haven", "polyhaven", "sketchfab",
                       "mark as an asset", "hdris in", "hdri library"])
            .cues(4, &["tagged", "catalog"]),
    ]
}
