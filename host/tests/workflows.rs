//! Workflows: the plan is checked whole before anything runs, a failing step stops the
//! chain and is reported as a failed step, and the product hero, against a real
//! Blender, ends in a picture that looks like one (measured, not eyeballed).

#[path = "support/mod.rs"]
mod support;

use capstan::bridge::{BridgeClient, BridgeFailure, BridgeRequest};
use capstan::home::CapstanHome;
use capstan::report;
use capstan::runtime::CallError;
use serde_json::{Value, json};
use std::sync::Arc;

/// Answers like the recording bridge, except that one command fails as the app would.
struct FailingAt {
    inner: support::RecordingBridge,
    command: &'static str,
}

impl BridgeClient for FailingAt {
    fn call(&self, request: BridgeRequest<'_>) -> Result<Value, BridgeFailure> {
        let command = request.command;
        let answer = self.inner.call(request)?;
        if command == self.command {
            return Err(BridgeFailure::App { code: "not_found".into(), message: "no object named 'Product Camera Pivot'".into(), delta: None });
        }
        Ok(answer)
    }
}

fn doc(steps: Value) -> capstan::workflow::WorkflowDoc {
    serde_json::from_value(json!({
        "key": "workflow.test_chain", "summary": "a test chain", "description": "two steps",
        "input_schema": { "type": "object", "additionalProperties": false, "properties": { "size": { "type": "number" }, "name": { "type": "string" } } },
        "steps": steps,
    }))
    .unwrap()
}

#[test]
fn every_step_is_checked_before_the_first_bridge_call() {
    let tmp = tempfile::tempdir().unwrap();
    let bridge = Arc::new(support::RecordingBridge::default());
    let mut rt = support::runtime(&CapstanHome::at(tmp.path()), bridge.clone(), &[]);
    // The workflow's schema takes any number; the second step's refuses a negative size.
    rt.add_workflow(doc(json!([
        { "id": "look", "key": "scene.info" },
        { "id": "make", "key": "scene.create_object", "args": { "type": "cube", "size": { "$arg": "size" } } },
    ])))
    .unwrap();
    let err = rt.call("workflow.test_chain", &json!({ "size": -1 }).to_string()).unwrap_err();
    let CallError::InvalidArguments { errors, .. } = &err else { panic!("{err}") };
    assert!(errors.iter().any(|e| e.starts_with("step make (scene.create_object): /size")), "{errors:?}");
    assert_eq!(bridge.count(), 0, "nothing ran: {:?}", bridge.commands());
    // One progress report as each step starts and one at the end, for a client to show.
    let heard = Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink_heard = heard.clone();
    let sink: capstan::sandbox::ProgressSink = Arc::new(move |r| sink_heard.lock().unwrap().push((r.done, r.total, r.message)));
    rt.call_reporting("workflow.test_chain", &json!({ "size": 1 }).to_string(), sink).unwrap();
    assert_eq!(bridge.commands().iter().filter(|c| c.as_str() != "undo_push").count(), 2, "{:?}", bridge.commands());
    assert_eq!(*heard.lock().unwrap(), [
        (0, Some(2), "step 1 of 2: look (scene.info)".to_string()),
        (1, Some(2), "step 2 of 2: make (scene.create_object)".to_string()),
        (2, Some(2), "2 of 2 steps done".to_string()),
    ]);

    // A part passed through is validated by the capability's own schema, embedded in the
    // workflow's: a bad vehicle name never reaches the step.
    bridge.received.lock().unwrap().clear();
    let args = json!({ "action": "build_full_scene", "vehicles": [{ "vehicle_type": "sedan", "name": "Car/A" }] }).to_string();
    let err = rt.call("workflow.forensic_recon", &args).unwrap_err();
    let CallError::InvalidArguments { errors, .. } = &err else { panic!("{err}") };
    assert!(errors.iter().any(|e| e.starts_with("/vehicles/0/name")), "{errors:?}");
    // The packshot's forced settings are not arguments.
    let err = rt.call("workflow.amazon_packshot", &json!({ "object_name": "Cube", "lighting": "jewelry" }).to_string()).unwrap_err();
    assert!(matches!(err, CallError::InvalidArguments { .. }), "{err}");
    assert_eq!(bridge.count(), 0);
    // An alias names the workflow but is not run.
    assert!(matches!(rt.call("product_hero", "{}"), Err(CallError::NonCanonical { .. })));
}

