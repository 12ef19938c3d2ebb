//! Blender's bridge commands, typed: one type per command with its params and result
//! structs, and a function per command (`create_object(&params)`). Generated from the
//! add-on's declarations by `scripts/bridgegen.py`; the test command checks it is
//! current.

mod commands;

pub use commands::*;
