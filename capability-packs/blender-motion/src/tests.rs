//! The pack as a whole: the manifest's command list, families, effects.

use crate::{capabilities, families};
use serde_json::{Value, json};
use std::collections::BTreeSet;

fn manifest() -> Value {
    serde_json::from_str(include_str!("../pack.json")).unwrap()
}

/// `pack.json` lists exactly the commands the capabilities use. It is derived, not kept
/// by hand: run `CAPSTAN_BLESS=1 cargo test -p blender-motion` to rewrite it.
#[test]
fn the_manifest_lists_exactly_the_commands_the_capabilities_use() {
    let used: BTreeSet<String> = capabilities::all().iter().flat_map(|c| c.bridge_commands().to_vec()).map(str::to_string).collect();
    let mut doc = manifest();
    let listed: BTreeSet<String> = doc["servers"]["blender"]["commands"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
    if listed != used && std::env::var("CAPSTAN_BLESS").as_deref() == Ok("1") {
        doc["servers"]["blender"]["commands"] = json!(used);
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/pack.json");
        std::fs::write(path, serde_json::to_string_pretty(&doc).unwrap() + "\n").unwrap();
        return;
    }
    assert_eq!(listed, used, "pack.json's servers.blender.commands is stale: run CAPSTAN_BLESS=1 cargo test -p blender-motion");
}

#[test]
fn every_capability_has_a_declared_family_and_conformance_cases() {
    let declared: BTreeSet<&str> = families().iter().map(|f| f.name()).collect();
    for c in capabilities::all() {
        assert!(declared.contains(c.family()), "{} is in undeclared family {}", c.key(), c.family());
        assert!(!c.conformance_cases().is_empty(), "{} has no conformance case", c.key());
        assert!(!c.summary_text().is_empty(), "{}", c.key());
    }
}

#[test]
fn effects_come_from_the_commands_used() {
    let all = capabilities::all();
    let by_key = |k: &str| all.iter().find(|c| c.key() == k).unwrap_or_else(|| panic!("{k}"));
    for key in ["animation.clear", "rig.bone", "physics.particles"] {
        assert!(by_key(key).is_destructive(), "{key} removes data");
    }
    for key in ["animation.frame_range", "animation.interpolation", "animation.shape_keys", "animation.follow_path", "animation.turntable",
                "rig.armature", "rig.bind", "rig.pose", "rig.vertex_group", "physics.rigid_body", "physics.cloth", "physics.collision",
                "physics.fluid", "physics.force_field", "physics.bake"] {
        assert!(by_key(key).mutates_state() && !by_key(key).is_destructive(), "{key}");
    }
    assert_eq!(all.len(), 18);
}

#[test]
fn every_key_is_family_prefixed_as_the_catalog_has_it() {
    for c in capabilities::all() {
        let prefix = c.key().split('.').next().unwrap();
        let expected = match prefix { "animation" => "animation", "rig" => "rigging", "physics" => "physics", other => panic!("{other}") };
        assert_eq!(c.family(), expected, "{}", c.key());
    }
}
