//! Arbitrary bytes as a bridge's answer on the wire (see fuzz/entry/bridge_response.rs).
#![no_main]

#[path = "../entry/bridge_response.rs"]
mod entry;

libfuzzer_sys::fuzz_target!(|data: &[u8]| entry::run(data));
