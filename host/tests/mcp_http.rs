//! `capstan serve --http`: loopback only, bearer token printed once and kept in a 0600
//! file, 401 before anything runs, one session per client. (The official Python SDK
//! drives a whole session over HTTP in tests/mcp-python.)

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct HttpServer {
    child: Child,
    addr: String,
    token: String,
    token_file: String,
}

impl HttpServer {
    fn start(home: &Path) -> HttpServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_capstan"))
            .env("CAPSTAN_HOME", home)
            .args(["serve", "--http", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let (mut first, mut second) = (String::new(), String::new());
        stderr.read_line(&mut first).unwrap();
        stderr.read_line(&mut second).unwrap();
        let addr = first.split("http://").nth(1).unwrap().trim().trim_end_matches("/mcp").to_string();
        let (head, token) = first_token_line(&first, &second);
        // Keep draining stderr so the server never blocks on it; the token must not
        // show up there again.
        let once = token.clone();
        std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = stderr.read_to_string(&mut rest);
            assert!(!rest.contains(&once), "the token was printed more than once");
        });
        let token_file = head.split(" in ").nth(1).unwrap().split(", mode").next().unwrap().to_string();
        HttpServer { child, addr, token, token_file }
    }

    /// One raw HTTP/1.1 request; the status code and the body.
    fn request(&self, method: &str, path: &str, token: Option<&str>, body: &str) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        let status = answer.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
        (status, answer)
    }
}

fn first_token_line(first: &str, second: &str) -> (String, String) {
    assert!(first.contains("over Streamable HTTP at http://127.0.0.1:"), "{first}");
    let (head, token) = second.trim().rsplit_once(": ").unwrap();
    (head.to_string(), token.to_string())
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

#[test]
fn the_token_is_printed_once_kept_private_and_required() {
    let home = tempfile::tempdir().unwrap();
    let server = HttpServer::start(home.path());
    assert_eq!(server.token.len(), 64);
    let file = Path::new(&server.token_file);
    assert!(file.starts_with(home.path()), "{}", file.display());
    assert_eq!(std::fs::read_to_string(file).unwrap().trim(), server.token);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(file).unwrap().permissions().mode() & 0o777, 0o600);
    }

    for token in [None, Some("wrong"), Some(&server.token[..63])] {
        let (status, answer) = server.request("POST", "/mcp", token, INITIALIZE);
        assert_eq!(status, 401, "{answer}");
        assert!(answer.contains("UNAUTHORIZED") && !answer.contains("mcp-session-id"), "{answer}");
    }
    let (status, answer) = server.request("POST", "/mcp", Some(&server.token), INITIALIZE);
    assert_eq!(status, 200, "{answer}");
    assert!(answer.to_ascii_lowercase().contains("mcp-session-id:"), "{answer}");
    assert!(answer.contains("\"serverInfo\"") && !answer.contains(&server.token));
    let (status, _) = server.request("POST", "/elsewhere", Some(&server.token), INITIALIZE);
    assert_eq!(status, 404);
}

#[test]
fn a_spoofed_host_header_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let server = HttpServer::start(home.path());
    let mut s = TcpStream::connect(&server.addr).unwrap();
    write!(
        s,
        "POST /mcp HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{INITIALIZE}",
        server.token,
        INITIALIZE.len()
    )
    .unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    assert!(!answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[cfg(unix)]
#[test]
fn a_clean_stop_removes_the_token_file() {
    let home = tempfile::tempdir().unwrap();
    let mut server = HttpServer::start(home.path());
    let file = server.token_file.clone();
    assert!(Path::new(&file).exists());
    // SAFETY: signalling a child this test started.
    unsafe { libc::kill(server.child.id() as i32, libc::SIGTERM) };
    let status = server.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    assert!(!Path::new(&file).exists(), "the token file outlived the server");
}

#[test]
fn other_addresses_are_refused_unless_asked_for() {
    let home = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_capstan"))
        .env("CAPSTAN_HOME", home.path())
        .args(["serve", "--http", "0.0.0.0:0"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not a loopback address"), "{stderr}");
    assert!(!home.path().join("run/serve").exists(), "nothing was written");
}