#[test]
fn a_workflow_that_reaches_beyond_the_loaded_capabilities_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let mut rt = support::runtime(&CapstanHome::at(tmp.path()), Arc::new(capstan::bridge::Offline), &[]);
    let refused = |rt: &mut capstan::runtime::Runtime, steps: Value| rt.add_workflow(doc(steps)).unwrap_err().join("\n");
    assert!(refused(&mut rt, json!([{ "id": "a", "key": "scene.teleport" }])).contains("no capability with the canonical key \"scene.teleport\""));
    assert!(refused(&mut rt, json!([{ "id": "a", "key": "create_object" }])).contains("canonical key"), "an alias is not a step");
    assert!(refused(&mut rt, json!([{ "id": "a", "key": "workflow.turntable" }])).contains("does not run another workflow"));
    assert!(refused(&mut rt, json!([{ "id": "a", "key": "scene.info", "args": { "limit": { "$arg": "count" } } }])).contains("\"count\", which input_schema does not declare"));
    assert!(refused(&mut rt, json!([{ "id": "a", "key": "scene.info", "when": { "arg": "name" } }])).contains("exactly one of"));
    assert!(refused(&mut rt, json!([{ "id": "a", "key": "scene.info" }, { "id": "a", "key": "scene.info" }])).contains("unique"));
    assert!(refused(&mut rt, json!([{ "id": "a", "key": "scene.info", "args": { "x": { "$item": true } } }])).contains("\"each\""));
    assert!(refused(&mut rt, json!([])).contains("1 to 64"));
    // `each` and `when` name declared arguments, and an `each` array is bounded so the
    // plan can never grow past the step limit.
    assert!(refused(&mut rt, json!([{ "id": "a", "key": "scene.info", "each": "items", "args": { "$item": true } }])).contains("\"items\", which input_schema does not declare"));
    assert!(refused(&mut rt, json!([{ "id": "a", "key": "scene.info", "when": { "arg": "colour", "present": true } }])).contains("\"colour\", which input_schema does not declare"));
    let mut unbounded = doc(json!([{ "id": "a", "key": "scene.info", "each": "name", "args": {} }]));
    unbounded.input_schema["properties"]["name"] = json!({ "type": "array", "items": { "type": "object" } });
    assert!(rt.add_workflow(unbounded).unwrap_err().join(" ").contains("needs a maxItems"));
    let mut too_many = doc(json!([{ "id": "a", "key": "scene.info", "each": "name", "args": {} }]));
    too_many.input_schema["properties"]["name"] = json!({ "type": "array", "maxItems": 65, "items": { "type": "object" } });
    assert!(rt.add_workflow(too_many).unwrap_err().join(" ").contains("expand to 65"));
    // A key or alias another capability owns.
    let mut clash = doc(json!([{ "id": "a", "key": "scene.info" }]));
    clash.aliases = vec!["get_scene_info".into()];
    assert!(rt.add_workflow(clash).unwrap_err().join(" ").contains("already claimed"));
    // A step reads only the result of an earlier step that always runs once.
    let later = json!([{ "id": "a", "key": "scene.info", "args": { "x": { "$step": "b", "pointer": "/y" } } }, { "id": "b", "key": "scene.info" }]);
    assert!(refused(&mut rt, later).contains("\"b\", which is not an earlier capability step that always runs once"));
    let conditional = json!([{ "id": "a", "key": "scene.info", "when": { "arg": "name", "present": true } }, { "id": "b", "key": "scene.info", "args": { "x": { "$step": "a", "pointer": "/y" } } }]);
    assert!(refused(&mut rt, conditional).contains("not an earlier capability step that always runs once"));
    assert!(refused(&mut rt, json!([{ "id": "a", "key": "scene.info", "args": { "x": { "$step": "a" } } }])).contains("JSON pointer"));
    // A handover goes between two registered apps the workflow's steps talk to.
    let to_nowhere = json!([{ "id": "a", "key": "scene.info" }, { "id": "h", "handover": { "from": "blender", "to": "gimp", "file": "x.obj" } }]);
    assert!(refused(&mut rt, to_nowhere).contains("\"gimp\", which is no registered app"));
    let unused_app = json!([{ "id": "a", "key": "scene.info" }, { "id": "h", "handover": { "from": "freecad", "to": "blender", "file": "x.obj" } }]);
    assert!(refused(&mut rt, unused_app).contains("no capability step of this workflow talks to \"freecad\""));
    let both = json!([{ "id": "a", "key": "scene.info" }, { "id": "h", "key": "scene.info", "handover": { "from": "blender", "to": "blender", "file": "x.obj" } }]);
    let why = refused(&mut rt, both);
    assert!(why.contains("not both") && why.contains("two different apps"), "{why}");
    // The official five (every file of host/workflows, in file-name order) are loaded,
    // each with every step a loaded capability.
    let keys: Vec<&str> = rt.workflows().map(|w| w.spec.key.as_str()).collect();
    assert_eq!(keys, ["workflow.amazon_packshot", "workflow.cad_packshot", "workflow.forensic_recon", "workflow.product_hero", "workflow.turntable"]);
    for w in rt.workflows() {
        assert!(w.spec.mutates && !w.spec.destructive && w.spec.family == "workflow", "{}", w.spec.key);
        assert!(w.spec.input_schema["properties"].as_object().is_some_and(|p| !p.is_empty()));
        assert!(!w.spec.conformance.is_empty(), "{} has conformance cases", w.spec.key);
    }
}

