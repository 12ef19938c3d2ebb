use capstan_blender::{
    ListLocalAssets, ListLocalAssetsParams, ListLocalAssetsParamsKind as Kind, SetWorldHdri, SetWorldHdriParams, list_local_assets,
    set_world_hdri,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    List,
    Apply,
}

/// What each action needs besides itself, said in the schema: a call without it is refused
/// before any bridge call.
fn action_needs(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "action", &[("apply", &["name"])]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = action_needs)]
pub struct HdriArgs {
    /// list the local HDRIs, or apply one to the world.
    pub action: Action,
    /// The HDRI's name (its file name without extension, as list answers it): required to
    /// apply; to list, only names containing it.
    #[schemars(length(min = 1, max = 128))]
    pub name: Option<String>,
    /// Light strength (default 1).
    #[schemars(range(min = 0.0, max = 100.0))]
    pub strength: Option<f64>,
    /// Turn the environment about the vertical axis, in degrees.
    #[schemars(range(min = 0.0, max = 360.0))]
    pub rotation: Option<f64>,
}

/// List the HDRIs of the local asset libraries, or light the world with one by name.
///
/// `action: list` answers the .hdr/.exr files of the local asset libraries (optionally only
/// names containing `name`); `action: apply` makes the named one the world's environment,
/// with `strength` and a `rotation` about the vertical axis in degrees. Nothing is downloaded.
#[capability(
    key = "assets.hdri",
    family = "assets",
    tags = ["hdri", "asset library", "environment", "local", "exr", "hdr", "image based lighting"],
    aliases = ["list_hdris", "apply_hdri", "download_hdri", "polyhaven_hdri", "hdri_library"],
    examples = ["list the hdris in my library", "apply the studio hdri from the asset library", "use the sunset hdri from my library at strength 2"],
    uses = [ListLocalAssets, SetWorldHdri],
    cases = cases,
)]
fn hdri(args: HdriArgs) -> PackResult<Value> {
    let list = |query: Option<String>| {
        list_local_assets(&ListLocalAssetsParams { query, kind: Some(Kind::Hdri), catalog: None, tags: None, offset: None, limit: Some(200) })
    };
    match args.action {
        Action::List => {
            if args.strength.is_some() || args.rotation.is_some() {
                return Err(PackError::invalid("strength and rotation apply to action apply"));
            }
            let found = list(args.name.clone())?;
            let hdris: Vec<Value> = found.assets.iter().map(|a| json!({ "name": a.name, "library": a.library, "file": a.file })).collect();
            Ok(json!({ "action": "list", "hdris": hdris, "total": found.total }))
        }
        Action::Apply => {
            let name = args.name.ok_or_else(|| PackError::invalid("apply needs the name of an HDRI (see action list)"))?;
            let found = list(Some(name.clone()))?;
            // A pack cannot speak for the bridge (the host keeps app error codes to real
            // bridge answers): a name no library has is this capability's own failure.
            let hit = found.assets.iter().find(|a| a.name == name)
                .ok_or_else(|| PackError::failed(format!("no local HDRI named {name:?} under the read roots (see action list)")))?;
            let path = format!("{}/{}", hit.library.trim_end_matches('/'), hit.file);
            let world = set_world_hdri(&SetWorldHdriParams {
                path,
                strength: args.strength,
                rotation: args.rotation.map(f64::to_radians),
                background_visible: None,
            })?;
            Ok(json!({ "action": "apply", "name": name, "library": hit.library, "file": hit.file, "world": world }))
        }
    }
}

fn cases() -> Vec<Case> {
    // The library's HDRI is a float EXR baked in this session (the output folder is a read root).
    let baked = |c: Case| {
        c.setup("material.bake", json!({ "object": "Cube", "bake_type": "ao", "width": 16, "height": 16, "samples": 1, "filename": "dusk_sky.exr" }))
    };
    vec![
        baked(Case::new("the baked HDRI is listed")).args(json!({ "action": "list", "name": "dusk_sky" }))
            .result(json!({ "action": "list", "total": 1, "hdris": [{ "name": "dusk_sky", "file": "dusk_sky.exr" }] })),
        baked(Case::new("apply it by name")).args(json!({ "action": "apply", "name": "dusk_sky", "strength": 2, "rotation": 45 }))
            .settings(&["world"]).added(&[]).changed(&[])
            .result(json!({ "action": "apply", "name": "dusk_sky", "world": { "mode": "hdri", "image": "dusk_sky", "strength": 2.0 } })),
        Case::new("an HDRI the library lacks").args(json!({ "action": "apply", "name": "no_such_hdri_anywhere" })).error("CAPABILITY_FAILED"),
        Case::new("apply without a name").args(json!({ "action": "apply" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("an unknown action").args(json!({ "action": "download", "name": "x" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
