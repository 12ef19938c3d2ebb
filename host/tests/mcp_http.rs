//! `capstan serve --http`: loopback only, bearer token printed once and kept in a 0600
//! file, 401 before anything runs, one session per client, a foreign browser Origin
//! refused with 403, and hostile load (a thousand idle half-open connections, running
//! out of file descriptors) neither exhausts it nor locks a well-behaved client out.
//! (The official Python SDK drives a whole session over HTTP in tests/mcp-python.)

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

struct HttpServer {
    child: Child,
    addr: String,
    token: String,
    token_file: String,
    /// Everything the server wrote to stderr after its first two lines.
    stderr: Arc<Mutex<String>>,
}

impl HttpServer {
    fn start(home: &Path) -> HttpServer {
        HttpServer::start_with(home, &[])
    }

    /// A server started with more `serve` arguments.
    fn start_with(home: &Path, extra: &[&str]) -> HttpServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_capstan"))
            .env("CAPSTAN_HOME", home)
            .args(["serve", "--http", "127.0.0.1:0"])
            .args(extra)
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
        let kept = Arc::new(Mutex::new(String::new()));
        let sink = kept.clone();
        std::thread::spawn(move || {
            let mut line = String::new();
            while stderr.read_line(&mut line).unwrap_or(0) > 0 {
                assert!(!line.contains(&once), "the token was printed more than once");
                sink.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        let token_file = head.split(" in ").nth(1).unwrap().split(", mode").next().unwrap().to_string();
        HttpServer { child, addr, token, token_file, stderr: kept }
    }

    /// One MCP POST on a fresh connection, with extra header lines; the status, the
    /// session id it names (if any) and the JSON-RPC messages of its body.
    fn post(&self, session: Option<&str>, extra: &str, body: &Value) -> (u16, Option<String>, Vec<Value>) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let body = body.to_string();
        let session = session.map(|id| format!("Mcp-Session-Id: {id}\r\n")).unwrap_or_default();
        write!(
            s,
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\n{session}{extra}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.token,
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        let status = answer.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
        let (head, rest) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
        let session = head.lines().find_map(|l| l.to_ascii_lowercase().starts_with("mcp-session-id:").then(|| l.split_once(':').unwrap().1.trim().to_string()));
        let messages = rest
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .chain(std::iter::once(rest).filter(|r| r.trim_start().starts_with('{')))
            .filter_map(|d| serde_json::from_str(d.trim()).ok())
            .collect();
        (status, session, messages)
    }

    /// A whole well-behaved session: initialize, initialized, tools/list. The tool names.
    fn well_behaved_session(&self) -> Vec<String> {
        let (status, session, messages) = self.post(None, "", &serde_json::from_str::<Value>(INITIALIZE).unwrap());
        assert_eq!(status, 200, "{messages:?}");
        let session = session.expect("a session id");
        assert!(messages.iter().any(|m| m["result"]["serverInfo"]["name"] == "capstan"), "{messages:?}");
        let (status, _, _) = self.post(Some(&session), "", &json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        assert_eq!(status, 202);
        let (status, _, messages) = self.post(Some(&session), "", &json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" }));
        assert_eq!(status, 200, "{messages:?}");
        let tools = messages.iter().find_map(|m| m["result"]["tools"].as_array().cloned()).unwrap_or_else(|| panic!("{messages:?}"));
        tools.iter().map(|t| t["name"].as_str().unwrap().to_string()).collect()
    }

    /// A new session (initialize, then initialized); its id.
    fn open_session(&self) -> String {
        let (status, session, messages) = self.post(None, "", &serde_json::from_str::<Value>(INITIALIZE).unwrap());
        assert_eq!(status, 200, "{messages:?}");
        let session = session.expect("a session id");
        let (status, _, _) = self.post(Some(&session), "", &json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        assert_eq!(status, 202);
        session
    }

    /// tools/list on `session`: the status and the raw answer.
    fn list_tools(&self, session: &str) -> (u16, String) {
        self.on_session("POST", session, &json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/list" }).to_string())
    }

    /// One request on `session` (a POST or a DELETE); the status and the raw answer.
    fn on_session(&self, method: &str, session: &str, body: &str) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        write!(
            s,
            "{method} /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\nMcp-Session-Id: {session}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.token,
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        (answer.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0), answer)
    }

    /// Open `session`'s standalone event stream (GET) and keep it open: the status line.
    fn open_event_stream(&self, session: &str) -> (TcpStream, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        write!(s, "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\nMcp-Session-Id: {session}\r\nAccept: text/event-stream\r\n\r\n", self.token).unwrap();
        let mut status = String::new();
        BufReader::new(s.try_clone().unwrap()).read_line(&mut status).unwrap();
        (s, status)
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn stderr_lines_with(&self, needle: &str) -> usize {
        self.stderr.lock().unwrap().lines().filter(|l| l.contains(needle)).count()
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

/// Open file descriptors of a process.
fn open_fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map(|d| d.count()).unwrap_or(0)
}

/// CPU time (user + system) a process has used so far.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat.rsplit_once(')').unwrap().1.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as u64;
    Duration::from_millis(ticks * 1000 / hz)
}

/// Let this test process hold many sockets (its soft descriptor limit up to the hard one).
fn raise_own_fd_limit() {
    // SAFETY: getrlimit/setrlimit on this process with a valid struct.
    unsafe {
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
        limit.rlim_cur = limit.rlim_max;
        libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
    }
}

/// A connection that sent half a request head and then nothing.
fn half_open(addr: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl").unwrap();
    s
}

/// Has the server closed this connection (EOF or reset)?
fn closed_by_server(s: &mut TcpStream) -> bool {
    s.set_read_timeout(Some(Duration::from_millis(200))).unwrap();
    let mut buf = [0u8; 512];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => return false,
            Err(_) => return true,
        }
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

#[test]
fn a_foreign_browser_origin_is_refused_before_anything_runs() {
    let home = tempfile::tempdir().unwrap();
    let server = HttpServer::start(home.path());
    let init: Value = serde_json::from_str(INITIALIZE).unwrap();
    for origin in ["https://evil.example", "http://localhost:1", "null", "http://127.0.0.1.evil.example"] {
        let (status, session, messages) = server.post(None, &format!("Origin: {origin}\r\n"), &init);
        assert_eq!(status, 403, "{origin}: {messages:?}");
        assert!(session.is_none(), "{origin}: a session was created");
    }
    // 403 comes before the token check: a foreign page learns nothing about the token.
    let mut s = TcpStream::connect(&server.addr).unwrap();
    write!(s, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://evil.example\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}").unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
    // The server's own origin, and none at all, pass.
    let own = format!("Origin: http://{}\r\n", server.addr);
    assert_eq!(server.post(None, &own, &init).0, 200);
    assert_eq!(server.post(None, "", &init).0, 200);
}

#[cfg(target_os = "linux")]
#[test]
fn a_thousand_idle_half_open_connections_neither_exhaust_it_nor_lock_out_a_client() {
    raise_own_fd_limit();
    let home = tempfile::tempdir().unwrap();
    let server = HttpServer::start(home.path());
    let baseline = open_fds(server.pid());
    let mut idle: Vec<TcpStream> = (0..1000).map(|_| half_open(&server.addr)).collect();
    let started = Instant::now();
    let tools = server.well_behaved_session();
    assert_eq!(tools.len(), 5, "{tools:?}");
    assert!(started.elapsed() < Duration::from_secs(5), "the client waited {:?}", started.elapsed());
    let held = open_fds(server.pid());
    assert!(held <= baseline + capstan::limits::HTTP_MAX_CONNECTIONS + 16, "{held} descriptors open (baseline {baseline})");
    // The ones still held are closed once they have sent no whole request head
    // within the header timeout.
    let deadline = Instant::now() + capstan::limits::HTTP_HEADER_TIMEOUT + Duration::from_secs(5);
    while Instant::now() < deadline && open_fds(server.pid()) > baseline + 8 {
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(open_fds(server.pid()) <= baseline + 8, "idle connections outlived the header timeout");
    assert!(idle.iter_mut().take(50).all(closed_by_server), "the server closed the oldest idle connections");
    assert!(server.stderr_lines_with("serve --http") <= 40, "refusals are logged at a bounded rate:\n{}", server.stderr.lock().unwrap());
    assert_eq!(server.well_behaved_session().len(), 5);
}

#[cfg(target_os = "linux")]
#[test]
fn running_out_of_file_descriptors_backs_off_instead_of_spinning() {
    raise_own_fd_limit();
    let home = tempfile::tempdir().unwrap();
    let server = HttpServer::start(home.path());
    // A warm-up session first, so everything the server opens once is open.
    assert_eq!(server.well_behaved_session().len(), 5);
    let pid = server.pid() as i32;
    let limit = (open_fds(server.pid()) + 12) as u64;
    // SAFETY: prlimit on a child this test started, with a valid struct.
    let rc = unsafe { libc::prlimit(pid, libc::RLIMIT_NOFILE, &libc::rlimit { rlim_cur: limit, rlim_max: limit }, std::ptr::null_mut()) };
    assert_eq!(rc, 0, "cannot lower the server's descriptor limit");

    // Far more connections than descriptors: accept fails with EMFILE over and over.
    let _idle: Vec<TcpStream> = (0..200).map(|_| half_open(&server.addr)).collect();
    std::thread::sleep(Duration::from_millis(500));
    let (cpu_before, lines_before) = (cpu_time(server.pid()), server.stderr_lines_with("accept failed"));
    std::thread::sleep(Duration::from_secs(2));
    let cpu = cpu_time(server.pid()) - cpu_before;
    let lines = server.stderr_lines_with("accept failed") - lines_before;
    assert!(cpu < Duration::from_millis(600), "the accept loop spun: {cpu:?} of CPU in 2 s");
    assert!(lines <= 6, "{lines} accept-error lines in 2 s");
    // And a well-behaved client still gets in.
    let (status, _, messages) = server.post(None, "", &serde_json::from_str::<Value>(INITIALIZE).unwrap());
    assert_eq!(status, 200, "{messages:?}");
}

/// The body of a refusal (the JSON after the head).
fn refusal_body(answer: &str) -> Value {
    let body = answer.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    serde_json::from_str(body.trim()).unwrap_or_else(|e| panic!("{e}: {answer}"))
}

/// Sessions are capped: beyond `--max-sessions`, initialize is refused with 503 and a
/// body naming the bound, before any session (or server instance) is made; closing one
/// makes room. With the default cap, 3,000 initializes leave at most 256 sessions.
#[test]
fn sessions_beyond_the_cap_are_refused_naming_the_bound() {
    let home = tempfile::tempdir().unwrap();
    let server = HttpServer::start_with(home.path(), &["--max-sessions", "3"]);
    let sessions: Vec<String> = (0..3).map(|_| server.open_session()).collect();
    let (status, answer) = server.request("POST", "/mcp", Some(&server.token), INITIALIZE);
    assert_eq!(status, 503, "{answer}");
    assert!(!answer.to_ascii_lowercase().contains("mcp-session-id:"), "no session was made: {answer}");
    let body = refusal_body(&answer);
    assert_eq!(body["error"]["code"], "TOO_MANY_SESSIONS", "{body}");
    assert_eq!(body["error"]["limit"]["max_sessions"], 3, "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("at most 3 MCP sessions") && message.contains("--max-sessions"), "{message}");
    // The open ones keep working; closing one makes room for a new one.
    assert_eq!(server.list_tools(&sessions[0]).0, 200);
    let (status, answer) = server.on_session("DELETE", &sessions[1], "");
    assert!(status == 200 || status == 202 || status == 204, "{answer}");
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut reopened = server.request("POST", "/mcp", Some(&server.token), INITIALIZE);
    while reopened.0 == 503 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
        reopened = server.request("POST", "/mcp", Some(&server.token), INITIALIZE);
    }
    assert_eq!(reopened.0, 200, "{}", reopened.1);
}

/// 3,000 initializes (from eight clients at once) against the default cap: exactly the
/// cap's worth of sessions open, every other one refused naming the bound.
#[test]
fn three_thousand_initializes_leave_at_most_the_default_cap_of_sessions() {
    let home = tempfile::tempdir().unwrap();
    let server = Arc::new(HttpServer::start(home.path()));
    let cap = capstan::limits::HTTP_MAX_SESSIONS;
    let clients: Vec<_> = (0..8)
        .map(|_| {
            let server = server.clone();
            std::thread::spawn(move || {
                let (mut opened, mut refused) = (0usize, 0usize);
                for _ in 0..375 {
                    let (status, answer) = server.request("POST", "/mcp", Some(&server.token), INITIALIZE);
                    match status {
                        200 => opened += 1,
                        503 => {
                            let body = refusal_body(&answer);
                            assert_eq!(body["error"]["code"], "TOO_MANY_SESSIONS", "{body}");
                            assert_eq!(body["error"]["limit"]["max_sessions"], capstan::limits::HTTP_MAX_SESSIONS);
                            refused += 1;
                        }
                        _ => panic!("{answer}"),
                    }
                }
                (opened, refused)
            })
        })
        .collect();
    let (opened, refused) = clients.into_iter().map(|c| c.join().unwrap()).fold((0, 0), |(a, b), (c, d)| (a + c, b + d));
    assert_eq!((opened, refused), (cap, 3000 - cap));
}

/// Idle sessions expire: with `--session-idle-timeout 2`, a session with nothing in
/// flight is closed after two seconds (a request naming it then gets 404 naming the
/// timeout) and its slot is free again; an open event stream counts as in flight.
#[test]
fn idle_sessions_expire_and_free_their_slot_but_an_open_stream_keeps_one() {
    let home = tempfile::tempdir().unwrap();
    let server = HttpServer::start_with(home.path(), &["--max-sessions", "2", "--session-idle-timeout", "2"]);
    let streaming = server.open_session();
    let (stream, status_line) = server.open_event_stream(&streaming);
    assert!(status_line.starts_with("HTTP/1.1 200"), "{status_line}");
    let idle = server.open_session();
    assert_eq!(server.request("POST", "/mcp", Some(&server.token), INITIALIZE).0, 503, "both slots are taken");

    std::thread::sleep(Duration::from_millis(4500));
    let (status, answer) = server.list_tools(&idle);
    assert_eq!(status, 404, "{answer}");
    let body = refusal_body(&answer);
    assert_eq!(body["error"]["code"], "SESSION_EXPIRED", "{body}");
    assert_eq!(body["error"]["limit"]["session_idle_timeout_s"], 2);
    assert!(body["error"]["message"].as_str().unwrap().contains("--session-idle-timeout"), "{body}");
    assert_eq!(server.list_tools(&streaming).0, 200, "a session with an open stream is not idle");
    // The expired one's slot is free again.
    let fresh = server.open_session();
    assert_eq!(server.list_tools(&fresh).0, 200);

    // Once its stream is closed, the other one expires too.
    drop(stream);
    std::thread::sleep(Duration::from_millis(4500));
    assert_eq!(server.list_tools(&streaming).0, 404);
}
