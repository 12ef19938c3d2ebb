//! The pack as a whole: the manifest's command list, families and cases, and handlers
//! run against the SDK's mock bridge (no Blender; the conformance suite runs the real one).

use crate::{capabilities, families};
use capstan_blender::*;
use capstan_sdk::testing::MockBridge;
use serde_json::{Value, json};
use std::collections::BTreeSet;

fn manifest() -> Value {
    serde_json::from_str(include_str!("../pack.json")).unwrap()
}

/// `pack.json` lists exactly the commands the capabilities use. It is derived, not kept
/// by hand: `CAPSTAN_BLESS=1 cargo test -p blender-forensic` rewrites it.
#[test]
fn the_manifest_lists_exactly_the_commands_the_capabilities_use() {
    capstan_blender::testing::assert_manifest_commands(env!("CARGO_MANIFEST_DIR"), &capabilities::all());
}

#[test]
fn the_nine_catalog_keys_are_here_each_with_cases_examples_and_aliases() {
    let keys: BTreeSet<String> = capabilities::all().iter().map(|c| c.key().to_string()).collect();
    let want: BTreeSet<String> = ["road", "vehicle", "figure", "annotation", "marker", "cameras", "time_of_day", "animate_vehicle", "ghost"]
        .iter().map(|k| format!("forensic.{k}")).collect();
    assert_eq!(keys, want);
    // Successes and failures: three cases at least.
    capstan_blender::testing::assert_declared(&families(), &capabilities::all(), 3);
    for c in capabilities::all() {
        assert!(c.mutates_state() && !c.is_destructive(), "{}: forensic keys add to the scene and remove nothing", c.key());
    }
}

fn delta() -> Value {
    json!({ "added": [], "removed": [], "changed": [], "settings": [] })
}

fn cap(key: &str) -> capstan_sdk::Capability {
    capabilities::all().into_iter().find(|c| c.key() == key).unwrap()
}

