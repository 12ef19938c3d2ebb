//! The pack as a whole: the manifest's command list, families, effects, and handlers run
//! against the SDK's mock bridge (no Blender; conformance and pytest run the real one).

use crate::{capabilities, families};
use capstan_blender::*;
use capstan_sdk::testing::MockBridge;
use serde_json::json;

/// `pack.json` lists exactly the commands the capabilities use. It is derived, not kept
/// by hand: `CAPSTAN_BLESS=1 cargo test -p blender-product` rewrites it.
#[test]
fn the_manifest_lists_exactly_the_commands_the_capabilities_use() {
    capstan_blender::testing::assert_manifest_commands(env!("CARGO_MANIFEST_DIR"), &capabilities::all());
}

#[test]
fn capabilities_mutate_without_destroying_and_have_cases() {
    capstan_blender::testing::assert_declared(&families(), &capabilities::all(), 3);
    for c in capabilities::all() {
        assert!(c.mutates_state() && !c.is_destructive(), "{}", c.key());
    }
}

fn cap(key: &str) -> capstan_sdk::Capability {
    capabilities::all().into_iter().find(|c| c.key() == key).unwrap()
}

fn rig() -> ProductLightRigResult {
    let light = json!({ "role": "key", "name": "Product Key", "energy": 1.0, "color": [1.0, 1.0, 1.0], "size": 1.0, "location": [0.0, 0.0, 0.0] });
    serde_json::from_value(json!({ "preset": "jewelry", "center": [0.0, 0.0, 0.0], "radius": 1.0, "shadow_catcher": null,
        "lights": [light.clone(), light.clone(), light],
        "delta": { "added": [], "removed": [], "changed": [], "settings": [] } })).unwrap()
}

#[test]
fn the_hdri_rotation_goes_to_the_bridge_in_radians() {
    let bridge = MockBridge::install();
    bridge.on::<SetWorldHdri, _>(|p| {
        assert!((p.rotation.unwrap() - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        assert_eq!(p.strength, Some(1.5));
        Err(capstan_sdk::BridgeError::app(AppErrorCode::PathRefused, "outside"))
    });
    let err = cap("product.lighting").run_json(r#"{"preset": "jewelry", "hdri_path": "/r/a.hdr", "hdri_rotation": 90}"#);
    assert!(err.is_err());
    assert_eq!(bridge.commands(), ["set_world_hdri"], "a refused world places no lights");
}

#[test]
fn contradictory_worlds_make_no_bridge_call() {
    let bridge = MockBridge::install();
    bridge.on::<ProductLightRig, _>(|_| Ok(rig()));
    assert!(cap("product.lighting").run_json(r#"{"preset": "jewelry", "hdri_path": "/r/a.hdr", "gradient_bg": true}"#).is_err());
    assert!(cap("product.lighting").run_json(r#"{"preset": "jewelry", "gradient_top": [1, 1, 1]}"#).is_err());
    assert!(bridge.commands().is_empty());
}
