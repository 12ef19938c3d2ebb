//! A batch job: what runs on every item, and the items.
//!
//! ```json
//! { "steps": [{ "run": "workflow.product_packshot", "arguments": { "mesh": { "$item": "mesh" } } }],
//!   "items": "products.csv", "retries": 2 }
//! ```
//!
//! - `steps`: capabilities or workflows run in order on each item, each through the one
//!   call path (`run` + `arguments` at the top level is a one-step shorthand). A step
//!   without `arguments` is given the item itself (without its `id`).
//! - `{"$item": "field"}` stands for the item's field, `{"$item": true}` for the whole
//!   item; a marker stands alone as its object's only key. `{"$item": "id"}` is the
//!   item's id (a file name, so good for naming its outputs).
//! - `items`: a JSON array of objects, or a path (relative to the job file) to a `.json`
//!   array or a `.csv` file whose header names the fields. A CSV cell that is JSON (a
//!   number, `true`, an array) is read as that value, an empty cell is left out, any other
//!   cell is a string. Or `frames: {start, end, chunk}`: items `{frame_start, frame_end}`
//!   that split an animation into ranges.
//! - Or `eval`: an evaluation suite, one item per task (`"shipped"` for the app's own
//!   suite, a file name, or the suite itself), each task run as `capstan eval` runs it
//!   (its trajectory, or the planner's plan with `"planner": true`), its report the
//!   item's result.
//! - An item's `id` (a string or number) names its record and output folder; without one
//!   its position does (`0001`). Ids are file names: letters, digits, `.`, `_`, `-`.
//!
//! Everything is checked when the job loads, before any app starts: a job that cannot
//! run costs nothing.

use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// Most retries a job may ask for per item.
pub const MAX_RETRIES: u32 = 10;
/// Retries per item when the job names none.
pub const DEFAULT_RETRIES: u32 = 2;
/// Most items one job may hold.
pub const MAX_ITEMS: usize = 100_000;
/// The frames a job may name (Blender's own range).
const FRAME_MIN: i64 = -1_048_574;
const FRAME_MAX: i64 = 1_048_574;

#[derive(Debug, thiserror::Error)]
pub enum JobError {
    #[error("cannot read {path}: {detail}")]
    Read { path: PathBuf, detail: String },
    #[error("{path}: {detail}")]
    Invalid { path: PathBuf, detail: String },
}

/// One step of the job: a canonical key and its argument template.
#[derive(Debug, Clone)]
pub struct Step {
    pub run: String,
    /// None: the item itself is the arguments.
    pub arguments: Option<Value>,
}

/// One item: its id and fields.
#[derive(Debug, Clone)]
pub struct Item {
    pub id: String,
    pub fields: Map<String, Value>,
}

/// An evaluation suite run as a batch: one item per task.
#[derive(Debug, Clone)]
pub struct EvalJob {
    pub suite: crate::eval::suite::Suite,
    /// Each task's own JSON, in suite order (a node of a cluster gets a suite of one).
    pub raw_tasks: Vec<Value>,
    /// The planner's plan for every task instead of its trajectory.
    pub planner: bool,
}

#[derive(Debug, Clone)]
pub struct Job {
    pub path: PathBuf,
    /// sha256 of the job file and its items, so `--resume` never mixes two jobs.
    pub fingerprint: String,
    pub app: Option<String>,
    pub steps: Vec<Step>,
    pub items: Vec<Item>,
    pub retries: u32,
    /// Set for an evaluation job (`steps` is then empty).
    pub eval: Option<EvalJob>,
}

