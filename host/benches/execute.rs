//! Where the time of one `execute_capability scene.info` goes, stage by stage, against
//! a loopback stub that answers `/ping` and `get_scene_info` with the bytes a real
//! headless Blender answered for the factory scene (`tests/data/blender_factory_scene.json`:
//! the whole command list in the ping, so the add-on skew check has real work; the real
//! answer, so the answer checks do). A regression in any stage shows here.
//!
//! Stages, in the order a call meets them: resolve; argument validation; admission (the
//! app gate: availability, cached for `limits::AVAILABILITY_TTL`, and the add-on skew
//! check); the bridge client (runtime-file read, HTTP on the kept connection); the stub's
//! own HTTP round trip (a bare keep-alive client, the floor of any bridge call); sandbox
//! instantiation plus the guest's run with the gate and the answer check, against an
//! in-process client answering the recorded result (no HTTP); the gate alone; the answer
//! checks (the command's result schema, the capability's output schema); delta merging;
//! serialisation of the MCP answer; the whole call path; and the MCP round trip over
//! stdio with a raw JSON-RPC client.
//!
//! `side_by_side` then alternates the MCP round trip with the stub's bare round trip in
//! one loop (500 of each) and prints both medians and their difference: capstan's own
//! share of a call. Run: `cargo bench -p capstan --bench execute`.

#[path = "../tests/support/raw_mcp.rs"]
mod raw_mcp;
#[path = "../tests/support/stub_bridge.rs"]
mod stub_bridge;

use capstan::bridge::{BridgeClient, BridgeFailure, BridgeGate, BridgeRequest, HttpBridgeClient};
use capstan::call::CallPath;
use capstan::call::app_gate::AppGate;
use capstan::delta::SceneDelta;
use capstan::engine::AllocationPreference;
use capstan::home::CapstanHome;
use capstan::runtime::Runtime;
use capstan::sandbox::CallSetup;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The recorded `get_scene_info` result, answered in process (no HTTP).
struct RecordedClient(Value);

impl BridgeClient for RecordedClient {
    fn call(&self, request: BridgeRequest<'_>) -> Result<Value, BridgeFailure> {
        match request.command {
            "get_scene_info" => Ok(self.0.clone()),
            other => Err(BridgeFailure::Transport { reason: "offline".into(), detail: format!("not recorded: {other}") }),
        }
    }
}

fn recorded_result() -> Value {
    let doc: Value = serde_json::from_str(stub_bridge::Recorded::TEXT).unwrap();
    doc["get_scene_info"]["result"].clone()
}

/// A bare keep-alive HTTP/1.1 client: the stub's own round trip, the floor under any
/// bridge call (what capstan's share is measured against).
struct BareHttp {
    stream: TcpStream,
    request: Vec<u8>,
    buf: Vec<u8>,
}

impl BareHttp {
    fn new(addr: std::net::SocketAddr) -> Self {
        let stream = TcpStream::connect(addr).unwrap();
        stream.set_nodelay(true).unwrap();
        let body = json!({ "id": "bare-1", "command": "get_scene_info", "params": {} }).to_string();
        let request = format!(
            "POST /bridge HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            stub_bridge::STUB_TOKEN,
            body.len()
        );
        BareHttp { stream, request: request.into_bytes(), buf: Vec::with_capacity(4096) }
    }

    /// One request; the answer's body length.
    fn round_trip(&mut self) -> usize {
        self.stream.write_all(&self.request).unwrap();
        self.buf.clear();
        let mut chunk = [0u8; 8192];
        loop {
            let n = self.stream.read(&mut chunk).unwrap();
            assert!(n > 0, "the stub closed the connection");
            self.buf.extend_from_slice(&chunk[..n]);
            if let Some(end) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&self.buf[..end]).to_ascii_lowercase();
                let len: usize = head.lines().find_map(|l| l.strip_prefix("content-length:").map(|v| v.trim().parse().unwrap())).unwrap();
                if self.buf.len() >= end + 4 + len {
                    return len;
                }
            }
        }
    }
}

struct Fixture {
    _tmp: tempfile::TempDir,
    home: CapstanHome,
    stub: stub_bridge::StubBridge,
    client: Arc<HttpBridgeClient>,
    runtime: Runtime,
    gate: AppGate,
}

