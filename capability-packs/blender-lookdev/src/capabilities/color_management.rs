use capstan_blender::{SetColorManagement, SetColorManagementParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Colour management of the render: view transform (AgX, Filmic, Standard, Khronos PBR Neutral), look, exposure, gamma.
///
/// Sets how scene light becomes display colour. `look` is one of the transform's looks,
/// by its short name (`Punchy`, `High Contrast`) or full name, or `None`.
#[capability(
    key = "render.color_management",
    family = "render",
    tags = ["render", "color management", "colour management", "view transform", "agx", "filmic", "exposure", "gamma", "look", "contrast"],
    aliases = ["set_color_management", "color_management", "view_transform"],
    examples = ["use the filmic view transform", "make the render punchier with agx", "raise the exposure by one stop", "standard view transform"],
    uses = [SetColorManagement],
    cases = cases,
)]
fn color_management(args: SetColorManagementParams) -> PackResult<impl Serialize> {
    Ok(forward::<SetColorManagement>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("AgX punchy, one stop brighter")
            .args(json!({ "view_transform": "AgX", "look": "Punchy", "exposure": 1 }))
            .settings(&["render"]).added(&[]).changed(&[])
            .result(json!({ "view_transform": "AgX", "look": "AgX - Punchy", "exposure": 1.0 }))
            .reads("render.audit", json!({ "profile": "preview" }), json!({ "config": { "view_transform": "AgX", "look": "AgX - Punchy" } })),
        Case::new("standard resets the look")
            .args(json!({ "view_transform": "Standard" }))
            .settings(&["render"]).result(json!({ "view_transform": "Standard", "look": "None" })),
        Case::new("a look the transform does not have").args(json!({ "look": "Sepia Dream" })).error("invalid_params"),
        Case::new("exposure is bounded").args(json!({ "exposure": 11 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
