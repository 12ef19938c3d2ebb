use capstan_blender::{AddCloth, AddClothParams, AddClothParamsFabric as Fabric, add_cloth};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClothArgs {
    /// A mesh object (a subdivided plane drapes best).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: String,
    /// Blender's fabric preset (default cotton).
    pub fabric: Option<Fabric>,
    /// Simulation steps per frame 1..20 (default 5).
    #[schemars(range(min = 1, max = 20))]
    pub quality: Option<i64>,
    /// A vertex group whose vertices are pinned in place.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub pin_group: Option<String>,
    /// Collide with itself (slower).
    pub self_collision: Option<bool>,
}

/// Make a mesh cloth: a fabric preset (cotton, silk, leather, rubber, denim), quality, pinning, self collision.
///
/// Colliders need physics.collision; run physics.bake to drape it.
#[capability(
    key = "physics.cloth",
    family = "physics",
    tags = ["cloth", "fabric", "drape", "curtain", "flag", "tablecloth", "silk", "denim", "pin"],
    aliases = ["cloth", "add_cloth", "cloth_sim", "make_cloth"],
    examples = ["make the plane a silk cloth", "turn the tablecloth into cloth pinned at the top", "simulate the flag as cotton"],
    uses = [AddCloth],
    cases = cases,
)]
fn cloth(args: ClothArgs) -> PackResult<Value> {
    Ok(json!(add_cloth(&AddClothParams {
        object: args.object, fabric: args.fabric, quality: args.quality, pin_group: args.pin_group, self_collision: args.self_collision,
    })?))
}

fn cases() -> Vec<Case> {
    let sheet = json!({ "type": "grid", "name": "Sheet", "size": 2, "location": [0, 0, 3] });
    vec![
        Case::new("denim at quality 8")
            .setup("scene.create_object", sheet.clone())
            .args(json!({ "object": "Sheet", "fabric": "denim", "quality": 8 }))
            .changed(&["Sheet"]).fields("Sheet", &["modifiers"])
            .result(json!({ "modifier": "Cloth", "fabric": "denim", "mass": 1.0, "quality": 8, "pin_group": null }))
            .reads("scene.object_info", json!({ "name": "Sheet" }), json!({ "modifiers": [{ "type": "CLOTH" }] })),
        Case::new("pinned by a vertex group")
            .setup("scene.create_object", sheet.clone())
            .setup("rig.vertex_group", json!({ "object": "Sheet", "action": "create", "group": "Pin", "vertices": [0, 1] }))
            .args(json!({ "object": "Sheet", "pin_group": "Pin", "self_collision": true }))
            .changed(&["Sheet"]).result(json!({ "fabric": "cotton", "pin_group": "Pin", "self_collision": true })),
        Case::new("a missing pin group").setup("scene.create_object", sheet).args(json!({ "object": "Sheet", "pin_group": "Ghost" })).error("not_found"),
    ]
}
