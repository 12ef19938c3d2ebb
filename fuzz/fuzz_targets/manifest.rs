//! Arbitrary bytes into the strict manifest parser: it must answer Ok or a list of
//! errors with JSON paths, never panic, and an accepted manifest must serialise.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match capstan::manifest::parse(text) {
        Ok(manifest) => {
            serde_json::to_string(&manifest).expect("an accepted manifest serialises");
        }
        Err(errors) => assert!(!errors.is_empty(), "a refusal names at least one error"),
    }
});
