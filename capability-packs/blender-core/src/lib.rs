//! blender-core: the core Blender capabilities of capstan.
//!
//! One file per capability in `src/capabilities/` (collected by the build script, so
//! adding a capability is adding a file); each turns validated, agent-friendly
//! arguments (degrees, colour names, material presets) into typed bridge commands with
//! Blender-native values (radians, linear RGBA). The routing families this pack serves,
//! with their cue words, are in `families.rs`. The lighting rigs are a pure module of
//! their own, tested without Blender; the helpers Blender packs share (angles, colours,
//! targets) are capstan-blender's.

mod families;
mod lighting;

include!(concat!(env!("OUT_DIR"), "/capabilities.rs"));

pub use families::families;

capstan_sdk::export_pack!(families = families::families, capabilities = capabilities::all);

#[cfg(test)]
mod tests;
