//! The pack as a whole: the manifest's command list, families, read-only effects, and
//! handlers run against the SDK's mock bridge (no Blender; the conformance suite and the
//! add-on's pytest run the real one).

use crate::{capabilities, families};
use capstan_blender::*;
use capstan_sdk::testing::MockBridge;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// `pack.json` lists exactly the commands the capabilities use. It is derived, not kept
/// by hand: `CAPSTAN_BLESS=1 cargo test -p blender-inspect` rewrites it.
#[test]
fn the_manifest_lists_exactly_the_commands_the_capabilities_use() {
    capstan_blender::testing::assert_manifest_commands(env!("CARGO_MANIFEST_DIR"), &capabilities::all());
}

#[test]
fn every_capability_is_a_read_with_a_family_and_cases() {
    let all = capabilities::all();
    capstan_blender::testing::assert_declared(&families(), &all, 3);
    let keys: BTreeSet<&str> = all.iter().map(|c| c.key()).collect();
    assert_eq!(keys, BTreeSet::from(["inspect.mesh", "inspect.mesh_quality", "inspect.hierarchy", "inspect.diagnostics", "inspect.datablocks", "inspect.rna", "inspect.viewport", "inspect.file_paths"]));
    for c in &all {
        assert!(!c.mutates_state() && !c.is_destructive(), "{} must be read-only", c.key());
    }
}

fn cap(key: &str) -> capstan_sdk::Capability {
    capabilities::all().into_iter().find(|c| c.key() == key).unwrap()
}

#[test]
fn rna_describes_with_a_type_and_searches_without_one() {
    let bridge = MockBridge::install();
    bridge.on::<RnaSearch, _>(|p| {
        assert_eq!((p.query.as_str(), p.offset, p.limit), ("bevel", Some(0), Some(100)));
        Ok(serde_json::from_value(json!({ "types": [], "page": { "offset": 0, "limit": 100, "total": 0, "next_offset": null } })).unwrap())
    });
    bridge.on::<RnaDescribe, _>(|p| {
        assert_eq!((p.type_name.as_str(), p.query.as_deref(), p.limit), ("BevelModifier", Some("width"), Some(7)));
        Ok(serde_json::from_value(json!({ "type_name": "BevelModifier", "label": "Bevel", "description": "", "base": "Modifier",
            "functions": [], "properties": [], "page": { "offset": 0, "limit": 7, "total": 0, "next_offset": null } })).unwrap())
    });
    let out: Value = serde_json::from_str(&cap("inspect.rna").run_json(r#"{"query": "bevel"}"#).unwrap()).unwrap();
    assert_eq!(out["mutation_authority"], false);
    cap("inspect.rna").run_json(r#"{"type_name": "BevelModifier", "query": "width", "limit": 7}"#).unwrap();
    assert_eq!(bridge.commands(), ["rna_search", "rna_describe"]);
    assert!(cap("inspect.rna").run_json("{}").is_err());
    assert_eq!(bridge.commands().len(), 2, "no bridge call without type_name or query");
}

#[test]
fn mesh_defaults_ask_for_the_summary_page() {
    let bridge = MockBridge::install();
    bridge.on::<MeshInspect, _>(|p| {
        assert_eq!((p.action, p.offset, p.limit, p.selected_only), (Some(MeshInspectParamsAction::Summary), Some(0), Some(250), Some(false)));
        Ok(serde_json::from_value(json!({ "object": "Cube", "action": "summary", "summary": null, "rows": [],
            "page": { "offset": 0, "limit": 250, "total": 0, "next_offset": null } })).unwrap())
    });
    let out: Value = serde_json::from_str(&cap("inspect.mesh").run_json(r#"{"object": "Cube"}"#).unwrap()).unwrap();
    assert_eq!(out["units"], "metres, object space");
    assert_eq!(bridge.commands(), ["mesh_inspect"]);
    // Names are checked by the host against the schema before any bridge call.
    let schema: Value = serde_json::from_str(&cap("inspect.mesh").input_schema()).unwrap();
    assert_eq!(schema["properties"]["object"]["pattern"], "^[A-Za-z0-9_. -]{1,63}$");
    assert_eq!(schema["properties"]["limit"]["maximum"], 5000);
}

#[test]
fn mesh_quality_passes_the_names_and_epsilon_and_defaults_to_every_mesh() {
    let bridge = MockBridge::install();
    bridge.on::<MeshQuality, _>(|p| {
        let names = p.objects.clone().unwrap_or_default();
        Ok(serde_json::from_value(json!({ "objects": [], "total": names.len(), "truncated": false,
            "area_epsilon": p.area_epsilon.unwrap_or(1e-8), "clean": true })).unwrap())
    });
    let out: Value = serde_json::from_str(&cap("inspect.mesh_quality").run_json(r#"{"objects": ["Cube", "Plane"], "area_epsilon": 0.001}"#).unwrap()).unwrap();
    assert_eq!((out["total"].as_i64(), out["area_epsilon"].as_f64()), (Some(2), Some(0.001)));
    let out: Value = serde_json::from_str(&cap("inspect.mesh_quality").run_json("{}").unwrap()).unwrap();
    assert_eq!(out["total"], 0, "no names: the bridge is asked for every mesh");
    assert_eq!(bridge.commands(), ["mesh_quality", "mesh_quality"]);
    let schema: Value = serde_json::from_str(&cap("inspect.mesh_quality").input_schema()).unwrap();
    assert_eq!(schema["properties"]["objects"]["minItems"], 1);
    let output: Value = serde_json::from_str(&cap("inspect.mesh_quality").output_schema().unwrap()).unwrap();
    assert!(output.to_string().contains("boundary_edges"), "the declared output names the checks");
}
