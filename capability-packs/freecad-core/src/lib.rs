//! freecad-core: parametric CAD in FreeCAD, through capstan's FreeCAD bridge.
//!
//! One file per capability in `src/capabilities/`. Lengths are millimetres and angles
//! degrees, as FreeCAD has them. Inputs come only from the read roots (and the session
//! output folder); outputs are bare file names in the session output folder. The bridge
//! checks both again.

mod edges;
mod families;
mod files;

include!(concat!(env!("OUT_DIR"), "/capabilities.rs"));

pub use families::families;

capstan_sdk::export_pack!(families = families::families, capabilities = capabilities::all);

#[cfg(test)]
mod tests;