impl Job {
    pub fn load(path: &Path) -> Result<Job, JobError> {
        let text = read(path)?;
        let path = &std::path::absolute(path).map_err(|e| JobError::Read { path: path.to_path_buf(), detail: e.to_string() })?;
        let invalid = |detail: String| JobError::Invalid { path: path.to_path_buf(), detail };
        let doc: Value = serde_json::from_slice(&text).map_err(|e| invalid(format!("not JSON: {e}")))?;
        let obj = doc.as_object().ok_or_else(|| invalid("a job is a JSON object".into()))?;
        for key in obj.keys() {
            if !["steps", "run", "arguments", "items", "frames", "retries", "app", "eval", "planner"].contains(&key.as_str()) {
                return Err(invalid(format!("unknown field {key:?} (steps, run, arguments, items, frames, eval, planner, retries, app)")));
            }
        }
        let app = match obj.get("app") {
            None => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(invalid(format!("app is the name of an app server ({})", crate::app_units::display_names()))),
        };
        let retries = match obj.get("retries") {
            None => DEFAULT_RETRIES,
            Some(v) => v.as_u64().filter(|n| *n <= u64::from(MAX_RETRIES)).ok_or_else(|| invalid(format!("retries is a whole number from 0 to {MAX_RETRIES}")))? as u32,
        };
        let mut hasher_input = text.clone();
        if let Some(source) = obj.get("eval") {
            if let Some(k) = ["steps", "run", "arguments", "items", "frames"].iter().find(|k| obj.contains_key(**k)) {
                return Err(invalid(format!("an eval job takes its items from the suite: no {k}")));
            }
            let planner = match obj.get("planner") {
                None => false,
                Some(v) => v.as_bool().ok_or_else(|| invalid("planner is true or false".into()))?,
            };
            let (eval, items) = eval_job(path, source, app.as_deref(), planner, &mut hasher_input)?;
            let fingerprint = crate::fsutil::sha256_hex(&hasher_input);
            return Ok(Job { path: path.to_path_buf(), fingerprint, app, steps: vec![], items, retries, eval: Some(eval) });
        }
        if obj.contains_key("planner") {
            return Err(invalid("planner belongs to an eval job".into()));
        }
        let steps = steps_of(obj).map_err(invalid)?;
        let raw_items = match (obj.get("items"), obj.get("frames")) {
            (Some(_), Some(_)) => return Err(invalid("give items or frames, not both".into())),
            (None, None) => return Err(invalid("a job needs items (a list or a file) or frames".into())),
            (None, Some(frames)) => frame_ranges(frames).map_err(invalid)?,
            (Some(Value::Array(list)), None) => list.clone(),
            (Some(Value::String(file)), None) => {
                let file = path.parent().unwrap_or(Path::new(".")).join(file);
                let bytes = read(&file)?;
                hasher_input.extend_from_slice(&bytes);
                items_file(&file, &bytes).map_err(|detail| JobError::Invalid { path: file.clone(), detail })?
            }
            (Some(_), None) => return Err(invalid("items is a list of objects or a file name".into())),
        };
        let items = identify(raw_items).map_err(invalid)?;
        for item in &items {
            for step in &steps {
                if let Some(template) = &step.arguments {
                    render(template, item).map_err(|e| invalid(format!("item {}: step {}: {e}", item.id, step.run)))?;
                }
            }
        }
        let fingerprint = crate::fsutil::sha256_hex(&hasher_input);
        Ok(Job { path: path.to_path_buf(), fingerprint, app, steps, items, retries, eval: None })
    }
}

/// The suite of an eval job and its items (one per task, named by the task's id).
fn eval_job(path: &Path, source: &Value, app: Option<&str>, planner: bool, hashed: &mut Vec<u8>) -> Result<(EvalJob, Vec<Item>), JobError> {
    let invalid = |detail: String| JobError::Invalid { path: path.to_path_buf(), detail };
    let text = match source {
        Value::String(s) if s == "shipped" => {
            let unit = match app {
                None => crate::app_units::all()[0],
                Some(name) => crate::app_units::by_server(name).ok_or_else(|| invalid(format!("no app unit serves {name:?}")))?,
            };
            unit.eval_suite().ok_or_else(|| invalid(format!("capstan ships no suite for {}", unit.display_name())))?.to_string()
        }
        Value::String(file) => {
            let file = path.parent().unwrap_or(Path::new(".")).join(file);
            String::from_utf8(read(&file)?).map_err(|_| invalid(format!("{} is not UTF-8", file.display())))?
        }
        Value::Object(_) => source.to_string(),
        _ => return Err(invalid("eval is \"shipped\", a suite file name, or a suite object".into())),
    };
    hashed.extend_from_slice(text.as_bytes());
    let suite = crate::eval::suite::Suite::parse(&text).map_err(|e| invalid(format!("the suite: {e}")))?;
    let raw: Value = serde_json::from_str(&text).map_err(|e| invalid(e.to_string()))?;
    let raw_tasks = raw["tasks"].as_array().cloned().unwrap_or_default();
    if raw_tasks.len() != suite.tasks.len() {
        return Err(invalid("the suite's tasks could not be read one by one".into()));
    }
    let mut items = Vec::with_capacity(suite.tasks.len());
    for entry in &suite.tasks {
        if !is_item_id(&entry.id) {
            return Err(invalid(format!("task id {:?} cannot name a record: 1-64 letters, digits, '.', '_' or '-'", entry.id)));
        }
        let mut fields = Map::new();
        fields.insert("goal".into(), Value::String(entry.goal.clone()));
        items.push(Item { id: entry.id.clone(), fields });
    }
    Ok((EvalJob { suite, raw_tasks, planner }, items))
}

