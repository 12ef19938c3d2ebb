//! Log lines for the host's log. Guest stdout/stderr are captured too, but these
//! carry a level and are the supported way to explain what a pack is doing.
//! Outside a host (native unit tests) they go to stderr.

#[cfg(target_arch = "wasm32")]
use crate::bindings::capstan::pack::log::{Level, log};

#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug)]
enum Level {
    Trace,
    Debug,
    Info,
    Warn,
    Error,
}

#[cfg(not(target_arch = "wasm32"))]
fn log(level: Level, message: &str) {
    eprintln!("[{level:?}] {message}");
}

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
