//! blender-motion: things that move. Animation beyond single keys, rigging, physics.
//!
//! One file per capability in `src/capabilities/`, each over typed bridge commands
//! (`commands/keyframes.py`, `rigging.py`, `physics.py` in the add-on). Angles are
//! degrees on the wire and radians toward Blender (`capstan_blender::angles`); the routing families
//! are in `families.rs`.

mod bones;
mod families;

include!(concat!(env!("OUT_DIR"), "/capabilities.rs"));

pub use families::families;

capstan_sdk::export_pack!(families = families::families, capabilities = capabilities::all);

#[cfg(test)]
mod tests;