fn read(path: &Path) -> Result<Vec<u8>, JobError> {
    std::fs::read(path).map_err(|e| JobError::Read { path: path.to_path_buf(), detail: e.to_string() })
}

fn steps_of(obj: &Map<String, Value>) -> Result<Vec<Step>, String> {
    let step = |v: &Value| -> Result<Step, String> {
        let o = v.as_object().ok_or("a step is an object {run, arguments}")?;
        if let Some(k) = o.keys().find(|k| *k != "run" && *k != "arguments") {
            return Err(format!("unknown step field {k:?} (run, arguments)"));
        }
        let run = o.get("run").and_then(Value::as_str).ok_or("a step names what it runs: {\"run\": \"scene.create_object\"}")?;
        let arguments = o.get("arguments").cloned();
        if let Some(a) = &arguments {
            if !a.is_object() {
                return Err(format!("{run}: arguments is a JSON object"));
            }
            check_markers(a).map_err(|e| format!("{run}: {e}"))?;
        }
        Ok(Step { run: run.to_string(), arguments })
    };
    match (obj.get("steps"), obj.get("run")) {
        (Some(_), Some(_)) => Err("give steps or run, not both".into()),
        (None, None) => Err("a job names what runs on each item: steps, or run".into()),
        (Some(Value::Array(list)), None) if !list.is_empty() => list.iter().map(step).collect(),
        (Some(_), None) => Err("steps is a non-empty list".into()),
        (None, Some(_)) => {
            let mut one = Map::new();
            one.insert("run".into(), obj["run"].clone());
            if let Some(a) = obj.get("arguments") {
                one.insert("arguments".into(), a.clone());
            }
            Ok(vec![step(&Value::Object(one))?])
        }
    }
}

fn items_file(path: &Path, bytes: &[u8]) -> Result<Vec<Value>, String> {
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("json") => match serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))? {
            Value::Array(list) => Ok(list),
            _ => Err("an items file holds a JSON array of objects".into()),
        },
        Some("csv") => csv_items(bytes),
        _ => Err("an items file is .json or .csv".into()),
    }
}

fn csv_items(bytes: &[u8]) -> Result<Vec<Value>, String> {
    let mut reader = csv::ReaderBuilder::new().trim(csv::Trim::All).from_reader(bytes);
    let header: Vec<String> = reader.headers().map_err(|e| e.to_string())?.iter().map(String::from).collect();
    if header.iter().any(String::is_empty) {
        return Err("every CSV column needs a name in the header".into());
    }
    if let Some(twice) = header.iter().enumerate().find(|(i, h)| header[..*i].contains(h)).map(|(_, h)| h) {
        return Err(format!("the header names column {twice:?} twice"));
    }
    let mut items = Vec::new();
    for (row, record) in reader.records().enumerate() {
        let record = record.map_err(|e| format!("row {}: {e}", row + 2))?;
        let mut fields = Map::new();
        for (name, cell) in header.iter().zip(record.iter()) {
            if cell.is_empty() {
                continue;
            }
            // The id names a file: kept exactly as written ("1.50" stays "1.50").
            let value = match serde_json::from_str::<Value>(cell) {
                Ok(v @ (Value::Number(_) | Value::Bool(_) | Value::Array(_) | Value::Object(_))) if name != "id" => v,
                _ => Value::String(cell.to_string()),
            };
            fields.insert(name.clone(), value);
        }
        items.push(Value::Object(fields));
    }
    Ok(items)
}

