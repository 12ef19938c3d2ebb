//! blender-forensic: capstan's accident-reconstruction capabilities for Blender.
//!
//! One file per capability in `src/capabilities/` (collected by the build script). They
//! split OpenClaw's single `forensic_scene` tool into typed keys and drive the add-on's
//! forensic commands (`commands/forensic.py`: `build_road`, `place_proxy`, `ghost_copy`)
//! beside the catalog's general ones (text, curves, meshes, materials, cameras, lights,
//! sky, keyframes). The pure parts (the vehicle dimension table, names, marker geometry,
//! camera placement, waypoint checks) are in `plan.rs`, tested without Blender.

mod families;
mod label;
mod path;
mod plan;

include!(concat!(env!("OUT_DIR"), "/capabilities.rs"));

pub use families::families;

capstan_sdk::export_pack!(families = families::families, capabilities = capabilities::all);

#[cfg(test)]
mod tests;
