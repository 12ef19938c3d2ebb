use capstan_blender::{ListLocalAssets, ListLocalAssetsParams, ListLocalAssetsParamsKind as Kind, list_local_assets};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    /// Words that must all occur in the asset's name, tags or description (case-insensitive).
    #[schemars(length(min = 1, max = 128))]
    pub query: Option<String>,
    /// object, collection, material, world, node_group (marked assets in .blend files),
    /// hdri (.hdr/.exr files) or texture_set (PBR maps named by convention).
    pub kind: Option<Kind>,
    /// Asset catalog UUID.
    #[schemars(length(min = 36, max = 36), regex(pattern = r"^[0-9a-fA-F-]{36}$"))]
    pub catalog: Option<String>,
    /// Every one must be among the asset's tags.
    #[serde(default)]
    #[schemars(length(max = 32), inner(length(min = 1, max = 64), regex(pattern = r"^[A-Za-z0-9_. -]{1,64}$")))]
    pub tags: Vec<String>,
    /// Skip this many hits (paging).
    #[serde(default)]
    #[schemars(range(min = 0, max = 100000))]
    pub offset: u32,
    /// At most this many hits (default 50).
    #[serde(default = "fifty")]
    #[schemars(range(min = 1, max = 200))]
    pub limit: u32,
}

fn fifty() -> u32 {
    50
}

/// Search local asset libraries: marked assets in .blend files, HDRIs and texture sets under the read roots.
///
/// Local folders only (CAPSTAN_READ_ROOTS and the session output folder), never the
/// network. Each hit names its library (the root) and file, ready for assets.import,
/// assets.hdri or assets.texture_set.
#[capability(
    key = "assets.search",
    family = "assets",
    tags = ["asset", "asset library", "search", "find", "local", "hdri", "texture set", "catalog", "tags"],
    aliases = ["list_local_assets", "search_assets", "asset_search", "search_polyhaven_assets", "search_sketchfab_models", "find_asset"],
    examples = ["search my asset library for a chair", "which hdris do I have locally", "find assets tagged wood"],
    uses = [ListLocalAssets],
    cases = cases,
)]
fn search(args: SearchArgs) -> PackResult<Value> {
    Ok(json!(list_local_assets(&ListLocalAssetsParams {
        query: args.query,
        kind: args.kind,
        catalog: args.catalog,
        tags: Some(args.tags),
        offset: Some(i64::from(args.offset)),
        limit: Some(i64::from(args.limit)),
    })?))
}

/// A library of one marked object, saved into the output folder (a read root), and an
/// empty scene: the setup of the assets cases.
pub fn library(case: Case) -> Case {
    case.setup("scene.create_object", json!({ "type": "cone", "name": "Lamp Post" }))
        .setup("assets.mark", json!({ "target": "Lamp Post", "kind": "object", "tags": ["street", "metal"], "description": "A tall street lamp" }))
        .setup("io.save", json!({ "filename": "asset_library.blend" }))
        .setup("io.open", json!({ "empty": true }))
}

fn cases() -> Vec<Case> {
    vec![
        library(Case::new("a marked object by words and tags"))
            .args(json!({ "query": "street lamp", "tags": ["metal"], "kind": "object" }))
            .result(json!({ "total": 1, "assets": [{ "name": "Lamp Post", "kind": "object", "file": "asset_library.blend", "tags": ["metal", "street"], "description": "A tall street lamp" }] })),
        library(Case::new("a tag no asset has")).args(json!({ "tags": ["wooden"], "query": "lamp" })).result(json!({ "total": 0, "assets": [] })),
        Case::new("the limit is bounded").args(json!({ "limit": 500 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("an unknown kind").args(json!({ "kind": "mesh" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
