//! The pack as a whole: the manifest's command list, families, effects, and handlers run
//! against the SDK's mock bridge (no Blender; the conformance suite runs the real one).

use crate::{capabilities, families};
use capstan_blender::*;
use capstan_sdk::testing::MockBridge;
use serde_json::{Value, json};

/// `pack.json` lists exactly the commands the capabilities use. It is derived, not kept
/// by hand: `CAPSTAN_BLESS=1 cargo test -p blender-spatial` rewrites it.
#[test]
fn the_manifest_lists_exactly_the_commands_the_capabilities_use() {
    capstan_blender::testing::assert_manifest_commands(env!("CARGO_MANIFEST_DIR"), &capabilities::all());
}

#[test]
fn every_capability_has_a_declared_family_and_conformance_cases() {
    capstan_blender::testing::assert_declared(&families(), &capabilities::all(), 1);
}

#[test]
fn measuring_is_read_only_and_placing_mutates() {
    // These place objects; every other capability of the pack only measures.
    let placing = ["spatial.place_on", "spatial.place_relative", "spatial.dimensions"];
    let all = capabilities::all();
    for key in placing {
        assert!(all.iter().any(|c| c.key() == key), "no {key}");
    }
    for c in &all {
        if placing.contains(&c.key()) {
            assert!(c.mutates_state() && !c.is_destructive(), "{}", c.key());
        } else {
            assert!(!c.mutates_state(), "{} measures, it must not change the scene", c.key());
        }
    }
}

fn bounds(name: &str, min: [f64; 3], max: [f64; 3]) -> BoundsWorldResult {
    let c = [(min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0, (min[2] + max[2]) / 2.0];
    serde_json::from_value(json!({
        "empty": false, "min": min, "max": max, "center": c, "dimensions": [max[0] - min[0], max[1] - min[1], max[2] - min[2]],
        "objects_total": 1, "objects": [{ "name": name, "type": "MESH", "origin": c, "axes": { "x": [1.0, 0.0, 0.0], "y": [0.0, 1.0, 0.0], "z": [0.0, 0.0, 1.0] },
        "min": min, "max": max, "center": c, "dimensions": [max[0] - min[0], max[1] - min[1], max[2] - min[2]] }],
    })).unwrap()
}

#[test]
fn assert_casts_onto_the_support_and_reports_the_gap() {
    let bridge = MockBridge::install();
    bridge.on::<BoundsWorld, _>(|p| {
        let name = p.objects.unwrap()[0].clone();
        Ok(if name == "Cup" { bounds("Cup", [-0.1, -0.1, 1.03], [0.1, 0.1, 1.23]) } else { bounds("Table", [-1.0, -1.0, 0.0], [1.0, 1.0, 1.0]) })
    });
    bridge.on::<Raycast, _>(|p| {
        assert_eq!(p.objects.as_deref(), Some(&["Table".to_string()][..]));
        assert_eq!(p.direction, [0.0, 0.0, -1.0]);
        assert!((p.origin[2] - 2.23).abs() < 1e-9);
        Ok(serde_json::from_value(json!({ "hit": true, "location": [0.0, 0.0, 1.0], "normal": [0.0, 0.0, 1.0], "object": "Table", "face_index": 0, "distance": 1.23 })).unwrap())
    });
    let cap = capabilities::all().into_iter().find(|c| c.key() == "spatial.assert").unwrap();
    let out: Value = serde_json::from_str(&cap.run_json(r#"{"constraints": [{"type": "on_top_of", "object": "Cup", "support": "Table"}, {"type": "inside", "object": "Cup", "support": "Table"}]}"#).unwrap()).unwrap();
    let r = &out["results"][0];
    assert_eq!(r["passed"], false);
    assert!((r["measured"]["gap"].as_f64().unwrap() - 0.03).abs() < 1e-9);
    assert!((r["failed_by"].as_f64().unwrap() - 0.02).abs() < 1e-9);
    assert!(r["detail"].as_str().unwrap().contains("floats"));
    assert!((out["results"][1]["measured"]["protrusion"].as_f64().unwrap() - 0.23).abs() < 1e-9);
    assert_eq!(out["score"], 0.0);
    // Bounds are fetched once per object, whatever the number of constraints.
    assert_eq!(bridge.commands(), ["bounds_world", "bounds_world", "raycast"]);
}

#[test]
fn a_missing_object_fails_its_constraint_not_the_call() {
    let bridge = MockBridge::install();
    bridge.on::<MeshStats, _>(|p| Err(capstan_sdk::BridgeError::app(AppErrorCode::NotFound, format!("no object named {:?}", p.object))));
    let cap = capabilities::all().into_iter().find(|c| c.key() == "spatial.assert").unwrap();
    let out: Value = serde_json::from_str(&cap.run_json(r#"{"constraints": [{"type": "triangulated", "object": "Ghost"}]}"#).unwrap()).unwrap();
    assert_eq!(out["passed"], false);
    assert_eq!(out["results"][0]["error"]["code"], "not_found");
}

#[test]
fn scale_to_real_scales_uniformly_from_the_current_scale() {
    let bridge = MockBridge::install();
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = calls.clone();
    bridge.on::<BoundsWorld, _>(move |_| {
        let n = seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Ok(if n == 0 { bounds("Car", [0.0; 3], [0.9, 2.35, 0.725]) } else { bounds("Car", [0.0; 3], [1.8, 4.7, 1.45]) })
    });
    bridge.on::<GetObjectInfo, _>(|_| Ok(serde_json::from_value(json!({
        "name": "Car", "type": "MESH", "location": [0.0, 0.0, 0.0], "rotation": [0.0, 0.0, 0.0], "scale": [0.5, 0.5, 0.5],
        "visible": true, "parent": null, "collections": [], "materials": [], "dimensions": [0.9, 2.35, 0.725], "children": [],
        "children_total": 0, "modifiers": [], "modifiers_total": 0, "constraints": [], "constraints_total": 0,
        "material_details": [], "keyframes": [], "parent_type": "OBJECT", "custom_properties": {},
    })).unwrap()));
    bridge.on::<ModifyObject, _>(|p| {
        let s = p.scale.unwrap();
        assert!(s.iter().all(|v| (v - 1.0).abs() < 1e-9), "{s:?}");
        Ok(serde_json::from_value(json!({
            "name": "Car", "type": "MESH", "location": [0.0, 0.0, 0.0], "rotation": [0.0, 0.0, 0.0], "scale": s, "visible": true,
            "parent": null, "collections": [], "materials": [], "delta": { "added": [], "removed": [], "changed": ["Car"], "settings": [] },
        })).unwrap())
    });
    let cap = capabilities::all().into_iter().find(|c| c.key() == "spatial.dimensions").unwrap();
    let out: Value = serde_json::from_str(&cap.run_json(r#"{"action": "scale_to_real", "object": "Car", "object_type": "car_sedan"}"#).unwrap()).unwrap();
    assert!((out["factor"].as_f64().unwrap() - 2.0).abs() < 1e-9);
}
