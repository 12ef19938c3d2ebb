//! Blender itself: finding it, provisioning a headless one (of a supported LTS line),
//! launching it with the bridge, and installing the add-on into a user's Blender.
//!
//! The add-on's files are embedded in the binary (`addon`), so these work from a
//! `capstan` binary alone, without the source tree.

pub mod addon;
pub mod cli;
pub mod contact_sheet;
pub mod demo;
pub mod find_python;
pub mod install;
pub mod launch;
pub mod line;
pub mod pack_templates;
pub mod locate;
pub mod process;
pub mod provision;
pub mod unit;
