use capstan_blender::{MarkAsset, MarkAssetParams, MarkAssetParamsKind as Kind, mark_asset};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkArgs {
    /// The datablock to mark.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub target: String,
    /// object, collection, material, world or node_group.
    pub kind: Kind,
    /// Asset catalog UUID (from the library's blender_assets.cats.txt).
    #[schemars(length(min = 36, max = 36), regex(pattern = r"^[0-9a-fA-F-]{36}$"))]
    pub catalog: Option<String>,
    /// Tags to add (existing tags stay).
    #[serde(default)]
    #[schemars(length(max = 32), inner(length(min = 1, max = 64), regex(pattern = r"^[A-Za-z0-9_. -]{1,64}$")))]
    pub tags: Vec<String>,
    /// What the asset is, for searching.
    #[schemars(length(max = 1024))]
    pub description: Option<String>,
}

/// Mark an object, collection, material, world or node group as an asset, with tags and a description.
///
/// Saved with io.save into a read root, the file becomes a local asset library that
/// assets.search finds.
#[capability(
    key = "assets.mark",
    family = "assets",
    tags = ["asset", "mark as asset", "asset library", "tags", "catalog", "library"],
    aliases = ["mark_asset", "asset_mark", "make_asset", "tag_asset"],
    examples = ["mark the chair as an asset tagged furniture", "make the brass material an asset", "mark the rocks collection as an asset with a description"],
    uses = [MarkAsset],
    cases = cases,
)]
fn mark(args: MarkArgs) -> PackResult<Value> {
    Ok(json!(mark_asset(&MarkAssetParams {
        target: args.target,
        kind: args.kind,
        catalog: args.catalog,
        tags: Some(args.tags),
        description: args.description,
    })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the cube with tags and a description")
            .args(json!({ "target": "Cube", "kind": "object", "tags": ["box", "prop"], "description": "A plain box" }))
            .added(&[]).removed(&[])
            .result(json!({ "target": "Cube", "kind": "object", "tags": ["box", "prop"], "catalog": null, "description": "A plain box" })),
        Case::new("a material in a catalog")
            .args(json!({ "target": "Material", "kind": "material", "catalog": "0d5f9a52-1c1a-4a4e-9d5e-3c1b2a3f4e5d" }))
            .result(json!({ "catalog": "0d5f9a52-1c1a-4a4e-9d5e-3c1b2a3f4e5d", "tags": [] })),
        Case::new("a marked object is found once saved")
            .setup("assets.mark", json!({ "target": "Cube", "kind": "object", "tags": ["crate"] }))
            .setup("io.save", json!({ "filename": "marked_crate.blend" }))
            .args(json!({ "target": "Cube", "kind": "object", "tags": ["wooden"] }))
            .reads("assets.search", json!({ "tags": ["crate"], "kind": "object" }), json!({ "total": 1, "assets": [{ "name": "Cube", "file": "marked_crate.blend" }] })),
        Case::new("no such object").args(json!({ "target": "Ghost", "kind": "object" })).error("not_found"),
        Case::new("a bad tag").args(json!({ "target": "Cube", "kind": "object", "tags": ["a;b"] })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a catalog that is no UUID").args(json!({ "target": "Cube", "kind": "object", "catalog": "Props/Chairs" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