#[test]
fn a_failing_step_stops_the_workflow_and_is_reported_as_failed() {
    let tmp = tempfile::tempdir().unwrap();
    let bridge = Arc::new(FailingAt { inner: support::RecordingBridge::default(), command: "product_camera_rig" });
    let rt = support::runtime(&CapstanHome::at(tmp.path()), bridge.clone(), &[]);
    let err = rt.call("workflow.product_hero", &json!({ "object_name": "Cube" }).to_string()).unwrap_err();
    let CallError::Workflow { step, report: doc, .. } = &err else { panic!("{err}") };
    assert_eq!(step, "camera");
    assert_eq!(err.app_code(), Some("not_found"));
    let statuses: Vec<(String, String)> =
        doc["steps"].as_array().unwrap().iter().map(|s| (s["id"].as_str().unwrap().into(), s["status"].as_str().unwrap().into())).collect();
    let want = [("inspect", "ok"), ("isolate", "ok"), ("lighting", "ok"), ("render_setup", "ok"), ("camera", "failed"), ("hero_frame", "not_run"), ("render", "not_run")];
    assert_eq!(statuses, want.map(|(a, b)| (a.to_string(), b.to_string())));
    assert_eq!(doc["status"], "failed");
    assert_eq!(doc["skipped"][0]["id"], "material", "no material was asked for");
    // Nothing was sent after the failing command.
    let commands = bridge.inner.commands();
    assert_eq!(commands.iter().rfind(|c| c.as_str() != "undo_push").map(String::as_str), Some("product_camera_rig"), "{commands:?}");
    // The MCP error: the step's code, the failed step, every step.
    let error = report::error_json(&err);
    assert_eq!(error["code"], "APP_REFUSED");
    assert_eq!(error["failed_step"], "camera");
    assert_eq!(error["workflow"]["steps"][4]["error"]["app_error"]["code"], "not_found");
}

/// The share of the frame a framing measurement's visible bounds cover, and the pixel box.
fn subject_box(framing: &Value, width: u32, height: u32) -> (f64, f64, [u32; 4]) {
    let b = &framing["bounds"];
    let f = |k: &str| b[k].as_f64().unwrap_or_else(|| panic!("bounds.{k} in {framing}")).clamp(0.0, 1.0);
    let (x0, x1, y0, y1) = (f("x_min"), f("x_max"), f("y_min"), f("y_max"));
    // Frame y points up; image rows go down.
    let px = [(x0 * width as f64) as u32, ((1.0 - y1) * height as f64) as u32, (x1 * width as f64).ceil() as u32, ((1.0 - y0) * height as f64).ceil() as u32];
    (x1 - x0, y1 - y0, px)
}

struct Picture {
    width: u32,
    height: u32,
    rgba: Vec<[f64; 4]>,
}

