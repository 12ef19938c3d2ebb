//! Fuzz entry point, shared by the cargo-fuzz target `bridge_response` and the corpus
//! replay in host/tests/fuzz_corpus.rs: arbitrary bytes as a bridge's answer on the
//! wire, through the host client's HTTP parser and its reading of the answer document.
//!
//! The first byte says how many bytes each read delivers (1-64), the rest is the wire.
//! What must hold: no panic; an answer is accepted only if it is HTTP and its body is
//! within the cap; the outcome does not depend on how the bytes were split into reads;
//! an accepted document is a result only for `"ok": true` and this request's id, and
//! an app error's code and message are bounded.

use capstan::bridge::BridgeFailure;
use capstan::bridge::client::{Answer, interpret_answer};
use capstan::bridge::http::{TransportError, parse_response};
use serde_json::Value;

const MAX_BODY: u64 = 1 << 16;
const ID: &str = "fuzz-1";

pub fn run(data: &[u8]) {
    let (chunk, wire) = match data.split_first() {
        Some((first, rest)) => (usize::from(*first) % 64 + 1, rest),
        None => (1, data),
    };
    let split = parse_response(wire, chunk, MAX_BODY);
    let whole = parse_response(wire, wire.len().max(1), MAX_BODY);
    match (&split, &whole) {
        (Ok(a), Ok(b)) => {
            assert_eq!((a.response.status, &a.response.body), (b.response.status, &b.response.body), "the outcome depends on how the bytes were read");
            // Bytes after the answer make the connection unusable once they are seen;
            // read in pieces they may not have been read yet (the client then sees
            // them before reuse, when it checks the idle connection).
            assert!(a.reusable || !b.reusable, "a connection judged reusable from one read but not from several");
        }
        (Err(a), Err(b)) => assert_eq!(a.reason(), b.reason(), "the outcome depends on how the bytes were read: {a} / {b}"),
        (a, b) => panic!("the outcome depends on how the bytes were read: {:?} / {:?}", a.as_ref().map(|e| e.response.status), b.as_ref().map(|e| e.response.status)),
    }
    let exchange = match split {
        Ok(exchange) => exchange,
        Err(e) => {
            assert!(!e.to_string().is_empty() && !e.reason().is_empty());
            if let TransportError::TooLarge { limit } = e {
                assert!(limit == MAX_BODY || limit == 64 * 1024);
            }
            return;
        }
    };
    assert!(wire.starts_with(b"HTTP/"), "an answer that is not HTTP was accepted");
    assert!(exchange.response.body.len() as u64 <= MAX_BODY, "a body over the cap was accepted");
    let Ok(doc) = serde_json::from_slice::<Value>(&exchange.response.body) else { return };
    match interpret_answer(doc.clone(), ID) {
        Ok(_) => {
            assert_eq!(doc.get("ok"), Some(&Value::Bool(true)));
            assert_eq!(doc.get("id").and_then(Value::as_str), Some(ID));
        }
        Err(Answer::Failed(BridgeFailure::App { code, message, .. })) => {
            assert_eq!(doc.get("ok"), Some(&Value::Bool(false)));
            assert!(code.chars().count() <= 4096 && message.chars().count() <= 4096);
        }
        Err(Answer::Failed(other)) => panic!("an answer document became {other:?}"),
        Err(Answer::Transport(t)) => assert!(matches!(t, TransportError::WrongPeer { .. } | TransportError::IdMismatch { .. }), "{t:?}"),
    }
}
