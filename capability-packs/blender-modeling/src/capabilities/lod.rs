use crate::plan::{lod_name, lod_ratio};
use capstan_blender::{
    AddModifier, AddModifierParams, AddModifierParamsPropertiesValue as V, AddModifierParamsType, DuplicateObject, DuplicateObjectParams,
    EvaluatedStats, EvaluatedStatsParams, add_modifier, duplicate_object, evaluated_stats,
};
use capstan_sdk::prelude::*;

fn four() -> u32 {
    4
}
fn half() -> f64 {
    0.5
}
fn naming() -> String {
    "{name}_LOD{n}".into()
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LodArgs {
    /// The full-detail mesh (it stays as LOD 0).
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    /// Levels including LOD 0 (2..8, default 4).
    #[serde(default = "four")]
    #[schemars(range(min = 2, max = 8))]
    pub levels: u32,
    /// Each level keeps this fraction of the previous one's faces (0.1..0.9, default 0.5).
    #[serde(default = "half")]
    #[schemars(range(min = 0.1, max = 0.9))]
    pub ratio_step: f64,
    /// Names of the levels: `{name}` is the object's, `{n}` the level (default "{name}_LOD{n}").
    #[serde(default = "naming")]
    #[schemars(length(min = 3, max = 63))]
    pub naming: String,
}

/// Build a level-of-detail chain: decimated copies of a mesh, each coarser than the last.
///
/// The object stays as LOD 0; levels 1..levels-1 are full copies with a Decimate modifier
/// keeping ratio_step^n of the faces (non-destructive, so a level can be tuned later). The
/// answer gives every level's evaluated face count.
#[capability(
    key = "generation.lod",
    family = "generation",
    tags = ["lod", "level of detail", "decimate", "optimise", "game ready", "low poly"],
    aliases = ["generate_lod", "lod_chain", "make_lods", "lod"],
    examples = ["make an LOD chain for the statue", "generate 3 levels of detail for the rock", "create game LODs halving the faces each level"],
    uses = [DuplicateObject, AddModifier, EvaluatedStats],
    cases = cases,
)]
fn lod(args: LodArgs) -> PackResult<Value> {
    let names: Vec<String> = (1..args.levels).map(|n| lod_name(&args.naming, &args.object, n)).collect::<PackResult<_>>()?;
    let mut levels = vec![json!({ "level": 0, "name": args.object, "ratio": 1.0 })];
    let mut objects = vec![args.object.clone()];
    for (i, wanted) in names.into_iter().enumerate() {
        let n = i as u32 + 1;
        let copy = duplicate_object(&DuplicateObjectParams { name: args.object.clone(), new_name: Some(wanted), linked: None, offset: None, count: None })?;
        let name = copy.copies[0].name.clone();
        let ratio = lod_ratio(args.ratio_step, n);
        add_modifier(&AddModifierParams {
            object: name.clone(),
            r#type: AddModifierParamsType::Decimate,
            name: Some("LOD".into()),
            properties: Some([("ratio".to_string(), V::Number(ratio))].into()),
        })?;
        levels.push(json!({ "level": n, "name": name, "ratio": ratio }));
        objects.push(name);
    }
    let stats = evaluated_stats(&EvaluatedStatsParams { objects })?;
    for (level, s) in levels.iter_mut().zip(&stats.objects) {
        level["faces"] = json!(s.evaluated.faces);
        level["vertices"] = json!(s.evaluated.vertices);
        level["triangles"] = json!(s.triangles);
    }
    Ok(json!({ "object": args.object, "levels": levels }))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("three levels of a sphere, triangles halving")
            .setup("scene.create_object", json!({ "type": "uv_sphere", "name": "Statue" }))
            .args(json!({ "object": "Statue", "levels": 3 }))
            .added(&["Statue_LOD1", "Statue_LOD2"]).changed(&[]).removed(&[])
            .result(json!({ "levels": [
                { "level": 0, "name": "Statue", "ratio": 1.0, "faces": 512, "triangles": 960 },
                { "level": 1, "name": "Statue_LOD1", "ratio": 0.5, "triangles": 480 },
                { "level": 2, "name": "Statue_LOD2", "ratio": 0.25, "triangles": 240 } ] }))
            .reads("scene.object_info", json!({ "name": "Statue_LOD2" }), json!({ "modifiers": [{ "name": "LOD", "type": "DECIMATE" }], "mesh": { "faces": 512 } })),
        Case::new("a naming without the level number").args(json!({ "object": "Cube", "naming": "{name}_low" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("more than 8 levels").args(json!({ "object": "Cube", "levels": 9 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