fn frame_ranges(frames: &Value) -> Result<Vec<Value>, String> {
    let get = |k: &str| frames.get(k).and_then(Value::as_i64);
    let (Some(start), Some(end)) = (get("start"), get("end")) else { return Err("frames is {\"start\": 1, \"end\": 240, \"chunk\": 10}".into()) };
    let chunk = get("chunk").unwrap_or(1);
    if !(FRAME_MIN..=FRAME_MAX).contains(&start) || !(FRAME_MIN..=FRAME_MAX).contains(&end) || !(1..=FRAME_MAX).contains(&chunk) {
        return Err(format!("frames are from {FRAME_MIN} to {FRAME_MAX}, a chunk at least 1"));
    }
    if end < start || (end - start) / chunk >= MAX_ITEMS as i64 {
        return Err(format!("frames needs start <= end and at most {MAX_ITEMS} ranges"));
    }
    let mut items = Vec::new();
    let mut first = start;
    while first <= end {
        let last = (first + chunk - 1).min(end);
        items.push(serde_json::json!({ "id": format!("frames-{first:04}-{last:04}"), "frame_start": first, "frame_end": last }));
        first = last + 1;
    }
    Ok(items)
}

fn identify(raw: Vec<Value>) -> Result<Vec<Item>, String> {
    if raw.is_empty() {
        return Err("the job has no items".into());
    }
    if raw.len() > MAX_ITEMS {
        return Err(format!("at most {MAX_ITEMS} items per job"));
    }
    let width = raw.len().to_string().len().max(4);
    let mut seen = std::collections::HashSet::new();
    let mut items = Vec::with_capacity(raw.len());
    for (i, value) in raw.into_iter().enumerate() {
        let Value::Object(mut fields) = value else { return Err(format!("item {} is not an object", i + 1)) };
        let id = match fields.remove("id") {
            None => format!("{:0width$}", i + 1),
            Some(Value::String(s)) => s,
            Some(Value::Number(n)) => n.to_string(),
            Some(_) => return Err(format!("item {}: id is a string or a number", i + 1)),
        };
        if !is_item_id(&id) {
            return Err(format!("item {}: id {id:?} must be 1-64 letters, digits, '.', '_' or '-', not starting with '.'", i + 1));
        }
        if !seen.insert(id.clone()) {
            return Err(format!("item {}: id {id:?} is used twice", i + 1));
        }
        items.push(Item { id, fields });
    }
    Ok(items)
}

/// An id is a file name in the results folder, so it can never name another place.
pub fn is_item_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && !id.starts_with('.') && id.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}

fn check_markers(v: &Value) -> Result<(), String> {
    match v {
        Value::Object(o) if o.contains_key("$item") => match (o.len(), &o["$item"]) {
            (1, Value::String(_) | Value::Bool(true)) => Ok(()),
            _ => Err("{\"$item\": \"field\"} or {\"$item\": true} stands alone".into()),
        },
        Value::Object(o) => o.values().try_for_each(check_markers),
        Value::Array(a) => a.iter().try_for_each(check_markers),
        _ => Ok(()),
    }
}

/// A step's arguments for one item (None template: the item's fields).
pub fn arguments_for(step: &Step, item: &Item) -> Result<Value, String> {
    match &step.arguments {
        None => Ok(Value::Object(item.fields.clone())),
        Some(template) => render(template, item),
    }
}