fn decode(path: &str) -> Picture {
    let mut decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let rgba = buf[..info.buffer_size()]
        .chunks(channels)
        .map(|p| {
            let c = |i: usize| p[i.min(channels - 1)] as f64 / 255.0;
            match channels {
                1 | 2 => [c(0), c(0), c(0), if channels == 2 { c(1) } else { 1.0 }],
                _ => [c(0), c(1), c(2), if channels == 4 { c(3) } else { 1.0 }],
            }
        })
        .collect();
    Picture { width: info.width, height: info.height, rgba }
}

/// Rec. 709 luma of the stored (display) values.
fn luminance(p: &[f64; 4]) -> f64 {
    0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]
}

#[test]
#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
fn product_hero_on_a_fresh_object_renders_a_clean_framed_still() {
    let tmp = tempfile::tempdir().unwrap();
    let _blender = support::headless_blender(tmp.path()).expect("CAPSTAN_TEST_BLENDER names a Blender");
    let home = CapstanHome::at(tmp.path());
    let client = Arc::new(capstan::bridge::HttpBridgeClient::for_home(&home));
    let rt = support::runtime(&home, client, &[]);
    // A freshly created product, not the factory cube: a bottle-sized cylinder.
    rt.call("scene.create_object", &json!({ "type": "cylinder", "name": "Bottle", "size": 0.08, "scale": [1, 1, 3], "location": [0.3, -0.2, 0.12] }).to_string()).unwrap();
    let args = json!({ "object_name": "Bottle", "material": "glossy_plastic", "render_percentage": 11, "samples": 16 });
    let out = rt.call("workflow.product_hero", &args.to_string()).unwrap_or_else(|e| panic!("{}", report::error_json(&e)));

    // Every step is listed with its status, and each mutating one with its delta.
    let steps = out.result["steps"].as_array().unwrap();
    let ids: Vec<&str> = steps.iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["inspect", "material", "isolate", "lighting", "render_setup", "camera", "hero_frame", "render"]);
    for step in steps {
        assert_eq!(step["status"], "ok", "{step}");
        let mutates = rt.capability(step["key"].as_str().unwrap()).unwrap().mutates;
        assert_eq!(step.get("delta").is_some(), mutates, "{step}");
    }
    assert!(out.delta.as_ref().unwrap().objects.added.contains("Product Key"));

    let path = out.result["path"].as_str().unwrap();
    let picture = decode(path);
    assert!(picture.width <= 128 && picture.height <= 128, "{}x{}", picture.width, picture.height);
    std::fs::create_dir_all(support::workspace().join("target/capstan-workflows")).unwrap();
    std::fs::copy(path, support::workspace().join("target/capstan-workflows/product_hero.png")).unwrap();

    // Where the subject is, measured in Blender at the rendered frame.
    let framing = rt.call("spatial.camera_framing", &json!({ "object": "Bottle" }).to_string()).unwrap().result;
    assert_eq!(framing["fully_inside"], true, "{framing}");
    let (w, h, [x0, y0, x1, y1]) = subject_box(&framing, picture.width, picture.height);
    assert!((0.2..=0.8).contains(&w.max(h)), "the subject covers {w:.2} x {h:.2} of the frame: {framing}");

    let subject: Vec<f64> = (y0..y1.min(picture.height))
        .flat_map(|y| (x0..x1.min(picture.width)).map(move |x| (x, y)))
        .map(|(x, y)| luminance(&picture.rgba[(y * picture.width + x) as usize]))
        .collect();
    let mean = subject.iter().sum::<f64>() / subject.len() as f64;
    assert!((0.15..=0.85).contains(&mean), "the subject's mean luminance is {mean:.3}");
    let clipped = picture.rgba.iter().filter(|p| p[..3].iter().any(|c| *c >= 254.0 / 255.0)).count() as f64 / picture.rgba.len() as f64;
    assert!(clipped <= 0.02, "{:.1}% of the pixels are clipped", clipped * 100.0);
    eprintln!("product hero: subject {w:.2} x {h:.2} of the frame, mean luminance {mean:.3}, clipped {:.2}%", clipped * 100.0);
    let all: Vec<f64> = picture.rgba.iter().map(luminance).collect();
    let spread = all.iter().cloned().fold(f64::MIN, f64::max) - all.iter().cloned().fold(f64::MAX, f64::min);
    assert!(spread > 0.2, "the picture is nearly uniform (luminance spread {spread:.3})");
}
