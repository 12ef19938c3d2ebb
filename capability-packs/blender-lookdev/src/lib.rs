//! blender-lookdev: look development in Blender for capstan.
//!
//! Node materials (presets, an allowlisted shader-graph editor, image textures from the
//! read roots, Cycles baking, assignment, listing), UV maps (unwrap, pack, seams,
//! layers), lights, world looks (HDRI, physical sky, gradient), camera rigs (aim,
//! framing, depth of field, lens), and rendering beyond one still (frame sequences,
//! audit, compositor, colour management, statistics of a rendered image).
//!
//! One file per capability in `src/capabilities/` (collected by the build script). Each
//! turns agent-friendly arguments (degrees, colour names) into typed bridge commands
//! with Blender-native values (radians, linear RGBA). The families it serves, with
//! their cue words, are in `families.rs`; they merge with blender-core's in the host's
//! router. Colours and targets are capstan-blender's helpers, shared with other packs.

mod audit;
mod families;

include!(concat!(env!("OUT_DIR"), "/capabilities.rs"));

pub use families::families;

capstan_sdk::export_pack!(families = families::families, capabilities = capabilities::all);

#[cfg(test)]
mod tests;
