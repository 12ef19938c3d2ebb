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
        Case::new("not a .blend name").args(json!({ "filename": "scene.glb" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a path").args(json!({ "filename": "../scene.blend" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
