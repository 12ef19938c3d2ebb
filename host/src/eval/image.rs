//! Image goals (BlenderGym-style): a task whose goal is a picture. Its `reference`
//! trajectory builds the goal scene, which is rendered small as the reference picture;
//! its `visual_match` assertion compares the task's end scene with it
//! ([`crate::planner::visual_match`] has the metric and thresholds), and its `near_miss`
//! trajectory (one thing wrong) must fail that assertion.
//!
//! Where the picture lives: a private temporary folder per task (`tempfile`, mode 0700
//! on Unix), named `<task id>.png` (ids are restricted to `[A-Za-z0-9._-]`, so the name
//! cannot leave the folder). It lives as long as the task's [`Prepared`] does, that is
//! while the task runs (an external agent reads it then), and is deleted afterwards; a
//! report records the path the agent was given.
//!
//! Security reasoning: the reference trajectory runs through the same checked call path
//! as a task's setup (validation, the app gate, sandbox, bridge gate); the picture comes
//! from a pack's read-only render and is size-capped and decoded in
//! [`crate::planner::picture`] before it is written or compared. Only the picture, never
//! the reference trajectory, is what an agent is given.

use super::metrics::TaskReport;
use super::run::{Env, Prepared, run_task, unmeasured};
use super::suite::{Call, Task, TaskEntry};
use crate::planner::critique::{Expectation, match_picture};

/// Build the goal scene from `calls` (the scene reset and set up), render the reference
/// picture the way the task's `visual_match` assertion renders, and keep it in a private
/// folder. The scene is left built: the caller resets it.
pub(super) fn reference(env: &Env<'_>, task: &Task, calls: &[Call]) -> Result<Prepared, String> {
    unmeasured(env, "reference", calls)?;
    let (camera, size) = task
        .assertions
        .iter()
        .find_map(|a| match a {
            Expectation::VisualMatch { camera, size } => Some((camera.as_deref(), *size)),
            _ => None,
        })
        .ok_or("an image task needs a visual_match assertion")?;
    let (picture, png) = match_picture(&env.path, camera, size).map_err(|e| format!("the reference picture: {e}"))?;
    let folder = tempfile::Builder::new().prefix("capstan-reference-").tempdir().map_err(|e| format!("no folder for the reference picture: {e}"))?;
    let path = folder.path().join(format!("{}.png", task.id));
    std::fs::write(&path, &png).map_err(|e| format!("cannot write the reference picture {}: {e}", path.display()))?;
    Ok(Prepared { reference_picture: Some(path), reference: Some(picture), folder: Some(folder) })
}

/// Which calls an image task runs in place of its own trajectory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageRun {
    /// The reference trajectory: its `visual_match` must pass.
    Reference,
    /// The near miss: its `visual_match` must fail.
    NearMiss,
}

/// Run an image task with its reference or near-miss calls as the trajectory (the
/// planner and any agent set aside), judged as usual. None: not a valid image task.
pub fn run_image_task(env: &Env<'_>, entry: &TaskEntry, which: ImageRun) -> Option<TaskReport> {
    let task = entry.task.as_ref().ok()?;
    let calls = match which {
        ImageRun::Reference => task.reference.clone()?,
        ImageRun::NearMiss => task.near_miss.clone()?,
    };
    let swapped = TaskEntry { id: entry.id.clone(), goal: entry.goal.clone(), task: Ok(Task { trajectory: Some(calls), ..task.clone() }) };
    let env = Env { planner_only: false, agent: None, ..*env };
    Some(run_task(&env, &swapped))
}

/// The `visual_match` check of a report (None: it has none): passed, and what it measured.
pub fn visual_match_of(report: &TaskReport) -> Option<(bool, serde_json::Value)> {
    let check = report.critique.as_ref()?.checks.iter().find(|c| c.expectation["kind"] == "visual_match")?;
    Some((check.passed, check.measured.clone()))
}
