use crate::paths;
use capstan_blender::{AppendFromBlend, AppendFromBlendParams, AppendFromBlendParamsDatablockType as Type, append_from_blend};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Object,
    Collection,
    Material,
    World,
    NodeGroup,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AssetImportArgs {
    /// The library (read root) holding the asset, as assets.search answers it; absent, the
    /// file is a bare file name in the session output folder.
    #[schemars(length(min = 1, max = 1024))]
    pub library: Option<String>,
    /// The .blend file relative to the library, as assets.search answers it.
    #[schemars(length(min = 1, max = 1024))]
    pub file: String,
    /// The asset's exact name.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub name: String,
    /// object, collection, material, world or node_group.
    pub kind: Kind,
    /// Link instead of appending (stays in the library, read-only).
    #[serde(default)]
    pub link: bool,
    /// Where an appended object goes (metres).
    pub location: Option<[f64; 3]>,
    /// Load it with every file reference outside the read roots or the output folder
    /// detached (listed in the answer's `detached`); false or absent: such a file is
    /// refused with a message naming each reference.
    #[serde(default)]
    pub detach_outside_references: bool,
}

/// Bring an asset from a local asset library into the scene (append, or link).
///
/// Name the asset as `assets.search` answers it: `library`, `file` and `name`, with its
/// `kind`. Appended objects can be placed at `location` (metres). The same file-reference
/// check as `io.append` applies.
#[capability(
    key = "assets.import",
    family = "assets",
    tags = ["asset", "asset library", "import", "append", "link", "local", "prop"],
    aliases = ["import_asset", "append_asset", "download_polyhaven_asset", "download_sketchfab_model", "use_asset"],
    examples = ["add the lamp post asset from my library", "bring in the chair asset at 2 0 0", "link the rock asset"],
    uses = [AppendFromBlend],
    cases = cases,
)]
fn asset_import(args: AssetImportArgs) -> PackResult<Value> {
    let path = match &args.library {
        Some(library) => paths::join(library, &args.file)?,
        None if !args.file.contains(['/', '\\']) => args.file.clone(),
        None => return Err(PackError::invalid("without a library, file must be a bare file name of the session output folder")),
    };
    if args.location.is_some() && (args.link || !matches!(args.kind, Kind::Object)) {
        return Err(PackError::invalid("location applies to an appended object only"));
    }
    let datablock_type = match args.kind {
        Kind::Object => Type::Object,
        Kind::Collection => Type::Collection,
        Kind::Material => Type::Material,
        Kind::World => Type::World,
        Kind::NodeGroup => Type::Nodetree,
    };
    Ok(json!(append_from_blend(&AppendFromBlendParams {
        path,
        datablock_type,
        names: vec![args.name],
        link: Some(args.link),
        location: args.location,
        detach_outside_references: args.detach_outside_references.then_some(true),
    })?))
}

fn cases() -> Vec<Case> {
    // The library is the session output folder (no `library`): the asset was marked and
    // saved there by the setup, then the scene was emptied.
    vec![
        super::search::library(Case::new("the library object arrives, one object"))
            .args(json!({ "file": "asset_library.blend", "name": "Lamp Post", "kind": "object", "location": [3, 0, 0] }))
            .added(&["Lamp Post"]).removed(&[]).changed(&[])
            .result(json!({ "datablocks": ["Lamp Post"], "linked": false }))
            .reads("scene.object_info", json!({ "name": "Lamp Post" }), json!({ "location": [3.0, 0.0, 0.0], "type": "MESH" })),
        super::search::library(Case::new("an asset the library lacks"))
            .args(json!({ "file": "asset_library.blend", "name": "Bench", "kind": "object" })).error("not_found"),
        Case::new("a path without a library").args(json!({ "file": "props/x.blend", "name": "Rock", "kind": "object" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a file that climbs out").args(json!({ "library": "/srv/assets", "file": "../x.blend", "name": "Rock", "kind": "object" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a library outside the read roots").args(json!({ "library": "/etc", "file": "x.blend", "name": "Rock", "kind": "object" })).error("path_refused"),
        Case::new("location on a material").args(json!({ "library": "/srv", "file": "x.blend", "name": "Brass", "kind": "material", "location": [0, 0, 0] })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
