//! The pack as a whole: its description, the manifest's command list, and handlers run
//! against the SDK's mock bridge (no Blender; the conformance suite runs the real one).

use crate::{capabilities, families};
use capstan_blender::*;
use capstan_sdk::testing::MockBridge;
use serde_json::{Value, json};

/// `pack.json` lists exactly the commands the capabilities use. It is derived, not kept
/// by hand: `CAPSTAN_BLESS=1 cargo test -p blender-core` rewrites it.
#[test]
fn the_manifest_lists_exactly_the_commands_the_capabilities_use() {
    capstan_blender::testing::assert_manifest_commands(env!("CARGO_MANIFEST_DIR"), &capabilities::all());
}

#[test]
fn every_capability_has_a_declared_family_and_conformance_cases() {
    capstan_blender::testing::assert_declared(&families(), &capabilities::all(), 1);
}

#[test]
fn effects_come_from_the_commands_used() {
    let all = capabilities::all();
    let by_key = |k: &str| all.iter().find(|c| c.key() == k).unwrap();
    assert!(!by_key("scene.info").mutates_state());
    assert!(by_key("scene.create_object").mutates_state() && !by_key("scene.create_object").is_destructive());
    assert!(by_key("scene.delete_object").is_destructive());
    assert!(by_key("rig.constraint").is_destructive(), "it can remove constraints");
}

#[test]
fn a_lighting_rig_aims_every_light_at_the_resolved_target() {
    let bridge = MockBridge::install();
    bridge.on::<GetObjectInfo, _>(|p| {
        assert_eq!(p.name, "Hero");
        let mut info: GetObjectInfoResult = serde_json::from_value(json!({
            "name": "Hero", "type": "MESH", "location": [2.0, 0.0, 1.0], "rotation": [0.0, 0.0, 0.0], "scale": [1.0, 1.0, 1.0],
            "visible": true, "parent": null, "collections": [], "materials": [], "dimensions": [1.0, 1.0, 1.0], "children": [],
            "children_total": 0, "modifiers": [], "modifiers_total": 0, "constraints": [], "constraints_total": 0,
            "material_details": [], "keyframes": [], "parent_type": "OBJECT", "custom_properties": {},
        })).unwrap();
        info.name = p.name;
        Ok(info)
    });
    bridge.on::<CreateLight, _>(|p| {
        assert_eq!(p.look_at, Some([2.0, 0.0, 1.0]));
        let name = p.name.unwrap();
        Ok(serde_json::from_value::<CreateLightResult>(json!({
            "name": name, "type": "AREA", "location": p.location, "rotation": [0.0, 0.0, 0.0], "energy": p.energy,
            "delta": { "added": [name], "removed": [], "changed": [], "settings": [] },
        })).unwrap())
    });
    let cap = capabilities::all().into_iter().find(|c| c.key() == "scene.lighting_preset").unwrap();
    let out: Value = serde_json::from_str(&cap.run_json(r#"{"preset": "three_point", "target": "Hero"}"#).unwrap()).unwrap();
    assert_eq!(out["lights"].as_array().unwrap().len(), 3);
    assert_eq!(bridge.commands(), ["get_object_info", "create_light", "create_light", "create_light"]);
}

#[test]
fn an_application_error_reaches_the_capability_typed() {
    let bridge = MockBridge::install();
    bridge.on::<GetObjectInfo, _>(|p| Err(capstan_sdk::BridgeError::app(AppErrorCode::NotFound, format!("no object named {:?}", p.name))));
    let cap = capabilities::all().into_iter().find(|c| c.key() == "scene.object_info").unwrap();
    match cap.run_json(r#"{"name": "Ghost"}"#) {
        Err(capstan_sdk::PackError::Bridge(e)) => assert_eq!(e.app_error(), Some(AppErrorCode::NotFound)),
        other => panic!("{other:?}"),
    }
}

/// `scene.info` hands Blender's answer on as it came (`capstan_sdk::bridge::forward`):
/// the capability's result is the answer, field for field, and decoding it gives the
/// typed result the typed client would have.
#[test]
fn a_pass_through_capability_hands_the_answer_on_unchanged() {
    let recorded: Value = serde_json::from_str(include_str!("../../../host/tests/data/blender_factory_scene.json")).unwrap();
    let answer: GetSceneInfoResult = serde_json::from_value(recorded["get_scene_info"]["result"].clone()).unwrap();
    let bridge = MockBridge::install();
    let given = answer.clone();
    bridge.on::<GetSceneInfo, _>(move |p| {
        assert_eq!((p.limit, p.r#type), (Some(2), Some(GetSceneInfoParamsType::Mesh)));
        Ok(given.clone())
    });
    let cap = capabilities::all().into_iter().find(|c| c.key() == "scene.info").unwrap();
    let out: Value = serde_json::from_str(&cap.run_json(r#"{"limit": 2, "type": "MESH"}"#).unwrap()).unwrap();
    assert_eq!(out, recorded["get_scene_info"]["result"]);
    let forwarded = capstan_sdk::bridge::forward::<GetSceneInfo>(&GetSceneInfoParams { limit: Some(2), r#type: Some(GetSceneInfoParamsType::Mesh), ..Default::default() }).unwrap();
    assert_eq!(forwarded.decode().unwrap(), answer);
}
