//! The pack as a whole: the manifest's command list, families, effects, and handlers
//! run against the SDK's mock bridge (no Blender; the conformance suite runs the real one).

use crate::{capabilities, families};
use capstan_blender::*;
use capstan_sdk::testing::MockBridge;
use serde_json::json;

/// `pack.json` lists exactly the commands the capabilities use. It is derived, not kept
/// by hand: `CAPSTAN_BLESS=1 cargo test -p blender-lookdev` rewrites it.
#[test]
fn the_manifest_lists_exactly_the_commands_the_capabilities_use() {
    capstan_blender::testing::assert_manifest_commands(env!("CARGO_MANIFEST_DIR"), &capabilities::all());
}

#[test]
fn every_capability_has_a_declared_family_and_conformance_cases() {
    capstan_blender::testing::assert_declared(&families(), &capabilities::all(), 1);
    capstan_blender::testing::assert_keys_in_family_namespace(&capabilities::all());
}

#[test]
fn effects_come_from_the_commands_used() {
    let all = capabilities::all();
    let by_key = |k: &str| all.iter().find(|c| c.key() == k).unwrap_or_else(|| panic!("{k}"));
    assert!(!by_key("material.list").mutates_state());
    assert!(!by_key("render.image_stats").mutates_state());
    assert!(by_key("material.procedural").mutates_state() && !by_key("material.procedural").is_destructive());
    assert!(by_key("material.bake").mutates_state() && !by_key("material.bake").is_destructive());
    assert!(by_key("uv.layers").is_destructive(), "it can remove a UV map");
    assert!(!by_key("uv.unwrap").is_destructive() && !by_key("uv.seams").is_destructive());
}

#[test]
fn a_procedural_material_on_a_camera_is_refused_before_anything_is_built() {
    let bridge = MockBridge::install();
    bridge.on::<GetObjectInfo, _>(|p| {
        Ok(serde_json::from_value(json!({
            "name": p.name, "type": "CAMERA", "location": [0.0, 0.0, 0.0], "rotation": [0.0, 0.0, 0.0], "scale": [1.0, 1.0, 1.0],
            "visible": true, "parent": null, "collections": [], "materials": [], "dimensions": [0.0, 0.0, 0.0], "children": [],
            "children_total": 0, "modifiers": [], "modifiers_total": 0, "constraints": [], "constraints_total": 0,
            "material_details": [], "keyframes": [], "parent_type": "OBJECT", "custom_properties": {},
        })).unwrap())
    });
    let cap = capabilities::all().into_iter().find(|c| c.key() == "material.procedural").unwrap();
    assert!(matches!(cap.run_json(r#"{"object": "Camera", "preset": "wood"}"#), Err(capstan_sdk::PackError::InvalidArguments(_))));
    assert_eq!(bridge.commands(), ["get_object_info"]);
}
