use capstan_blender::{CreateText, CreateTextParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Add a 3D text object in Blender's built-in font.
///
/// `size` is the letter height in metres, `extrude` the depth of the letters (0: flat),
/// `bevel_depth` rounds their edges in `bevel_resolution` segments (Blender's default 4);
/// `rotation` is [x, y, z] in degrees; `align_x` and
/// `align_y` anchor the text at its location. The answer gives the evaluated dimensions.
#[capability(
    key = "create.text",
    family = "create",
    tags = ["text", "3d text", "font", "letters", "title", "label", "logo", "typography"],
    aliases = ["create_text", "add_text", "text_create", "scene.text"],
    examples = ["add 3d text saying hello", "write OPEN in extruded letters", "put a title text above the product"],
    uses = [CreateText],
    cases = cases,
)]
fn text(args: CreateTextParams) -> PackResult<impl Serialize> {
    Ok(forward::<CreateText>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("extruded text, centred and stood up")
            .args(json!({ "text": "capstan", "name": "Title", "size": 2, "extrude": 0.1, "align_x": "CENTER", "rotation": [90, 0, 0], "location": [0, 0, 1] }))
            .added(&["Title"]).changed(&[]).removed(&[])
            .result(json!({ "name": "Title", "type": "FONT", "text": "capstan", "extrude": 0.1, "align_x": "CENTER", "location": [0.0, 0.0, 1.0] }))
            .reads("scene.object_info", json!({ "name": "Title" }), json!({ "type": "FONT", "rotation": [std::f64::consts::FRAC_PI_2, 0.0, 0.0] })),
        Case::new("extrude and bevel give the letters their depth")
            .args(json!({ "text": "Hi", "name": "Deep", "extrude": 0.2, "bevel_depth": 0.05, "bevel_resolution": 1 }))
            .added(&["Deep"])
            .result(json!({ "extrude": 0.2, "bevel_depth": 0.05, "bevel_resolution": 1 }))
            .reads("scene.object_info", json!({ "name": "Deep" }), json!({ "type": "FONT", "dimensions": [0.91712, 0.782, 0.5] })),
        Case::new("a bevel resolution above Blender's 32 is refused")
            .args(json!({ "text": "A", "bevel_depth": 0.1, "bevel_resolution": 33 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("empty text is refused").args(json!({ "text": "" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("an unknown alignment is refused").args(json!({ "text": "A", "align_x": "MIDDLE" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
