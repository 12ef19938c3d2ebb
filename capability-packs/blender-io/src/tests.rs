//! The pack as a whole: the manifest's command list, families, effects, and handlers run
//! against the SDK's mock bridge (no Blender; the conformance suite runs the real one).

use crate::{capabilities, families};
use capstan_blender::*;
use capstan_sdk::testing::MockBridge;
use serde_json::{Value, json};
use std::collections::BTreeSet;

fn cap(key: &str) -> capstan_sdk::Capability {
    capabilities::all()
        .into_iter()
        .find(|c| c.key() == key)
        .unwrap_or_else(|| panic!("{key}"))
}

/// `pack.json` lists exactly the commands the capabilities use. It is derived, not kept
/// by hand: `CAPSTAN_BLESS=1 cargo test -p blender-io` rewrites it.
#[test]
fn the_manifest_lists_exactly_the_commands_the_capabilities_use() {
    capstan_blender::testing::assert_manifest_commands(env!("CARGO_MANIFEST_DIR"), &capabilities::all());
}

#[test]
fn every_catalog_key_is_here_with_a_declared_family_and_cases() {
    let keys: BTreeSet<String> = capabilities::all()
        .iter()
        .map(|c| c.key().to_string())
        .collect();
    let want = [
        "io.import",
        "io.export",
        "io.save",
        "io.open",
        "io.append",
        "io.image_plane",
        "io.paths",
        "assets.search",
        "assets.import",
        "assets.hdri",
        "assets.texture_set",
        "assets.mark",
    ];
    assert_eq!(keys, want.iter().map(|k| k.to_string()).collect());
    capstan_blender::testing::assert_declared(&families(), &capabilities::all(), 1);
}

#[test]
fn effects_follow_the_bridge_commands() {
    for key in ["io.export", "io.save", "assets.search"] {
        assert!(!cap(key).mutates_state(), "{key}");
    }
    for key in [
        "io.import",
        "io.append",
        "io.image_plane",
        "io.paths",
        "assets.import",
        "assets.hdri",
        "assets.texture_set",
        "assets.mark",
    ] {
        assert!(
            cap(key).mutates_state() && !cap(key).is_destructive(),
            "{key}"
        );
    }
    assert!(
        cap("io.open").is_destructive(),
        "io.open replaces the scene"
    );
}

#[test]
fn bad_paths_make_no_bridge_call() {
    let bridge = MockBridge::install();
    for (key, args) in [
        ("io.import", r#"{"path": "/srv/a/../../etc/x.obj"}"#),
        ("io.export", r#"{"filename": "x.obj", "format": "glb"}"#),
        ("io.save", r#"{"filename": "a/b.blend"}"#),
        ("io.open", r#"{"path": "x.blend", "empty": true}"#),
        (
            "assets.import",
            r#"{"library": "/srv", "file": "../x.blend", "name": "Rock", "kind": "object"}"#,
        ),
        (
            "assets.texture_set",
            r#"{"object": "Cube", "set_path": "/srv/../x_diff.png"}"#,
        ),
    ] {
        assert!(cap(key).run_json(args).is_err(), "{key} {args}");
    }
    assert!(bridge.commands().is_empty(), "{:?}", bridge.commands());
}

#[test]
fn import_converts_nothing_and_fails_when_nothing_arrives() {
    let bridge = MockBridge::install();
    bridge.on::<ImportFile, _>(|p| {
        assert_eq!(p.scale, Some(0.01));
        Ok(serde_json::from_value(
            json!({ "path": "/srv/x.obj", "format": "obj", "new_objects": [], "scale": 0.01,
            "delta": { "added": [], "removed": [], "changed": [], "settings": [] } }),
        )
        .unwrap())
    });
    let err = cap("io.import")
        .run_json(r#"{"path": "/srv/x.obj", "scale": 0.01}"#)
        .unwrap_err();
    assert!(err.to_string().contains("no object"), "{err}");
}

#[test]
fn image_plane_and_hdri_rotations_go_to_radians() {
    let bridge = MockBridge::install();
    bridge.on::<CreateImagePlane, _>(|p| {
        let r = p.rotation.unwrap();
        assert!((r[0] - std::f64::consts::FRAC_PI_2).abs() < 1e-12 && r[1] == 0.0);
        Ok(serde_json::from_value(json!({ "name": "Board", "image": "b.png", "material": "Board", "dimensions": [1.0, 0.5],
            "delta": { "added": ["Board"], "removed": [], "changed": [], "settings": [] } })).unwrap())
    });
    cap("io.image_plane")
        .run_json(r#"{"path": "b.png", "rotation": [90, 0, 0]}"#)
        .unwrap();
    bridge.on::<ListLocalAssets, _>(|p| {
        assert_eq!(p.kind, Some(ListLocalAssetsParamsKind::Hdri));
        Ok(serde_json::from_value(json!({ "assets": [
            { "name": "dusk", "kind": "hdri", "library": "/srv/lib/", "file": "sky/dusk.exr", "tags": [], "catalog": null, "description": "" },
            { "name": "dusk_2", "kind": "hdri", "library": "/srv/lib", "file": "dusk_2.exr", "tags": [], "catalog": null, "description": "" },
        ], "total": 2, "offset": 0, "limit": 200, "roots": ["/srv/lib"] })).unwrap())
    });
    bridge.on::<SetWorldHdri, _>(|p| {
        assert_eq!(p.path, "/srv/lib/sky/dusk.exr");
        assert!((p.rotation.unwrap() - std::f64::consts::PI).abs() < 1e-12);
        Ok(serde_json::from_value(json!({ "world": "World", "mode": "hdri", "nodes": [], "strength": 1.0, "image": "dusk.exr", "sky_type": null,
            "delta": { "added": [], "removed": [], "changed": [], "settings": ["world"] } })).unwrap())
    });
    let out: Value = serde_json::from_str(
        &cap("assets.hdri")
            .run_json(r#"{"action": "apply", "name": "dusk", "rotation": 180}"#)
            .unwrap(),
    )
    .unwrap();
    assert_eq!(out["file"], "sky/dusk.exr");
}
