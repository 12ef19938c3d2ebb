use capstan_blender::{BlendfileSummary, BlendfileSummaryParams, BlendfileSummaryParamsView as View, blendfile_summary};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DatablocksArgs {
    /// Which summary (default datablocks: counts by kind).
    #[serde(default = "datablocks")]
    pub view: View,
}

fn datablocks() -> View {
    View::Datablocks
}

/// .blend bookkeeping: datablock counts by kind, missing external files, linked libraries, the file's paths.
///
/// `datablocks` counts objects, meshes, materials, images, ... in the file; `missing_files`
/// lists images, fonts, sounds, clips and libraries whose file is not on disk (packed
/// files are fine); `linked_libraries` lists linked .blend files; `paths` gives the file
/// path, saved and dirty state, render output path and Blender version.
#[capability(
    key = "inspect.datablocks",
    family = "inspect",
    tags = ["datablocks", "blend file", "missing files", "libraries", "paths", "bookkeeping", "orphans"],
    aliases = ["blendfile_summary", "get_blendfile_summary", "missing_files", "linked_libraries"],
    examples = ["are there any missing textures", "how many materials are in the file", "which libraries are linked", "where is the blend file saved"],
    uses = [BlendfileSummary],
    cases = cases,
)]
fn datablocks_view(args: DatablocksArgs) -> PackResult<Value> {
    Ok(json!(blendfile_summary(&BlendfileSummaryParams { view: Some(args.view) })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("counts of the factory file")
            .args(json!({}))
            .result(json!({ "view": "datablocks", "counts": { "objects": 3, "meshes": 1, "cameras": 1, "lights": 1, "scenes": 1, "libraries": 0 } })),
        Case::new("a new material is counted")
            .setup("material.procedural", json!({ "preset": "glass", "name": "Spare" }))
            .args(json!({ "view": "datablocks" }))
            .result(json!({ "counts": { "materials": 3 } })),
        Case::new("nothing is missing in the factory file")
            .args(json!({ "view": "missing_files" }))
            .result(json!({ "view": "missing_files", "total": 0, "truncated": false, "files": [] })),
        Case::new("no linked libraries").args(json!({ "view": "linked_libraries" })).result(json!({ "total": 0, "libraries": [] })),
        Case::new("the file's paths").args(json!({ "view": "paths" })).result(json!({ "paths": { "is_saved": false, "filepath": "" } })),
        Case::new("an unknown view").args(json!({ "view": "orphans" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
