use capstan_blender::{ListFileReferences, ListFileReferencesParams, ListFileReferencesParamsKindsItem as Kind, list_file_references};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FilePathsArgs {
    /// Only references of these kinds (default all): image, sound, font, movie_clip,
    /// library, cache_file, volume, text, geometry_import (Geometry Nodes import nodes),
    /// node_file_path, osl_script, ies, file_output, render_output, bake_output,
    /// point_cache, fluid_cache, geometry_bake, mesh_cache, ocean_cache, sequencer_strip, other.
    #[schemars(length(min = 1, max = 22))]
    pub kinds: Option<Vec<Kind>>,
    /// Only the references capstan refuses (outside the read roots or the output folder).
    #[serde(default)]
    pub refused_only: bool,
    /// Skip this many references (paging).
    #[schemars(range(min = 0, max = 1000000))]
    pub offset: Option<i64>,
    /// At most this many references (default 100).
    #[schemars(range(min = 1, max = 500))]
    pub limit: Option<i64>,
}

/// Every external file the scene refers to, each marked relative or absolute, existing or not, inside the read roots or not.
///
/// Lists image textures, sounds, fonts, movie clips, linked libraries, Alembic/USD cache
/// files, volumes, texts, Geometry Nodes import nodes and other file-path nodes, IES and
/// OSL script nodes, modifier and physics caches, sequencer strips, and the outputs
/// Blender writes (render output, File Output nodes, bakes). Each reference gives the
/// stored `path`, the resolved `absolute` path, `relative` (a `//` path relative to the
/// .blend, or any other non-absolute path), `packed`, `inside_read_roots`, `exists`
/// (looked up only inside the read roots, else null) and `problem` (why capstan would
/// refuse it). io.paths makes paths relative or absolute and packs images.
#[capability(
    key = "inspect.file_paths",
    family = "inspect",
    tags = ["file paths", "external files", "textures", "relative paths", "absolute paths", "missing files", "libraries", "packed"],
    aliases = ["get_blendfile_summary_path_info", "file_paths", "list_file_references", "texture_paths"],
    examples = ["list the file paths in the scene", "are the file paths relative or absolute", "which external files does the scene use", "list the file references of the images"],
    uses = [ListFileReferences],
    cases = cases,
)]
fn file_paths(args: FilePathsArgs) -> PackResult<Value> {
    Ok(json!(list_file_references(&ListFileReferencesParams {
        kind: None,
        kinds: args.kinds,
        refused_only: Some(args.refused_only),
        offset: args.offset,
        limit: args.limit,
    })?))
}

fn cases() -> Vec<Case> {
    // The image is a render of this session, loaded by image plane from its absolute path
    // in the output folder (a read root).
    let render = json!({ "filename": "board.png", "engine": "cycles", "resolution": [32, 16], "samples": 1 });
    vec![
        Case::new("an image loaded by absolute path is absolute, existing and inside the read roots")
            .setup("scene.render", render)
            .setup("io.image_plane", json!({ "path": "board.png", "name": "Board" }))
            .args(json!({ "kinds": ["image"] }))
            .result(json!({ "total": 1, "refused": 0, "references": [{ "kind": "image", "direction": "input", "datablock_type": "IMAGE",
                "datablock": "board.png", "relative": false, "exists": true, "inside_read_roots": true, "packed": false, "problem": null }] })),
        Case::new("the factory file writes its render to /tmp/, outside the read roots")
            .args(json!({ "kinds": ["render_output"] }))
            .result(json!({ "total": 1, "references": [{ "kind": "render_output", "direction": "output", "path": "/tmp/",
                "relative": false, "inside_read_roots": false, "exists": null }] })),
        Case::new("no image in the factory file").args(json!({ "kinds": ["image"] })).result(json!({ "total": 0, "references": [] })),
        Case::new("an unknown kind").args(json!({ "kinds": ["texture"] })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