fn fixture() -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let stub = stub_bridge::StubBridge::start_recorded(tmp.path());
    let client = Arc::new(HttpBridgeClient::for_home(&home));
    let mut runtime = Runtime::new(&home, AllocationPreference::PoolingIfAvailable, client.clone()).unwrap();
    runtime.load_all(&home);
    client.adopt_declared(runtime.packs(), &home);
    let gate = AppGate::new(&runtime, client.clone(), &home);
    Fixture { _tmp: tmp, home, stub, client, runtime, gate }
}

const KEY: &str = "scene.info";

fn stages(c: &mut Criterion) {
    let f = fixture();
    let rt = &f.runtime;
    let path = CallPath::new(rt, &f.gate);
    // Warm: the availability answer, the kept connection, the pooled slots.
    path.execute(KEY, "{}", None).expect("scene.info runs against the recorded stub");
    let recorded = recorded_result();
    let mut group = c.benchmark_group("execute");

    group.bench_function("1_resolve", |b| b.iter(|| rt.resolve(KEY)));
    group.bench_function("2_validate_arguments", |b| b.iter(|| rt.check(KEY, "{}").unwrap()));
    group.bench_function("3a_admit_availability_and_skew", |b| b.iter(|| f.gate.admit(KEY).unwrap()));
    // What search and the expert tool list hide for skew: since 2026-12-07 read from the same
    // per-probe answer as admission (it was worked out afresh per request, ~34 µs).
    group.bench_function("3b_skew_for_search_and_tool_list", |b| b.iter(|| f.gate.skew()));
    // What each availability probe pays to work the skew out (every AVAILABILITY_TTL,
    // and after every forget): the per-call cost before issue 30.
    group.bench_function("3c_skew_worked_out_afresh", |b| b.iter(|| f.gate.skew_worked_out_afresh()));

    let params = json!({});
    let request = BridgeRequest { server: "blender", command: "get_scene_info", params: &params, timeout: Duration::from_secs(10) };
    let spec_path = f.client.liveness("blender").unwrap();
    group.bench_function("4a_runtime_file_read", |b| b.iter(|| capstan::bridge::endpoint::read(&spec_path.runtime_file).unwrap()));
    // What the client does per call: the stamps of the unchanged file, its folder and the
    // home, and the remembered record (`bridge/endpoint_memo.rs`).
    group.bench_function("4a2_runtime_file_unchanged", |b| b.iter(|| f.client.endpoint("blender", &spec_path).unwrap()));
    group.bench_function("4b_bridge_client_http_get_scene_info", |b| b.iter(|| f.client.call(request).unwrap()));
    let mut bare = BareHttp::new(f.stub.addr);
    group.bench_function("4c_stub_bare_http_round_trip", |b| b.iter(|| bare.round_trip()));

    // The sandbox with the gate and the answer check, the bridge answered in process.
    let pack = rt.packs().iter().find(|p| p.capabilities.iter().any(|c| c.key == KEY)).unwrap();
    let cap = pack.capabilities.iter().find(|c| c.key == KEY).unwrap().clone();
    let in_process: Arc<dyn BridgeClient> = Arc::new(RecordedClient(recorded.clone()));
    let catalogs = Arc::new(capstan::bridge::catalog::Catalogs::builtin().unwrap());
    let scope = Arc::new(capstan::bridge::gate::CapabilityScope {
        pack: pack.name().to_string(),
        key: KEY.into(),
        mutates: false,
        bridge_commands: cap.bridge_commands.clone(),
    });
    let limits = pack.limits.limits;
    group.bench_function("5_sandbox_instantiate_guest_gate_answer_check", |b| {
        b.iter(|| {
            let gate = BridgeGate::new(scope.clone(), pack.commands().clone(), catalogs.clone(), limits.max_bridge_calls);
            let setup = CallSetup { pack: pack.name().into(), limits, gate: Some(gate), client: in_process.clone(), progress: None };
            pack.pre().execute(rt.sandbox(), setup, KEY, "{}", None).0.unwrap().unwrap()
        })
    });
    // Stage 5 split as the stdio session runs it (`runtime::spare`): the instance made
    // in idle time after an answer, and the call that finds it made.
    let make_ready = || pack.pre().make_ready(rt.sandbox(), pack.name().into(), limits, in_process.clone()).unwrap();
    group.bench_function("5a_spare_made_and_dropped_in_idle_time", |b| b.iter(|| make_ready().discard()));
    group.bench_function("5b_call_in_a_spare_guest_gate_answer_check", |b| {
        b.iter_batched(
            make_ready,
            |ready| {
                let gate = BridgeGate::new(scope.clone(), pack.commands().clone(), catalogs.clone(), limits.max_bridge_calls);
                let setup = CallSetup { pack: pack.name().into(), limits, gate: Some(gate), client: in_process.clone(), progress: None };
                pack.pre().execute(rt.sandbox(), setup, KEY, "{}", Some(ready)).0.unwrap().unwrap()
            },
            // One spare at a time: each holds a pool slot, as in the product.
            criterion::BatchSize::PerIteration,
        )
    });
    group.bench_function("6_gate_check", |b| {
        b.iter(|| {
            let mut gate = BridgeGate::new(scope.clone(), pack.commands().clone(), catalogs.clone(), limits.max_bridge_calls);
            gate.check(Some("blender"), "get_scene_info", "{}").unwrap()
        })
    });
    let command = catalogs.for_server("blender").unwrap().command("get_scene_info").unwrap();
    group.bench_function("7a_answer_check_command_result_schema", |b| b.iter(|| assert!(command.result_errors(&recorded).is_empty())));
    let out = path.execute(KEY, "{}", None).unwrap();
    group.bench_function("7b_answer_check_capability_output_schema", |b| b.iter(|| assert!(cap.result_errors(&out.result).is_empty())));
    let change = json!({ "delta": { "added": ["Cube.001"], "removed": [], "changed": ["Cube"], "fields": { "Cube": ["location"] }, "settings": [] } });
    group.bench_function("8_delta_parse_and_merge", |b| {
        b.iter(|| {
            let mut merged = SceneDelta::default();
            merged.then(&SceneDelta::from_answer(&change).unwrap());
            merged.then(&SceneDelta::from_answer(&change).unwrap());
            merged.to_json()
        })
    });
    group.bench_function("9_serialise_mcp_answer", |b| {
        b.iter_batched(
            || out.clone(),
            |out| {
                let doc = capstan::report::output_json(out);
                let result = capstan::mcp::results::ok_result(doc);
                serde_json::to_string(&result).unwrap()
            },
            // One spare at a time: each holds a pool slot, as in the product.
            criterion::BatchSize::PerIteration,
        )
    });
    group.bench_function("10_whole_call_path", |b| b.iter(|| path.execute(KEY, "{}", None).unwrap()));
    group.finish();

    let mut mcp = raw_mcp::RawClient::start(f.home.root(), false);
    let first = mcp.call_tool("execute_capability", json!({ "key": KEY, "arguments": {} }));
    assert_eq!(first["result"]["isError"], json!(false), "{first}");
    let mut group = c.benchmark_group("execute_mcp");
    group.bench_function("execute_capability_scene_info_stdio", |b| {
        b.iter(|| mcp.call_tool("execute_capability", json!({ "key": KEY, "arguments": {} })))
    });
    group.finish();
}

