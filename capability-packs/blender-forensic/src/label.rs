//! A caption above a proxy ("<name> Label"), upright, centred, parented to the proxy so
//! it follows the proxy's animation.

use capstan_blender::{CreateTextParams, CreateTextParamsAlignX, ParentObjectsParams, create_text, parent_objects};
use capstan_sdk::prelude::*;

pub fn name_for(owner: &str) -> PackResult<String> {
    crate::plan::safe_name(&format!("{owner} Label"))
}

pub fn add(owner: &str, text: &str, location: [f64; 3], height: f64, heading_deg: f64) -> PackResult<String> {
    let made = create_text(&CreateTextParams {
        text: text.to_string(),
        name: Some(name_for(owner)?),
        location: Some([location[0], location[1], location[2] + height + 0.4]),
        rotation: Some([90.0, 0.0, heading_deg]),
        size: Some(0.5),
        extrude: None,
        bevel_depth: None, bevel_resolution: None,
        align_x: Some(CreateTextParamsAlignX::Center),
        align_y: None,
    })?;
    parent_objects(&ParentObjectsParams { parent: Some(owner.to_string()), children: vec![made.name.clone()], keep_transform: Some(true), mode: None, vertices: None, bone: None })?;
    Ok(made.name)
}
