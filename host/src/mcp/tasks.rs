//! Long calls as MCP tasks (the `io.modelcontextprotocol/tasks` extension, SEP-2663,
//! as rmcp 3.11 implements it): a render, an animation render, a texture bake or a
//! simulation bake can be started as a task when the client declared the extension.
//!
//! The flow: `tools/call` answers at once with a task handle (`resultType: "task"`);
//! the call runs on the same path as a direct call (`execute.rs`), its progress
//! reports becoming the task's `statusMessage`; `tasks/get` answers the state, with
//! the call's whole `CallToolResult` inlined once it is done; `tasks/cancel` records
//! the request.
//!
//! What is a long call: a capability one of whose bridge commands may take longer
//! than [`crate::limits::TASK_LONG_CALL_TIMEOUT`] (the catalog's `timeout_s`: renders,
//! bakes, simulations). Anything else is answered directly, task or not: a quick read
//! as a task would only add round trips.
//!
//! Progress from inside the app: while the call runs, the task asks the app's progress
//! command (`HostCommands::progress`, Blender's `render_progress`, answered beside the
//! render on the bridge's request thread) every [`crate::limits::TASK_PROGRESS_POLL`],
//! and the status message carries the frame, the samples and the seconds beside the
//! pack's own report.
//!
//! Cancellation: Blender cannot be interrupted inside a render from Python, so a long
//! call of an instance a supervisor restarts (`capstan blender launch`, its record names
//! its live `supervisor`) is cancelled by ending the app (`containment/restart.rs`): before the
//! call the app saves a checkpoint of its scene, on cancel the app's process (the pid
//! its record names, not a process group) is killed, the task settles `cancelled`, and the supervisor starts the app again from
//! the checkpoint while the next call waits for it. The pid killed is the one the
//! record names when the cancel arrives (read afresh, and only while the same
//! supervisor still watches the same instance). The interrupted request is never sent
//! again to the restarted app (`bridge::client`), and a cancel that arrives before the
//! call started runs nothing. A workflow whose steps all talk to one app is a long call
//! when one of its steps is, with the same checkpoint and cancel (the scene goes back to
//! before the workflow); one across two apps gets progress per step and no cancel. For an app nobody supervises (a
//! Blender started by hand, with its window), a cancel is recorded in the status
//! message and the call runs to its end; the task then settles with its real outcome
//! (`completed` or `failed`), as the extension allows, and is never reported
//! `cancelled` while the app still works on it.
//!
//! Security: task ids are random UUIDs (v4) minted by rmcp; the manager is one per
//! served process (`SharedCore`), so over HTTP a task outlives the request that made
//! it. Every HTTP request is already authenticated by the bearer token, so every
//! session of one served process is the same principal: a task is not bound to the
//! session that started it, and any of them holding its id may poll or cancel it (a
//! cancel then restarts the Blender all of them share, as any of them could ask by
//! other means). The id is never derived from client input. Status messages are the
//! packs' progress messages, which the sandbox caps (`limits::MAX_PROGRESS_MESSAGE_CHARS`)
//! and which never hold tokens (the answer itself is redacted on the call path), and
//! the app's progress as numbers and one known word (`render`, `bake`): the app's own
//! text never reaches the client. Retention is bounded by [`crate::limits::TASK_TTL`].
//! The checkpoint costs a save of the scene before every long call of a supervised
//! Blender (uncompressed, on Blender's main thread); when it fails the call still runs,
//! and a cancel of it is only noted.

use super::Core;
use crate::bridge::Restartable;
use crate::sandbox::{ProgressReport, ProgressSink};
use rmcp::model::{CallToolResult, CreateTaskResult, Task};
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use serde_json::Value;
use std::future::Future;
use std::sync::{Arc, Mutex};

/// Whether `key` names a long call (see the module documentation).
pub fn is_long_call(core: &Core, key: &str) -> bool {
    core.runtime.longest_bridge_timeout(key).is_some_and(|t| t >= crate::limits::TASK_LONG_CALL_TIMEOUT)
}

/// The status message of a progress report: `done/total: message`.
fn status_of(report: &ProgressReport) -> String {
    let count = match report.total {
        Some(total) => format!("{}/{}", report.done, total),
        None => report.done.to_string(),
    };
    if report.message.is_empty() { count } else { format!("{count}: {}", report.message) }
}

/// What a task's status message is made of: the pack's last report, the app's progress
/// inside the call, and what happened to a cancel.
#[derive(Default)]
struct Status {
    pack: String,
    app: Option<String>,
    cancel: Option<&'static str>,
}

