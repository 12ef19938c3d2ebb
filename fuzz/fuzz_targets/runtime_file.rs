//! Arbitrary bytes as an app's runtime file: the reader must answer an endpoint on a
//! loopback address or a typed error, never panic, never anything else.
#![no_main]

use capstan::bridge::endpoint::{self, RuntimeFileSpec};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let spec = RuntimeFileSpec::at("/fuzz/server.json".into());
    if let Ok(ep) = endpoint::parse(text, &spec) {
        assert!(ep.addr.ip().is_loopback(), "only loopback endpoints are accepted: {}", ep.addr);
        assert!(ep.token.expose().len() >= 16);
    }
});
