//! Log lines for the host's log. Guest stdout/stderr are captured too, but these
//! carry a level and are the supported way to explain what a pack is doing.

use crate::bindings::capstan::pack::log::{Level, log};

pub fn trace(message: &str) {
    log(Level::Trace, message)
}
pub fn debug(message: &str) {
    log(Level::Debug, message)
}
pub fn info(message: &str) {
    log(Level::Info, message)
}
pub fn warn(message: &str) {
    log(Level::Warn, message)
}
pub fn error(message: &str) {
    log(Level::Error, message)
}
