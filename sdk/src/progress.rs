//! Progress of a long-running capability (several renders, a bake, many frames), for
//! the client to show: the host forwards each report as an MCP progress notification
//! when the client asked for progress, and drops it otherwise. Reporting never fails
//! and never blocks; a report must advance (`done` larger than the last one's) or the
//! host drops it, and it keeps at most 200 characters of the message.
//!
//! ```
//! use capstan_sdk::progress;
//! for frame in 1..=4u64 {
//!     // ... render the frame ...
//!     progress::report(frame, 4, &format!("frame {frame} of 4"));
//! }
//! ```
//!
//! Outside a host (native unit tests) reports go to the thread's
//! [`crate::testing::MockBridge`], whose `progress()` lists them.

/// `done` units of `total` (0: the total is not known), with a short message.
pub fn report(done: u64, total: u64, message: &str) {
    #[cfg(target_arch = "wasm32")]
    crate::bindings::capstan::pack::progress::report(done, total, message);
    #[cfg(not(target_arch = "wasm32"))]
    crate::testing::record_progress(done, total, message);
}
