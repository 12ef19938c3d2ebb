//! The state of one client: its goal, plan, the steps' outcomes and its critiques.
//!
//! A session belongs to one connection (the MCP surface keeps one per connection and
//! `capstan eval` one per task); nothing here is global, so two clients never see or
//! change each other's plans.

use super::Registry;
use super::act::{ActError, ActOutcome, ActRequest, act};
use super::critique::{Critique, Expectation, critique};
use super::plan::{PlanError, PlanRequest, PlanStep, Profile, StepStatus, build, step};
use crate::delta::SceneDelta;
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::HashMap;

#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("no goal set; set one first")]
    NoGoal,
    #[error("no step {0:?} in the plan")]
    NoStep(String),
    #[error("step {0:?} is done; plan again or act on another step")]
    AlreadyDone(String),
    #[error("step {0:?} has not completed; act on it first")]
    NotDone(String),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error(transparent)]
    Act(#[from] ActError),
}

impl SessionError {
    /// The code a client sees (the MCP contract's codes for a failed step).
    pub fn code(&self) -> &'static str {
        match self {
            SessionError::NoGoal => "NO_GOAL",
            SessionError::NoStep(_) => "NO_STEP",
            SessionError::AlreadyDone(_) => "ALREADY_DONE",
            SessionError::NotDone(_) => "NOT_DONE",
            SessionError::Plan(_) => "PLAN_FAILED",
            SessionError::Act(e) => e.code(),
        }
    }

    /// The error body a client sees: a failed step answers exactly what
    /// `execute_capability` would (schema errors, the availability state, the app's code).
    pub fn body(&self) -> Value {
        match self {
            SessionError::Act(e) => e.body(),
            other => json!({ "code": other.code(), "message": other.to_string() }),
        }
    }
}

/// The most steps a plan grows to with diagnostic steps (a client critiquing in a loop
/// cannot grow a session without bound).
pub const MAX_PLAN_STEPS: usize = 64;

#[derive(Debug, Clone, Serialize)]
pub struct CritiqueRecord {
    pub step_id: String,
    pub critique: Critique,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix_step: Option<String>,
}

#[derive(Debug, Default)]
pub struct Session {
    goal: Option<String>,
    profile: Profile,
    steps: Vec<PlanStep>,
    deltas: HashMap<String, Option<SceneDelta>>,
    critiques: Vec<CritiqueRecord>,
    fixes: usize,
    tool_calls: usize,
    /// Bumped by every new goal and every new plan: an answer the user gave for a step
    /// of an older plan is never applied to this one.
    generation: u64,
}

impl Session {
    pub fn new() -> Session {
        Session::default()
    }

    pub fn set_goal(&mut self, goal: &str, profile: Profile) -> Result<(), PlanError> {
        let goal = goal.trim();
        if goal.is_empty() {
            return Err(PlanError::EmptyGoal);
        }
        let generation = self.generation + 1;
        *self = Session { goal: Some(goal.to_string()), profile, generation, ..Session::default() };
        Ok(())
    }