impl Status {
    fn line(&self) -> String {
        let mut line = self.pack.clone();
        if let Some(app) = &self.app {
            line = if line.is_empty() { app.clone() } else { format!("{line} · {app}") };
        }
        if let Some(note) = self.cancel {
            line.push_str(note);
        }
        line
    }
}

type Shared = Arc<Mutex<Status>>;

fn publish(context: &TaskContext, status: &Shared, change: impl FnOnce(&mut Status)) {
    let mut s = status.lock().unwrap_or_else(|p| p.into_inner());
    change(&mut s);
    context.set_status_message(s.line());
}

/// What a running task's progress sink writes to: the pack's part of the status.
fn progress_sink(context: &TaskContext, status: Shared) -> ProgressSink {
    let context = context.clone();
    Arc::new(move |report: ProgressReport| publish(&context, &status, |s| s.pack = status_of(&report)))
}

/// The app's progress answer as a status part: "Blender: frame 1, sample 65/512, 25.3 s".
fn app_status(display: &str, progress: &Value) -> Option<String> {
    if progress["active"] != Value::Bool(true) {
        return None;
    }
    // Only numbers and a known word reach the client: the app's own text never does.
    let kind = match progress["kind"].as_str() {
        Some("render") => "render",
        Some("bake") => "bake",
        _ => "working",
    };
    let mut parts = vec![kind.to_string()];
    if let Some(frame) = progress["frame"].as_i64() {
        parts.push(format!("frame {frame}"));
    }
    match (progress["sample"].as_u64(), progress["samples"].as_u64()) {
        (Some(sample), Some(samples)) => parts.push(format!("sample {sample}/{samples}")),
        (Some(sample), None) => parts.push(format!("sample {sample}")),
        _ => {}
    }
    if let Some(seconds) = progress["seconds"].as_f64() {
        parts.push(format!("{seconds:.1} s"));
    }
    Some(format!("{display}: {}", parts.join(", ")))
}

const NOT_INTERRUPTIBLE: &str = " (cancel requested: this app cannot be interrupted inside the call and nobody supervises it; it runs to its end)";
const STOPPED: &str = " (cancelled: the app was stopped and is starting again from the scene as it was before this call)";

/// What a task does around its call, per app (the seam the unit tests use).
trait Hooks: Send + Sync + 'static {
    /// Before the call (blocking): the instance a cancel may restart, once it holds a
    /// checkpoint of the app's document; None when a cancel cannot stop the call.
    fn prepare_cancel(&self) -> Option<Restartable>;
    /// The app's progress inside the call, as a status part (blocking).
    fn progress(&self) -> Option<String>;
    /// At cancel time (blocking): the instance as its record names it now (the pid
    /// afresh), while the same supervisor still watches the same instance.
    fn still_restartable(&self, prepared: &Restartable) -> Option<Restartable>;
}

/// Aborts the progress poller however the task ends (rmcp drops the task's future when
/// its time to live runs out).
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The app a long call talks to, and what its unit lets a task do around the call.
struct AppHooks {
    core: Arc<Core>,
    server: String,
    display: &'static str,
    progress: Option<&'static str>,
    checkpoint: Option<&'static str>,
}

impl AppHooks {
    fn of(core: Arc<Core>, key: &str) -> Option<AppHooks> {
        let server = core.runtime.one_server_of(key)?;
        let unit = crate::app_units::by_server(&server)?;
        let host = unit.host_commands();
        Some(AppHooks { core, server, display: unit.display_name(), progress: host.progress, checkpoint: host.checkpoint })
    }

    /// A host-only command of the app (blocking).
    fn send(&self, command: &str) -> Result<Value, String> {
        self.core.runtime.send_host_command(&self.server, command, &serde_json::json!({})).map_err(|e| e.to_string())
    }
}

impl Hooks for AppHooks {
    fn prepare_cancel(&self) -> Option<Restartable> {
        let restartable = self.core.runtime.bridge_client().restartable(&self.server)?;
        let checkpoint = self.checkpoint?;
        match self.send(checkpoint) {
            Ok(_) => Some(restartable),
            Err(e) => {
                tracing::warn!(server = self.server, error = e, "no checkpoint before a long call: a cancel will not stop it");
                None
            }
        }
    }

    fn progress(&self) -> Option<String> {
        app_status(self.display, &self.send(self.progress?).ok()?)
    }

    fn still_restartable(&self, prepared: &Restartable) -> Option<Restartable> {
        let now = self.core.runtime.bridge_client().restartable(&self.server)?;
        (now.instance_dir == prepared.instance_dir && now.supervisor == prepared.supervisor).then_some(now)
    }
}