#[test]
fn a_vehicle_gets_its_tables_dimensions_and_an_unsafe_derived_ghost_name_makes_no_call() {
    let bridge = MockBridge::install();
    bridge.on::<PlaceProxy, _>(|p| {
        assert_eq!((p.dims, p.kind, p.damage_side), ([12.0, 2.55, 3.2], PlaceProxyParamsKind::Vehicle, Some(PlaceProxyParamsDamageSide::Front)));
        Ok(serde_json::from_value(json!({ "name": p.name, "kind": "vehicle", "pose": null, "dimensions": p.dims, "location": [0.0, 0.0, 0.0],
            "rotation": 0.0, "mesh": { "vertices": 8, "edges": 12, "faces": 6 }, "materials": ["Bus Paint", "Bus Damage"], "damaged_faces": 1, "delta": delta() })).unwrap())
    });
    let out: Value = serde_json::from_str(&cap("forensic.vehicle").run_json(r#"{"vehicle_type": "bus", "name": "Bus", "damaged": true}"#).unwrap()).unwrap();
    assert_eq!((out["impact_side"].as_str(), out["label"].is_null()), (Some("front"), true));
    assert_eq!(bridge.commands(), ["place_proxy"]);
    // A 60-character source passes the schema, but "<source> Ghost" would not be a safe name: refused before any call.
    let bridge = MockBridge::install();
    let err = cap("forensic.ghost").run_json(&json!({ "source_vehicle": "V".repeat(60) }).to_string());
    assert!(matches!(err, Err(capstan_sdk::PackError::InvalidArguments(_))) && bridge.commands().is_empty(), "{err:?}");
}

#[test]
fn a_path_keys_location_and_heading_per_waypoint_then_interpolation_then_the_frame() {
    let bridge = MockBridge::install();
    bridge.on::<GetObjectInfo, _>(|p| {
        let mut info: Value = serde_json::from_str(r#"{"name": "", "type": "MESH", "location": [0,0,0], "rotation": [0.1, 0, 0], "scale": [1,1,1], "visible": true,
            "parent": null, "collections": [], "materials": [], "dimensions": [4.8, 1.85, 1.45], "children": [], "children_total": 0, "modifiers": [],
            "modifiers_total": 0, "constraints": [], "constraints_total": 0, "material_details": [], "parent_type": "OBJECT", "keyframes": [],
            "custom_properties": {}}"#).unwrap();
        info["name"] = json!(p.name);
        Ok(serde_json::from_value(info).unwrap())
    });
    bridge.on::<InsertKeyframe, _>(|p| {
        if p.property == InsertKeyframeParamsProperty::RotationEuler {
            let Some(InsertKeyframeParamsValue::Vec3(v)) = p.value else { panic!() };
            assert!((v[0] - 0.1).abs() < 1e-12, "the vehicle's tilt is kept: {v:?}");
            assert!((v[2] - if p.frame == 1 { 0.0 } else { std::f64::consts::FRAC_PI_2 }).abs() < 1e-12, "{p:?}");
        }
        Ok(serde_json::from_value(json!({ "object": p.object, "property": "location", "frame": p.frame, "frames": [], "delta": delta() })).unwrap())
    });
    bridge.on::<SetInterpolation, _>(|p| {
        assert_eq!(p.interpolation, Some(SetInterpolationParamsInterpolation::Linear));
        Ok(serde_json::from_value(json!({ "object": p.object, "fcurves": 6, "keyframes": 18, "data_paths": [], "delta": delta() })).unwrap())
    });
    bridge.on::<SetFrameRange, _>(|p| {
        assert_eq!((p.frame_start, p.frame_end, p.frame_current), (Some(1), Some(30), Some(1)));
        Ok(serde_json::from_value(json!({ "frame_start": 1, "frame_end": 30, "fps": 24.0, "frame_current": 1, "delta": delta() })).unwrap())
    });
    cap("forensic.animate_vehicle").run_json(r#"{"vehicle_name": "Car", "waypoints": [
        {"frame": 1, "location": [0, 0, 0], "rotation": 0}, {"frame": 10, "location": [5, 0, 0], "rotation": 90}, {"frame": 30, "location": [5, 9, 0]}]}"#).unwrap();
    let mut want = vec!["get_object_info"];
    want.extend(["insert_keyframe"; 6]);
    want.extend(["set_interpolation", "set_frame_range"]);
    assert_eq!(bridge.commands(), want);
    let reported: Vec<(u64, u64)> = bridge.progress().iter().map(|(done, total, _)| (*done, *total)).collect();
    assert_eq!(reported, [(1, 3), (2, 3), (3, 3)], "one progress report per keyed waypoint");
    assert_eq!(bridge.progress()[2].2, "keyed waypoint 3 of 3 (frame 30)");
}

#[test]
fn the_longest_ghost_path_fits_the_packs_bridge_call_budget() {
    let bridge = MockBridge::install();
    bridge.on::<GhostCopy, _>(|p| {
        Ok(serde_json::from_value(json!({ "name": p.name, "source": p.source, "alpha": 0.3, "material": "G Material", "animated": false,
            "location": [0.0, 0.0, 0.0], "dimensions": [4.8, 1.85, 1.45], "delta": delta() })).unwrap())
    });
    bridge.on::<GetObjectInfo, _>(|p| {
        let mut info: Value = serde_json::from_str(r#"{"name": "", "type": "MESH", "location": [0,0,0], "rotation": [0, 0, 0], "scale": [1,1,1], "visible": true,
            "parent": null, "collections": [], "materials": [], "dimensions": [4.8, 1.85, 1.45], "children": [], "children_total": 0, "modifiers": [],
            "modifiers_total": 0, "constraints": [], "constraints_total": 0, "material_details": [], "parent_type": "OBJECT", "keyframes": [],
            "custom_properties": {}}"#).unwrap();
        info["name"] = json!(p.name);
        Ok(serde_json::from_value(info).unwrap())
    });
    bridge.on::<CreateText, _>(|p| {
        Ok(serde_json::from_value(json!({ "name": p.name, "type": "FONT", "text": p.text, "location": [0.0, 0.0, 0.0], "dimensions": [1.0, 1.0, 0.0],
            "size": 0.6, "extrude": 0.0, "align_x": "CENTER", "align_y": "TOP_BASELINE", "delta": delta() })).unwrap())
    });
    bridge.on::<InsertKeyframe, _>(|p| Ok(serde_json::from_value(json!({ "object": p.object, "property": "location", "frame": p.frame, "frames": [], "delta": delta() })).unwrap()));
    bridge.on::<SetInterpolation, _>(|p| Ok(serde_json::from_value(json!({ "object": p.object, "fcurves": 6, "keyframes": 3000, "data_paths": [], "delta": delta() })).unwrap()));
    bridge.on::<SetFrameRange, _>(|_| Ok(serde_json::from_value(json!({ "frame_start": 1, "frame_end": 500, "fps": 24.0, "frame_current": 1, "delta": delta() })).unwrap()));
    let waypoints: Vec<Value> = (0..500).map(|i| json!({ "frame": i + 1, "location": [i as f64, 0.0, 0.0], "rotation": 0,
        "speed_label": if i % 32 == 0 { Some("50 km/h") } else { None } })).collect();
    cap("forensic.ghost").run_json(&json!({ "source_vehicle": "Car", "waypoints": waypoints }).to_string()).unwrap();
    let budget = manifest()["limits"]["max_bridge_calls"].as_u64().unwrap() as usize;
    assert_eq!(bridge.commands().len(), 1 + 1 + 16 + 1000 + 1 + 1);
    assert!(bridge.commands().len() <= budget && budget <= 1024, "{} calls, budget {budget}", bridge.commands().len());
}