fn render(template: &Value, item: &Item) -> Result<Value, String> {
    Ok(match template {
        Value::Object(o) => match o.get("$item") {
            Some(Value::Bool(true)) => Value::Object(item.fields.clone()),
            Some(Value::String(field)) if field == "id" => item.fields.get("id").cloned().unwrap_or_else(|| Value::String(item.id.clone())),
            Some(Value::String(field)) => item.fields.get(field).cloned().ok_or_else(|| format!("the item has no field {field:?}"))?,
            _ => Value::Object(o.iter().map(|(k, v)| Ok((k.clone(), render(v, item)?))).collect::<Result<_, String>>()?),
        },
        Value::Array(a) => Value::Array(a.iter().map(|v| render(v, item)).collect::<Result<_, _>>()?),
        other => other.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn load(doc: Value, files: &[(&str, &str)]) -> Result<Job, JobError> {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let path = dir.path().join("job.json");
        std::fs::write(&path, doc.to_string()).unwrap();
        Job::load(&path)
    }

    #[test]
    fn csv_cells_keep_their_types_and_empty_cells_leave_defaults() {
        let csv = "id,name,size,tags\ncar-a,Car A,2.5,\"[1,2]\"\nb,007,,\n";
        let job = load(json!({ "run": "x.y", "items": "i.csv" }), &[("i.csv", csv)]).unwrap();
        assert_eq!(job.items[0].id, "car-a");
        assert_eq!(Value::Object(job.items[0].fields.clone()), json!({ "name": "Car A", "size": 2.5, "tags": [1, 2] }));
        assert_eq!(Value::Object(job.items[1].fields.clone()), json!({ "name": "007" }));
        assert_eq!(job.retries, DEFAULT_RETRIES);
    }

    #[test]
    fn markers_render_fields_and_the_whole_item() {
        let job = load(json!({ "steps": [{ "run": "a.b", "arguments": { "n": { "$item": "n" }, "list": [{ "$item": true }] } }], "items": [{ "n": 3 }, { "n": 4 }] }), &[]).unwrap();
        assert_eq!(job.items[1].id, "0002");
        assert_eq!(arguments_for(&job.steps[0], &job.items[1]).unwrap(), json!({ "n": 4, "list": [{ "n": 4 }] }));
        let named = Step { run: "a.b".into(), arguments: Some(json!({ "filename": { "$item": "id" } })) };
        assert_eq!(arguments_for(&named, &job.items[1]).unwrap(), json!({ "filename": "0002" }), "the id names outputs");
    }

    #[test]
    fn frames_split_into_ranges() {
        let job = load(json!({ "run": "r.a", "frames": { "start": 1, "end": 25, "chunk": 10 } }), &[]).unwrap();
        let ranges: Vec<_> = job.items.iter().map(|i| (i.id.clone(), i.fields["frame_start"].clone(), i.fields["frame_end"].clone())).collect();
        assert_eq!(ranges, vec![("frames-0001-0010".into(), json!(1), json!(10)), ("frames-0011-0020".into(), json!(11), json!(20)), ("frames-0021-0025".into(), json!(21), json!(25))]);
    }

    #[test]
    fn bad_jobs_are_refused_before_anything_runs() {
        for (doc, words) in [
            (json!({ "run": "a.b", "items": [{ "id": "../x" }] }), "id"),
            (json!({ "run": "a.b", "items": [{ "id": "a" }, { "id": "a" }] }), "twice"),
            (json!({ "run": "a.b", "items": [] }), "no items"),
            (json!({ "run": "a.b" }), "needs items"),
            (json!({ "run": "a.b", "items": [{}], "retries": 11 }), "retries"),
            (json!({ "run": "a.b", "items": [{}], "extra": 1 }), "unknown field"),
            (json!({ "run": "a.b", "arguments": { "x": { "$item": "q", "y": 1 } }, "items": [{}] }), "stands alone"),
            (json!({ "run": "a.b", "arguments": { "x": { "$item": "q" } }, "items": [{ "p": 1 }] }), "no field"),
            (json!({ "steps": [], "items": [{}] }), "non-empty"),
            (json!({ "run": "a.b", "items": "i.txt" }), ".json or .csv"),
            (json!({ "run": "a.b", "items": "dup.csv" }), "twice"),
            (json!({ "run": "a.b", "frames": { "start": 0, "end": i64::MAX } }), "frames are from"),
        ] {
            let err = load(doc.clone(), &[("i.txt", "x"), ("dup.csv", "name,name\na,b\n")]).unwrap_err().to_string();
            assert!(err.contains(words), "{doc}: {err}");
        }
    }

    #[test]
    fn an_eval_job_has_one_item_per_task_of_the_suite() {
        let job = load(json!({ "eval": "shipped", "planner": true }), &[]).unwrap();
        let eval = job.eval.as_ref().unwrap();
        assert!(eval.planner);
        assert_eq!(job.items.len(), eval.suite.tasks.len());
        assert_eq!(eval.raw_tasks.len(), job.items.len());
        assert_eq!(job.items[0].id, eval.suite.tasks[0].id);
        assert!(job.steps.is_empty());
        for (doc, words) in [
            (json!({ "eval": "shipped", "items": [{}] }), "no items"),
            (json!({ "run": "a.b", "items": [{}], "planner": true }), "planner belongs"),
            (json!({ "eval": 3 }), "shipped"),
            (json!({ "eval": { "version": 1, "tasks": [] } }), "suite"),
        ] {
            let err = load(doc.clone(), &[]).unwrap_err().to_string();
            assert!(err.contains(words), "{doc}: {err}");
        }
    }

    #[test]
    fn the_fingerprint_covers_the_items_file() {
        let a = load(json!({ "run": "a.b", "items": "i.json" }), &[("i.json", "[{\"n\":1}]")]).unwrap();
        let b = load(json!({ "run": "a.b", "items": "i.json" }), &[("i.json", "[{\"n\":2}]")]).unwrap();
        assert_ne!(a.fingerprint, b.fingerprint);
    }
}
