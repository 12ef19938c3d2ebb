//! blender-core: the core Blender capabilities of capstan.
//!
//! One file per capability in `src/capabilities/` (collected by the build script, so
//! adding a capability is adding a file); each turns validated, agent-friendly
//! arguments (degrees, colour names, material presets) into typed bridge commands with
//! Blender-native values (radians, linear RGBA). The routing families this pack serves,
//! with their cue words, are in `families.rs`. Shared pure helpers (angles, colours,
//! lighting rigs, targets) are modules of their own, tested without Blender.

mod angles;
mod color;
mod families;
mod lighting;
mod target;

include!(concat!(env!("OUT_DIR"), "/capabilities.rs"));

pub use families::families;

capstan_sdk::export_pack!(families = families::families, capabilities = capabilities::all);

#[cfg(test)]
mod tests;
