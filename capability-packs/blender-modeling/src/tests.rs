//! The pack as a whole: the manifest's command list, families and cases, and handlers
//! run against the SDK's mock bridge (no Blender; the conformance suite runs the real one).

use crate::{capabilities, families};
use serde_json::{Value, json};

/// `pack.json` lists exactly the commands the capabilities use. It is derived, not kept
/// by hand: `CAPSTAN_BLESS=1 cargo test -p blender-modeling` rewrites it.
#[test]
fn the_manifest_lists_exactly_the_commands_the_capabilities_use() {
    capstan_blender::testing::assert_manifest_commands(env!("CARGO_MANIFEST_DIR"), &capabilities::all());
}

#[test]
fn every_capability_has_a_declared_family_cases_examples_and_aliases() {
    // A success and a failure case at least.
    capstan_blender::testing::assert_declared(&families(), &capabilities::all(), 2);
    capstan_blender::testing::assert_keys_in_family_namespace(&capabilities::all());
}

#[test]
fn effects_come_from_the_commands_used() {
    let all = capabilities::all();
    let by_key = |k: &str| all.iter().find(|c| c.key() == k).unwrap_or_else(|| panic!("no {k}"));
    for k in ["create.curve", "create.text", "create.mesh", "object.duplicate", "object.custom_property", "object.collection", "object.select", "object.rename", "generation.pattern",
              "generation.terrain", "generation.lod", "generation.scatter", "generation.geometry_nodes"] {
        assert!(by_key(k).mutates_state() && !by_key(k).is_destructive(), "{k}");
    }
    for k in ["create.convert", "mutate.modifier_apply", "mutate.boolean", "mutate.mesh_edit", "mutate.remesh", "mutate.sculpt_filter",
              "mutate.cleanup", "mutate.join", "mutate.separate", "mutate.transform_apply"] {
        assert!(by_key(k).is_destructive(), "{k}");
    }
}

fn delta() -> Value {
    json!({ "added": [], "removed": [], "changed": [], "settings": [] })
}

fn cap(key: &str) -> capstan_sdk::Capability {
    capabilities::all().into_iter().find(|c| c.key() == key).unwrap()
}

#[test]
fn a_boolean_that_fails_to_apply_removes_its_modifier_again() {
    use capstan_blender::*;
    let bridge = capstan_sdk::testing::MockBridge::install();
    bridge.on::<AddModifier, _>(|p| {
        assert_eq!(p.properties.as_ref().unwrap()["solver"], AddModifierParamsPropertiesValue::String("FLOAT".into()));
        Ok(serde_json::from_value(json!({ "object": p.object, "modifier": "Boolean Knife", "type": "BOOLEAN", "index": 0, "properties": {}, "delta": delta() })).unwrap())
    });
    bridge.on::<ApplyModifier, _>(|_| Err(capstan_sdk::BridgeError::app(AppErrorCode::InvalidTarget, "shared mesh")));
    bridge.on::<RemoveModifier, _>(|p| {
        assert_eq!(p.modifier, "Boolean Knife");
        Ok(serde_json::from_value(json!({ "object": p.object, "modifier": p.modifier, "type": "BOOLEAN", "modifiers": [], "delta": delta() })).unwrap())
    });
    match cap("mutate.boolean").run_json(r#"{"object": "Box", "cutter": "Knife", "solver": "FAST", "delete_cutter": true}"#) {
        Err(capstan_sdk::PackError::Bridge(e)) => assert_eq!(e.app_error(), Some(AppErrorCode::InvalidTarget)),
        other => panic!("{other:?}"),
    }
    assert_eq!(bridge.commands(), ["add_modifier", "apply_modifier", "remove_modifier"], "the cutter is not deleted after a failure");
}

#[test]
fn converting_in_place_is_convert_then_delete_then_rename() {
    use capstan_blender::*;
    let bridge = capstan_sdk::testing::MockBridge::install();
    bridge.on::<ConvertObject, _>(|p| {
        assert_eq!((p.new_name.as_deref(), p.adopt_children), (Some("Logo converting"), Some(true)));
        Ok(serde_json::from_value(json!({ "name": "Logo converting", "type": "MESH", "source": "Logo", "adopted": [], "mesh": { "vertices": 4, "edges": 4, "faces": 1 }, "delta": delta() })).unwrap())
    });
    bridge.on::<DeleteObject, _>(|p| {
        assert_eq!(p.name.as_deref(), Some("Logo"));
        Ok(serde_json::from_value(json!({ "deleted": ["Logo"], "not_found": [], "delta": delta() })).unwrap())
    });
    bridge.on::<ModifyObject, _>(|p| {
        assert_eq!((p.name.as_str(), p.new_name.as_deref()), ("Logo converting", Some("Logo")));
        Ok(serde_json::from_value(json!({ "name": "Logo", "type": "MESH", "location": [0.0, 0.0, 0.0], "rotation": [0.0, 0.0, 0.0], "scale": [1.0, 1.0, 1.0],
            "visible": true, "parent": null, "collections": [], "materials": [], "delta": delta() })).unwrap())
    });
    let out: Value = serde_json::from_str(&cap("create.convert").run_json(r#"{"object": "Logo"}"#).unwrap()).unwrap();
    assert_eq!(out["name"], "Logo");
    assert_eq!(bridge.commands(), ["convert_object", "delete_object", "modify_object"]);
}

#[test]
fn a_radial_pattern_parents_its_pivot_without_keeping_the_world_transform() {
    use capstan_blender::*;
    let bridge = capstan_sdk::testing::MockBridge::install();
    bridge.on::<CreateObject, _>(|p| {
        let loc = p.location.unwrap();
        assert!((loc[0] + 2.0).abs() < 1e-9 && (loc[1] - 2.0).abs() < 1e-9, "{loc:?}");
        Ok(serde_json::from_value(json!({ "name": "Ring Pivot", "type": "EMPTY", "location": loc, "rotation": p.rotation.unwrap(), "scale": [1.0, 1.0, 1.0],
            "visible": true, "parent": null, "collections": [], "materials": [], "delta": delta() })).unwrap())
    });
    bridge.on::<ParentObjects, _>(|p| {
        assert_eq!((p.parent.as_deref(), p.keep_transform), (Some("Ring"), Some(false)));
        Ok(serde_json::from_value(json!({ "parent": "Ring", "children": p.children, "keep_transform": false, "delta": delta() })).unwrap())
    });
    bridge.on::<AddModifier, _>(|p| {
        let props = p.properties.unwrap();
        assert_eq!(props["offset_object"], AddModifierParamsPropertiesValue::String("Ring Pivot".into()));
        Ok(serde_json::from_value(json!({ "object": p.object, "modifier": "Pattern Radial", "type": "ARRAY", "index": 0, "properties": {}, "delta": delta() })).unwrap())
    });
    bridge.on::<EvaluatedStats, _>(|_| {
        Ok(serde_json::from_value(json!({ "objects": [{ "name": "Ring", "type": "MESH", "evaluated": { "vertices": 32, "edges": 48, "faces": 24 }, "triangles": 48,
            "instances": 0, "first_instances": [], "bounds_min": [0.0, 0.0, 0.0], "bounds_max": [1.0, 1.0, 1.0], "dimensions": [1.0, 1.0, 1.0] }] })).unwrap())
    });
    cap("generation.pattern").run_json(r#"{"object": "Ring", "pattern": "radial", "count": 4, "radius": 2}"#).unwrap();
    assert_eq!(bridge.commands(), ["create_object", "parent_objects", "add_modifier", "evaluated_stats"]);
}
