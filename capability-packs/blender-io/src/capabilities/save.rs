use crate::paths;
use capstan_blender::{SaveBlend, SaveBlendParams, save_blend};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SaveArgs {
    /// A bare file name ending in .blend, written to the session output folder.
    #[schemars(length(min = 7, max = 128), regex(pattern = r"^[A-Za-z0-9_. -]{1,122}\.blend$"))]
    pub filename: String,
    /// Compress the file (smaller, slower to open).
    #[serde(default)]
    pub compress: bool,
    /// Write a copy (default true): the session keeps working on its own file.
    #[serde(default = "yes")]
    pub copy: bool,
}

fn yes() -> bool {
    true
}

/// Save the scene as a .blend file in the session output folder.
///
/// `filename` is a bare name ending in .blend. By default a copy is written and the session
/// keeps its own file; `copy: false` makes the saved file the session's file (needed before
/// relative `//` paths can be used). The answer gives the path, size and object count.
#[capability(
    key = "io.save",
    family = "io",
    tags = ["save", "blend file", "file", "backup", "copy"],
    aliases = ["save_blend", "save_file", "system_save_file", "save_as"],
    examples = ["save the file as scene.blend", "save a compressed copy of the blend file", "write the project to a .blend"],
    uses = [SaveBlend],
    cases = cases,
)]
fn save(args: SaveArgs) -> PackResult<Value> {
    paths::output(&args.filename, "blend")?;
    Ok(json!(save_blend(&SaveBlendParams { filename: args.filename, compress: Some(args.compress), copy: Some(args.copy) })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a compressed copy").args(json!({ "filename": "copy.blend", "compress": true }))
            .result(json!({ "filename": "copy.blend", "copy": true, "compress": true })),
        Case::new("a copy holds an object made just before")
            .setup("scene.create_object", json!({ "type": "monkey", "name": "Suzanne" }))
            .args(json!({ "filename": "with-monkey.blend" }))
            .result(json!({ "objects": 4 })),
        Case::new("not a .blend name").args(json!({ "filename": "scene.glb" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a path").args(json!({ "filename": "../scene.blend" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
