//! Guest stdout/stderr: captured in memory, capped, and sent to the log.
//!
//! Security reasoning: in `capstan serve` the process stdout *is* the MCP channel, so
//! a guest write that reached it would corrupt the protocol (or inject messages). Guest
//! output therefore never touches a host file descriptor. It is kept up to
//! `CAPTURED_STDIO_BYTES` per stream and call; the rest is counted and dropped (the
//! write still succeeds, so a chatty pack is not turned into a crashing one).

use bytes::Bytes;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamResult};

#[derive(Debug, Default)]
struct Captured {
    kept: Vec<u8>,
    total: u64,
}

/// One captured stream. Clones share the buffer.
#[derive(Debug, Clone)]
pub struct CapturedOutput {
    inner: Arc<Mutex<Captured>>,
    cap: usize,
}

/// What a stream received during one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CapturedText {
    /// The kept prefix, lossily decoded.
    pub text: String,
    /// Bytes the guest wrote in total.
    pub total_bytes: u64,
}

impl CapturedText {
    pub fn truncated(&self) -> bool {
        self.total_bytes > self.text.len() as u64
    }
}

impl CapturedOutput {
    pub fn new(cap: usize) -> Self {
        CapturedOutput { inner: Arc::default(), cap }
    }

    fn append(&self, bytes: &[u8]) {
        let mut c = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        c.total += bytes.len() as u64;
        let room = self.cap.saturating_sub(c.kept.len());
        c.kept.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    pub fn take(&self) -> CapturedText {
        let mut c = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let kept = std::mem::take(&mut c.kept);
        CapturedText { text: String::from_utf8_lossy(&kept).into_owned(), total_bytes: c.total }
    }
}

impl IsTerminal for CapturedOutput {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for CapturedOutput {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }
    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

impl OutputStream for CapturedOutput {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        self.append(&bytes);
        Ok(())
    }
    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }
    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(1 << 20)
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for CapturedOutput {
    async fn ready(&mut self) {}
}

impl tokio::io::AsyncWrite for CapturedOutput {
    fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        self.append(buf);
        Poll::Ready(Ok(buf.len()))
    }
    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_beyond_the_cap_is_counted_and_dropped() {
        let out = CapturedOutput::new(8);
        let mut s = out.clone();
        s.write(Bytes::from_static(b"hello ")).unwrap();
        s.write(Bytes::from_static(b"world, and more")).unwrap();
        let t = out.take();
        assert_eq!(t.text, "hello wo");
        assert_eq!(t.total_bytes, 21);
        assert!(t.truncated());
    }
}
