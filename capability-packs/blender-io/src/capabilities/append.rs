use crate::paths;
use capstan_blender::{AppendFromBlend, AppendFromBlendParams, AppendFromBlendParamsDatablockType as Kind, append_from_blend};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AppendArgs {
    /// The .blend: an absolute path under a read root, or the bare file name of a .blend in
    /// the session output folder.
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
    /// Object, Collection, Material, NodeTree, World or Action.
    pub datablock_type: Kind,
    /// Exact datablock names in that file.
    #[schemars(length(min = 1, max = 64), inner(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$")))]
    pub names: Vec<String>,
    /// Link instead of appending (the data stays in the library file, read-only).
    #[serde(default)]
    pub link: bool,
    /// Where appended objects go (metres; objects only, not with link).
    pub location: Option<[f64; 3]>,
    /// Load it with every file reference outside the read roots or the output folder
    /// detached (listed in the answer's `detached`); false or absent: such a file is
    /// refused with a message naming each reference.
    #[serde(default)]
    pub detach_outside_references: bool,
}

/// Append or link objects, collections, materials, node groups, worlds or actions from a local .blend.
///
/// `path` is a .blend under a read root or a bare file name in the output folder; `names`
/// are exact datablock names of `datablock_type` in that file. Appending copies them in;
/// `link` keeps them in the library, read-only. A file that refers to files outside the
/// allowed folders is refused unless `detach_outside_references` is true.
#[capability(
    key = "io.append",
    family = "io",
    tags = ["append", "link", "library", "blend file", "reuse", "datablock"],
    aliases = ["append_from_blend", "link_from_blend", "append_blend", "link_library"],
    examples = ["append the Chair object from props.blend", "link the Rock collection from the library file", "append the Brass material from materials.blend"],
    uses = [AppendFromBlend],
    cases = cases,
)]
fn append(args: AppendArgs) -> PackResult<Value> {
    paths::input(&args.path)?;
    Ok(json!(append_from_blend(&AppendFromBlendParams {
        path: args.path,
        datablock_type: args.datablock_type,
        names: args.names,
        link: Some(args.link),
        location: args.location,
        detach_outside_references: args.detach_outside_references.then_some(true),
    })?))
}

fn cases() -> Vec<Case> {
    // The library is a .blend this case saves into the output folder, without the ring after.
    let named = |name: &str| {
        Case::new(name)
            .setup("scene.create_object", json!({ "type": "torus", "name": "Ring" }))
            .setup("io.save", json!({ "filename": "ring_lib.blend" }))
            .setup("scene.delete_object", json!({ "name": "Ring" }))
    };
    vec![
        named("an object, placed").args(json!({ "path": "ring_lib.blend", "datablock_type": "Object", "names": ["Ring"], "location": [0, 0, 3] }))
            .added(&["Ring"]).removed(&[]).changed(&[])
            .result(json!({ "datablocks": ["Ring"], "linked": false }))
            .reads("scene.object_info", json!({ "name": "Ring" }), json!({ "location": [0.0, 0.0, 3.0] })),
        named("a linked material").args(json!({ "path": "ring_lib.blend", "datablock_type": "Material", "names": ["Material"], "link": true }))
            .added(&[]).result(json!({ "datablocks": ["Material"], "linked": true })),
        named("a name the file lacks").args(json!({ "path": "ring_lib.blend", "datablock_type": "Object", "names": ["Nope"] })).error("not_found"),
        Case::new("a path outside the read roots").args(json!({ "path": "/etc/lib.blend", "datablock_type": "Object", "names": ["Ring"] })).error("path_refused"),
        Case::new("a bad name").args(json!({ "path": "lib.blend", "datablock_type": "Object", "names": ["Ring; rm -rf"] })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("an unknown type").args(json!({ "path": "lib.blend", "datablock_type": "Texture", "names": ["Ring"] })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