    /// Which plan the steps belong to (see the field).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn goal(&self) -> Option<&str> {
        self.goal.as_deref()
    }

    pub fn steps(&self) -> &[PlanStep] {
        &self.steps
    }

    pub fn critiques(&self) -> &[CritiqueRecord] {
        &self.critiques
    }

    /// A fresh plan for the session's goal (replaces the old one).
    pub fn plan(&mut self, registry: &dyn Registry, pick: &dyn Fn(&str) -> Option<String>, max_steps: Option<usize>, custom_steps: &[String]) -> Result<&[PlanStep], SessionError> {
        let goal = self.goal.clone().ok_or(SessionError::NoGoal)?;
        let scene = super::scene_objects(registry);
        let request = PlanRequest { goal: &goal, profile: self.profile, max_steps, custom_steps, scene: &scene };
        self.steps = build(registry, pick, &request)?;
        self.generation += 1;
        self.deltas.clear();
        Ok(&self.steps)
    }

    fn index(&self, step_id: &str) -> Result<usize, SessionError> {
        self.steps.iter().position(|s| s.step_id == step_id).ok_or_else(|| SessionError::NoStep(step_id.into()))
    }

    /// Act on a step that is not done; the answer is the report a client sees.
    pub fn act(&mut self, registry: &dyn Registry, step_id: &str, request: &ActRequest) -> Result<Value, SessionError> {
        let i = self.index(step_id)?;
        if self.steps[i].status == StepStatus::Done {
            return Err(SessionError::AlreadyDone(step_id.into()));
        }
        if !request.dry_run {
            self.steps[i].status = StepStatus::InProgress;
        }
        match act(registry, &self.steps[i], request) {
            Ok(ActOutcome::DryRun(r)) => Ok(json!({ "step_id": step_id, "dry_run": true, "resolved": r })),
            Ok(ActOutcome::Done(r, out)) => {
                self.tool_calls += 1;
                let s = &mut self.steps[i];
                s.status = StepStatus::Done;
                s.result = Some(out.result.clone());
                self.deltas.insert(step_id.into(), out.delta.clone());
                Ok(json!({ "step_id": step_id, "status": "done", "resolved": r, "result": out.result, "delta": out.delta }))
            }
            // Nothing was sent: the step keeps waiting for its input.
            Err(e @ ActError::NeedsInput(_)) => {
                self.steps[i].status = StepStatus::NeedsInput;
                Err(e.into())
            }
            Err(e) => {
                if !request.dry_run {
                    if matches!(e, ActError::Call(_)) {
                        self.tool_calls += 1;
                    }
                    self.steps[i].status = StepStatus::Failed;
                    self.steps[i].result = Some(json!({ "error": e.to_string() }));
                }
                Err(e.into())
            }
        }
    }

    /// Critique a done step. On failure a diagnostic step `{step_id}_fix_{n}` (n unique
    /// in the session) is inserted right after it, while the plan holds fewer than
    /// [`MAX_PLAN_STEPS`] steps (after that the record has no `fix_step`: the plan stops growing).
    pub fn critique(&mut self, registry: &dyn Registry, step_id: &str, expectations: &[Expectation]) -> Result<CritiqueRecord, SessionError> {
        let i = self.index(step_id)?;
        if self.steps[i].status != StepStatus::Done {
            return Err(SessionError::NotDone(step_id.into()));
        }
        let delta = self.deltas.get(step_id).cloned().flatten();
        // A read-only step's delta is empty by construction.
        let empty = SceneDelta::default();
        let delta = match (&delta, registry.describe(&self.steps[i].tool_hint)) {
            (Some(d), _) => Some(d),
            (None, Some((_, false))) => Some(&empty),
            (None, _) => None,
        };
        let result = critique(registry, expectations, delta);
        let mut fix_step = None;
        if !result.passed && self.steps.len() < MAX_PLAN_STEPS {
            self.fixes += 1;
            let base = step_id.split("_fix_").next().unwrap_or(step_id);
            let inspect = super::plan::role_key(registry, crate::roles::Role::ListsObjects)?;
            let mut fix = step(registry, &format!("Inspect the scene to diagnose why {step_id} fell short"), &inspect, json!({}))?;
            fix.step_id = format!("{base}_fix_{}", self.fixes);
            fix_step = Some(fix.step_id.clone());
            self.steps.insert(i + 1, fix);
        }
        let record = CritiqueRecord { step_id: step_id.into(), critique: result, fix_step };
        self.critiques.push(record.clone());
        Ok(record)
    }

    pub fn status(&self) -> Value {
        let done = self.steps.iter().filter(|s| s.status == StepStatus::Done).count();
        let failed_critiques = self.critiques.iter().filter(|c| !c.critique.passed).count();
        json!({
            "goal": self.goal,
            "profile": self.profile,
            "steps": self.steps,
            "step_count": self.steps.len(),
            "done": done,
            "progress_pct": (done * 100).checked_div(self.steps.len()).unwrap_or(0),
            "critiques": self.critiques.len(),
            "critique_failures": failed_critiques,
            "tool_calls": self.tool_calls,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::fake::FakeRegistry;

    fn pick(text: &str) -> Option<String> {
        text.contains("cube").then(|| "scene.create_object".to_string())
    }

    #[test]
    fn a_session_plans_acts_and_inserts_unique_fix_steps() {
        let reg = FakeRegistry::default();
        let mut s = Session::new();
        assert!(matches!(s.plan(&reg, &pick, None, &[]), Err(SessionError::NoGoal)));
        s.set_goal("add a cube", Profile::Default).unwrap();
        let ids: Vec<String> = s.plan(&reg, &pick, None, &[]).unwrap().iter().map(|p| p.step_id.clone()).collect();
        assert_eq!(ids, ["step_1", "step_2"]);
        assert!(matches!(s.critique(&reg, "step_1", &[]), Err(SessionError::NotDone(_))));
        let report = s.act(&reg, "step_1", &ActRequest::default()).unwrap();
        assert_eq!(report["status"], "done");
        assert!(matches!(s.act(&reg, "step_1", &ActRequest::default()), Err(SessionError::AlreadyDone(_))));
        assert!(matches!(s.act(&reg, "nope", &ActRequest::default()), Err(SessionError::NoStep(_))));
        // The fake answers {} to object_info: the object cannot be measured, so it fails.
        let exp = [Expectation::ObjectExists { name: "Cube".into() }];
        let first = s.critique(&reg, "step_1", &exp).unwrap();
        let second = s.critique(&reg, "step_1", &exp).unwrap();
        assert_eq!(first.fix_step.as_deref(), Some("step_1_fix_1"));
        assert_eq!(second.fix_step.as_deref(), Some("step_1_fix_2"));
        let ids: Vec<&str> = s.steps().iter().map(|p| p.step_id.as_str()).collect();
        assert_eq!(ids, ["step_1", "step_1_fix_2", "step_1_fix_1", "step_2"]);
        assert!(s.steps().iter().all(|p| p.tool_hint == "scene.info" || p.tool_hint == "scene.create_object"));
        // A read-only step's delta is empty, so "added nothing" is measurable.
        let c = s.critique(&reg, "step_1", &[Expectation::Delta { added: Some(0), removed: None, added_type: None, only_changed: None }]).unwrap();
        assert!(c.critique.passed, "{c:?}");
        assert_eq!(s.status()["critique_failures"], 2);
        // A new goal clears everything.
        s.set_goal("another", Profile::PowerUser).unwrap();
        assert!(s.steps().is_empty() && s.critiques().is_empty());
    }
}
