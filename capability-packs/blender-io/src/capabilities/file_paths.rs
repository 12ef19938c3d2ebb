use capstan_blender::{
    PackImages, PackImagesParams, RewriteFilePaths, RewriteFilePathsParams, RewriteFilePathsParamsAction as Rewrite,
    RewriteFilePathsParamsKindsItem as Kind, pack_images, rewrite_file_paths,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    MakeRelative,
    MakeAbsolute,
    Pack,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathsArgs {
    /// make_relative: paths relative to the saved .blend (`//`; the scene must be saved,
    /// e.g. io.save with copy false); make_absolute; pack: image files into the .blend.
    pub action: Action,
    /// make_relative / make_absolute: only references of these kinds (default all).
    #[schemars(length(min = 1, max = 13))]
    pub kinds: Option<Vec<Kind>>,
    /// pack: only these images (default all).
    #[schemars(length(min = 1, max = 1000))]
    pub images: Option<Vec<String>>,
}

/// Make external file paths relative to the .blend or absolute, or pack images into the .blend.
///
/// Like File > External Data in Blender. Only input files in the read roots are touched
/// (images, sounds, fonts, movie clips, libraries, cache files, volumes, texts, IES and
/// Geometry Nodes import nodes, mesh and ocean caches); outputs such as the render path
/// stay as they are, inside the output folder. A rewritten path points to the same file
/// as before. The answer lists each path before and after, and what was skipped and
/// why (linked, outside the read roots, missing, ...). inspect.file_paths reads them back.
#[capability(
    key = "io.paths",
    family = "io",
    tags = ["file paths", "relative paths", "absolute paths", "pack", "external data", "textures", "pack resources"],
    aliases = ["make_paths_relative", "make_paths_absolute", "pack_resources", "pack_images", "external_data"],
    examples = ["make all file paths relative", "make the file paths absolute", "pack the images into the blend file", "pack all textures"],
    uses = [RewriteFilePaths, PackImages],
    cases = cases,
)]
fn paths(args: PathsArgs) -> PackResult<Value> {
    let rewrite = |action| -> PackResult<Value> {
        if args.images.is_some() {
            return Err(PackError::invalid("images applies to action pack; use kinds to choose what make_relative and make_absolute rewrite"));
        }
        Ok(json!(rewrite_file_paths(&RewriteFilePathsParams { action, kinds: args.kinds.clone() })?))
    };
    match args.action {
        Action::MakeRelative => rewrite(Rewrite::MakeRelative),
        Action::MakeAbsolute => rewrite(Rewrite::MakeAbsolute),
        Action::Pack => {
            if args.kinds.is_some() {
                return Err(PackError::invalid("pack packs images; kinds applies to make_relative and make_absolute"));
            }
            Ok(json!(pack_images(&PackImagesParams { images: args.images })?))
        }
    }
}

fn cases() -> Vec<Case> {
    // An image loaded by its absolute path in the output folder (a render of this session),
    // and the scene saved there as the session's own file.
    let render = json!({ "filename": "board.png", "engine": "cycles", "resolution": [32, 16], "samples": 1 });
    let plane = json!({ "path": "board.png", "name": "Board" });
    let save = json!({ "filename": "paths.blend", "copy": false });
    let images = json!({ "kinds": ["image"] });
    vec![
        Case::new("make_relative: the absolute image path reads back relative to the saved .blend")
            .setup("scene.render", render.clone())
            .setup("io.image_plane", plane.clone())
            .setup("io.save", save.clone())
            .args(json!({ "action": "make_relative" }))
            .added(&[]).removed(&[]).changed(&[])
            .result(json!({ "action": "make_relative", "skipped": [],
                "rewritten": [{ "kind": "image", "datablock": "board.png", "after": "//board.png" }] }))
            .reads("inspect.file_paths", images.clone(), json!({ "references": [{ "datablock": "board.png", "path": "//board.png",
                "relative": true, "exists": true, "inside_read_roots": true, "problem": null }] })),
        Case::new("make_absolute: a relative image path reads back absolute")
            .setup("scene.render", render.clone())
            .setup("io.image_plane", plane.clone())
            .setup("io.save", save)
            .setup("io.paths", json!({ "action": "make_relative" }))
            .args(json!({ "action": "make_absolute", "kinds": ["image"] }))
            .result(json!({ "action": "make_absolute", "skipped": [], "rewritten": [{ "datablock": "board.png", "before": "//board.png" }] }))
            .reads("inspect.file_paths", images.clone(), json!({ "references": [{ "datablock": "board.png", "relative": false, "exists": true }] })),
        Case::new("pack: the image reads back packed")
            .setup("scene.render", render.clone())
            .setup("io.image_plane", plane.clone())
            .args(json!({ "action": "pack" }))
            .added(&[]).removed(&[]).changed(&[])
            .result(json!({ "packed": [{ "image": "board.png" }], "skipped": [] }))
            .reads("inspect.file_paths", images, json!({ "references": [{ "datablock": "board.png", "packed": true }] })),
        Case::new("make_relative needs a saved .blend")
            .setup("scene.render", render)
            .setup("io.image_plane", plane)
            .args(json!({ "action": "make_relative" }))
            .error("unsaved_file"),
        Case::new("pack takes no kinds").args(json!({ "action": "pack", "kinds": ["image"] })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("no such image to pack").args(json!({ "action": "pack", "images": ["Nope"] })).error("not_found"),
        Case::new("an unknown action").args(json!({ "action": "unpack" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
