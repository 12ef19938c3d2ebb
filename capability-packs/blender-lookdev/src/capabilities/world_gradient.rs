use capstan_blender::color::ColorInput;
use capstan_blender::{SetWorldGradient, SetWorldGradientParams, set_world_gradient};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GradientArgs {
    /// Colour straight up (hex or name in sRGB, or linear channels).
    pub top: ColorInput,
    /// Colour straight down.
    pub bottom: ColorInput,
    /// Background strength (default 1).
    #[schemars(range(min = 0.0, max = 100.0))]
    pub strength: Option<f64>,
}

/// A vertical two-colour gradient as the world background.
///
/// Replaces the world's shader with a gradient from `bottom` (looking down) to `top`
/// (looking up), as product shots use behind the subject.
#[capability(
    key = "world.gradient",
    family = "world",
    tags = ["world", "background", "gradient", "backdrop", "studio"],
    aliases = ["set_world_gradient", "gradient_background", "gradient_bg"],
    examples = ["a gradient background from white to grey", "blue to black gradient behind the product"],
    uses = [SetWorldGradient],
    cases = cases,
)]
fn gradient(args: GradientArgs) -> PackResult<Value> {
    let rgb = |c: &ColorInput| c.to_linear_rgba().map(|v| v[..3].to_vec());
    Ok(json!(set_world_gradient(&SetWorldGradientParams { top: rgb(&args.top)?, bottom: rgb(&args.bottom)?, strength: args.strength })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("white over grey")
            .args(json!({ "top": "white", "bottom": "#404040", "strength": 1.5 }))
            .settings(&["world"]).added(&[]).changed(&[])
            .result(json!({ "mode": "gradient", "strength": 1.5, "nodes": [
                "ShaderNodeBackground", "ShaderNodeMapRange", "ShaderNodeOutputWorld", "ShaderNodeSeparateXYZ", "ShaderNodeTexCoord", "ShaderNodeValToRGB",
            ] })),
        Case::new("a colour that is not one").args(json!({ "top": "sky-ish", "bottom": "black" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
