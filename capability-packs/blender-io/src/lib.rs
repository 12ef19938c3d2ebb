//! blender-io: files in and out of the session, and local asset libraries.
//!
//! One file per capability in `src/capabilities/`. Inputs come only from the read roots
//! (CAPSTAN_READ_ROOTS, and the session output folder; a bare file name is a file of the
//! output folder); outputs are bare file names in the session output folder. The bridge
//! checks both. Asset libraries are local folders only: nothing here touches the network.

mod families;
mod paths;

include!(concat!(env!("OUT_DIR"), "/capabilities.rs"));

pub use families::families;

capstan_sdk::export_pack!(
    families = families::families,
    capabilities = capabilities::all
);

#[cfg(test)]
mod tests;
