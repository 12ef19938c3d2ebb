//! blender-spatial: measuring and placing things in the evaluated Blender scene.
//!
//! One file per capability in `src/capabilities/`; every measurement comes from a typed
//! bridge command that reads Blender's evaluated, world-space geometry (metres), so the
//! answers are what Blender sees, not estimates from object origins (camera framing
//! projects that geometry through the camera). `assertions.rs`
//! turns measurements into pass/fail verdicts (pure, tested without Blender);
//! `dimensions_table.rs` is the real-world dimension table.

mod assertions;
mod dimensions_table;
mod families;

include!(concat!(env!("OUT_DIR"), "/capabilities.rs"));

pub use families::families;

capstan_sdk::export_pack!(families = families::families, capabilities = capabilities::all);

#[cfg(test)]
mod tests;