/// Ask the app for the call's progress until aborted.
async fn poll_progress(hooks: Arc<dyn Hooks>, context: TaskContext, status: Shared) {
    loop {
        tokio::time::sleep(crate::limits::TASK_PROGRESS_POLL).await;
        let asked = hooks.clone();
        if let Ok(part) = tokio::task::spawn_blocking(move || asked.progress()).await {
            publish(&context, &status, |s| s.app = part);
        }
    }
}

/// Start `run` (the call of `key`, given its progress sink) as a task of `manager`; the
/// handle to answer `tools/call` with.
pub fn start<F, Fut>(manager: &TaskManager, core: Arc<Core>, key: &str, run: F) -> CreateTaskResult
where
    F: FnOnce(ProgressSink) -> Fut + Send + 'static,
    Fut: Future<Output = CallToolResult> + Send + 'static,
{
    let hooks = AppHooks::of(core, key).map(|h| Arc::new(h) as Arc<dyn Hooks>);
    spawn(manager, key, hooks, run)
}

fn spawn<F, Fut>(manager: &TaskManager, key: &str, hooks: Option<Arc<dyn Hooks>>, run: F) -> CreateTaskResult
where
    F: FnOnce(ProgressSink) -> Fut + Send + 'static,
    Fut: Future<Output = CallToolResult> + Send + 'static,
{
    let options = TaskOptions::new()
        .with_ttl_ms(crate::limits::TASK_TTL.as_millis() as u64)
        .with_poll_interval_ms(crate::limits::TASK_POLL_INTERVAL.as_millis() as u64)
        .with_status_message(format!("started {key}"));
    let task: Task = manager.spawn(options, move |context| {
        Box::pin(async move {
            let status: Shared = Arc::new(Mutex::new(Status::default()));
            let restart = match &hooks {
                Some(h) => {
                    let h = h.clone();
                    tokio::task::spawn_blocking(move || h.prepare_cancel()).await.ok().flatten()
                }
                None => None,
            };
            if context.is_cancel_requested() {
                // Cancelled while the checkpoint was taken: nothing has run.
                return Err(TaskExit::Cancelled);
            }
            let _poller = hooks.clone().map(|h| AbortOnDrop(tokio::spawn(poll_progress(h, context.clone(), status.clone()))));
            let call = run(progress_sink(&context, status.clone()));
            tokio::pin!(call);
            let watcher = context.clone();
            let cancelled = tokio::select! {
                result = &mut call => Err(result),
                _ = watcher.cancelled() => Ok(()),
            };
            let now = match (&hooks, &restart) {
                (Some(h), Some(r)) if cancelled.is_ok() => {
                    let (h, r) = (h.clone(), r.clone());
                    tokio::task::spawn_blocking(move || h.still_restartable(&r)).await.ok().flatten()
                }
                _ => None,
            };
            match cancelled {
                Err(result) => Ok(result),
                Ok(()) => match now.map(|r| crate::containment::restart::request(&r.instance_dir, r.pid, r.supervisor)) {
                    Some(Ok(())) => {
                        publish(&context, &status, |s| s.cancel = Some(STOPPED));
                        // The call ends with its connection; nothing of it is reported.
                        let _ = call.await;
                        Err(TaskExit::Cancelled)
                    }
                    stopped => {
                        if let Some(Err(e)) = stopped {
                            tracing::warn!(error = %e, "the app could not be stopped for a cancel");
                        }
                        publish(&context, &status, |s| s.cancel = Some(NOT_INTERRUPTIBLE));
                        Ok(call.await)
                    }
                },
            }
        })
    });
    CreateTaskResult::new(task)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{ContentBlock, TaskPayload, TaskStatus};
    use std::time::Duration;

    #[test]
    fn a_report_reads_as_count_and_message() {
        assert_eq!(status_of(&ProgressReport { done: 3, total: Some(8), message: "frame 3".into() }), "3/8: frame 3");
        assert_eq!(status_of(&ProgressReport { done: 2, total: None, message: String::new() }), "2");
    }

    #[tokio::test]
    async fn a_task_reports_progress_then_inlines_its_result_and_a_cancel_never_lies() {
        let manager = TaskManager::new();
        let (go_tx, go_rx) = tokio::sync::oneshot::channel::<()>();
        let handle = spawn(&manager, "a test call", None, move |sink| async move {
            sink(ProgressReport { done: 1, total: Some(2), message: "half".into() });
            let _ = go_rx.await;
            CallToolResult::success(vec![ContentBlock::text("done")])
        });
        let id = handle.task.task_id.clone();
        let mut seen = String::new();
        for _ in 0..100 {
            seen = manager.get_task(&id).unwrap().task.status_message.unwrap_or_default();
            if seen.starts_with("1/2") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert_eq!(seen, "1/2: half");
        manager.cancel_task(&id).unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
        let working = manager.get_task(&id).unwrap();
        assert_eq!(working.status(), TaskStatus::Working, "still working: not reported cancelled while it runs");
        assert!(working.task.status_message.unwrap().contains("cancel requested"));
        go_tx.send(()).unwrap();
        for _ in 0..100 {
            let now = manager.get_task(&id).unwrap();
            if now.status().is_terminal() {
                assert_eq!(now.status(), TaskStatus::Completed);
                assert!(matches!(now.payload, TaskPayload::Completed { .. }));
                return;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        panic!("the task did not settle");
    }

    /// An app a supervisor restarts: a `sleep` standing in for its process.
    struct Supervised {
        dir: tempfile::TempDir,
        pid: u32,
    }

    impl Hooks for Supervised {
        fn prepare_cancel(&self) -> Option<Restartable> {
            Some(Restartable { instance_dir: self.dir.path().to_path_buf(), pid: self.pid, supervisor: std::process::id() })
        }

        fn progress(&self) -> Option<String> {
            app_status("TheApp", &serde_json::json!({ "active": true, "kind": "render", "frame": 1, "sample": 65, "samples": 512, "seconds": 25.25 }))
        }

        fn still_restartable(&self, prepared: &Restartable) -> Option<Restartable> {
            Some(prepared.clone())
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_cancel_of_a_supervised_app_stops_it_and_settles_cancelled() {
        let mut cmd = std::process::Command::new("sleep");
        cmd.arg("60");
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut app = cmd.spawn().unwrap();
        let hooks = Arc::new(Supervised { dir: tempfile::tempdir().unwrap(), pid: app.id() });
        let dir = hooks.dir.path().to_path_buf();
        let manager = TaskManager::new();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let handle = spawn(&manager, "a render", Some(hooks.clone() as Arc<dyn Hooks>), move |_sink| async move {
            // The call's connection ends when the app does.
            let _ = stop_rx.await;
            CallToolResult::error(vec![ContentBlock::text("the connection closed")])
        });
        let id = handle.task.task_id.clone();
        let mut seen = String::new();
        for _ in 0..100 {
            seen = manager.get_task(&id).unwrap().task.status_message.unwrap_or_default();
            if seen.contains("sample") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(seen, "TheApp: render, frame 1, sample 65/512, 25.2 s", "progress from inside the app");
        manager.cancel_task(&id).unwrap();
        let status = tokio::task::spawn_blocking(move || app.wait().unwrap()).await.unwrap();
        assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(libc::SIGKILL), "the app was stopped");
        assert!(crate::containment::restart::pending(&dir), "the supervisor is asked to start it again");
        stop_tx.send(()).unwrap();
        for _ in 0..100 {
            let now = manager.get_task(&id).unwrap();
            if now.status().is_terminal() {
                assert_eq!(now.status(), TaskStatus::Cancelled);
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the task did not settle");
    }

    /// A checkpoint that takes a while, and a cancel that arrives meanwhile.
    struct SlowCheckpoint;

    impl Hooks for SlowCheckpoint {
        fn prepare_cancel(&self) -> Option<Restartable> {
            std::thread::sleep(Duration::from_millis(300));
            None
        }

        fn progress(&self) -> Option<String> {
            None
        }

        fn still_restartable(&self, _: &Restartable) -> Option<Restartable> {
            None
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_cancel_before_the_call_starts_runs_nothing() {
        let manager = TaskManager::new();
        let ran = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = ran.clone();
        let handle = spawn(&manager, "a render", Some(Arc::new(SlowCheckpoint) as Arc<dyn Hooks>), move |_sink| async move {
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
            CallToolResult::success(vec![ContentBlock::text("rendered")])
        });
        let id = handle.task.task_id.clone();
        manager.cancel_task(&id).unwrap();
        for _ in 0..200 {
            let now = manager.get_task(&id).unwrap();
            if now.status().is_terminal() {
                assert_eq!(now.status(), TaskStatus::Cancelled);
                assert!(!ran.load(std::sync::atomic::Ordering::SeqCst), "the call never started");
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the task did not settle");
    }

    #[test]
    fn an_idle_app_adds_nothing_to_the_status() {
        let leaky = app_status("TheApp", &serde_json::json!({ "active": true, "kind": "token-0123456789abcdef\u{1b}[2J", "seconds": 1.0 })).unwrap();
        assert_eq!(leaky, "TheApp: working, 1.0 s", "the app's own words never reach the client");
        assert_eq!(app_status("TheApp", &serde_json::json!({ "active": false, "kind": "render" })), None);
        let s = Status { pack: "1/2: render".into(), app: Some("TheApp: render, 3.0 s".into()), cancel: None };
        assert_eq!(s.line(), "1/2: render · TheApp: render, 3.0 s");
    }
}
