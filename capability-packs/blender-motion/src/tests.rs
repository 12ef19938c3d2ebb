//! The pack as a whole: the manifest's command list, families, effects.

use crate::{capabilities, families};

/// `pack.json` lists exactly the commands the capabilities use. It is derived, not kept
/// by hand: `CAPSTAN_BLESS=1 cargo test -p blender-motion` rewrites it.
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
    // These remove data; every other capability of the pack adds or changes without removing.
    let destructive = ["animation.clear", "rig.bone", "physics.particles"];
    let all = capabilities::all();
    for key in destructive {
        assert!(all.iter().any(|c| c.key() == key), "no {key}");
    }
    for c in &all {
        if destructive.contains(&c.key()) {
            assert!(c.is_destructive(), "{} removes data", c.key());
        } else {
            assert!(c.mutates_state() && !c.is_destructive(), "{}", c.key());
        }
    }
}

#[test]
fn every_key_is_family_prefixed_as_the_catalog_has_it() {
    for c in capabilities::all() {
        let prefix = c.key().split('.').next().unwrap();
        let expected = match prefix { "animation" => "animation", "rig" => "rigging", "physics" => "physics", other => panic!("{other}") };
        assert_eq!(c.family(), expected, "{}", c.key());
    }
}