fn median(v: &mut [Duration]) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1e6
}

/// 500 MCP round trips and 500 bare stub round trips, alternated in one loop, plus the
/// search round trip: the medians, and capstan's share (MCP minus the stub's own).
fn side_by_side(_c: &mut Criterion) {
    let f = fixture();
    let mut mcp = raw_mcp::RawClient::start(f.home.root(), false);
    let mut bare = BareHttp::new(f.stub.addr);
    let execute = json!({ "key": KEY, "arguments": {} });
    for _ in 0..100 {
        mcp.call_tool("execute_capability", execute.clone());
        bare.round_trip();
    }
    let (mut calls, mut stub, mut search) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..500 {
        let t = Instant::now();
        let r = mcp.call_tool("execute_capability", execute.clone());
        calls.push(t.elapsed());
        assert_eq!(r["result"]["isError"], json!(false));
        let t = Instant::now();
        bare.round_trip();
        stub.push(t.elapsed());
        let t = Instant::now();
        mcp.call_tool("search_capabilities", json!({ "query": "scene info" }));
        search.push(t.elapsed());
    }
    let (call, stub, search) = (median(&mut calls), median(&mut stub), median(&mut search));
    eprintln!(
        "side by side (500 alternated, medians): execute_capability {KEY} {call:.0} us; stub bare HTTP round trip {stub:.0} us; capstan's share {:.0} us; search_capabilities {search:.0} us",
        call - stub
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(50).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = stages, side_by_side
}
criterion_main!(benches);
