//! The epoch ticker: a thread that advances the engine's epoch every tick.
//!
//! It holds the engine *weakly*: when the last `Engine` handle is dropped the ticker
//! notices on its next tick and exits, so a ticker never keeps an engine (and its
//! reserved memory pool) alive.

use std::time::Duration;
use wasmtime::Engine;

pub fn spawn(engine: &Engine, tick: Duration) {
    let weak = engine.weak();
    let spawned = std::thread::Builder::new()
        .name("capstan-epoch".into())
        .spawn(move || {
            loop {
                std::thread::sleep(tick);
                match weak.upgrade() {
                    Some(engine) => engine.increment_epoch(),
                    None => break,
                }
            }
        });
    if let Err(e) = spawned {
        // Without a ticker no deadline can fire; refuse to pretend otherwise.
        panic!("cannot start the epoch ticker thread, so call deadlines cannot be enforced: {e}");
    }
}
