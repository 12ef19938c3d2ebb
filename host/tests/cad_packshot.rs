//! `workflow.cad_packshot` end to end, through `capstan serve`'s guided MCP surface, on
//! a real confined FreeCAD and a real confined Blender, both launched by capstan into
//! their own instances:
//!
//! 1. the test makes an L-bracket with a hole in FreeCAD (so the STEP part is never a
//!    file shipped in the repository), exports it as STEP and puts it in a read root;
//! 2. the workflow opens it in FreeCAD, tessellates it, hands the mesh to Blender,
//!    imports it and renders a square transparent packshot;
//! 3. the PNG is read back: the part (its opaque pixels) must cover 20-80% of the
//!    frame's width or height, and each step must name its app and carry its delta.
//!
//! Also checked: a STEP path outside the read roots stops the workflow at its first
//! step with FreeCAD's own refusal, and a malformed argument runs nothing.
//!
//! Needs Blender (`CAPSTAN_TEST_BLENDER`) and FreeCAD; with `CAPSTAN_REQUIRE_BLENDER=1`
//! and `CAPSTAN_REQUIRE_FREECAD=1` (the test command sets both) a missing one fails the
//! test instead of skipping it, and a skip says so loudly.

mod support;
#[path = "support/raw_mcp.rs"]
mod raw_mcp;

use capstan::app_units::freecad::launch::{LaunchOptions, launch_with_env};
use capstan::app_units::freecad::locate;
use capstan::home::CapstanHome;
use serde_json::{Value, json};

/// The frame is square 1080 at this percentage: a small, quick render of the full framing.
const PERCENT: u64 = 20;

fn structured(response: &Value) -> &Value {
    assert_eq!(response["result"]["isError"], false, "{response}");
    &response["result"]["structuredContent"]
}

fn execute(c: &mut raw_mcp::RawClient, key: &str, arguments: Value) -> Value {
    structured(&c.call_tool("execute_capability", json!({ "key": key, "arguments": arguments }))).clone()
}

fn freecad() -> Option<locate::FreecadInstall> {
    match locate::find(None) {
        Ok(found) => Some(found),
        Err(e) if std::env::var("CAPSTAN_REQUIRE_FREECAD").as_deref() == Ok("1") => panic!("FreeCAD is required here: {e}"),
        Err(e) => {
            eprintln!("SKIPPED, NOTHING TESTED: no FreeCAD ({e})");
            None
        }
    }
}

/// The share of the frame's width and height the opaque pixels' bounding box spans.
fn coverage(png_path: &std::path::Path) -> (u32, u32, f64, f64) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(png_path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba, "a transparent packshot has an alpha channel");
    let channels = 4 * if info.bit_depth == png::BitDepth::Sixteen { 2 } else { 1 };
    let (w, h) = (info.width, info.height);
    let (mut x0, mut x1, mut y0, mut y1) = (u32::MAX, 0, u32::MAX, 0);
    for y in 0..h {
        for x in 0..w {
            let at = (y * w + x) as usize * channels;
            // Alpha's high byte: the part is opaque, the shadow catcher's shadow is not.
            let alpha = buf[at + channels - if channels == 8 { 2 } else { 1 }];
            if alpha >= 230 {
                (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
            }
        }
    }
    assert!(x0 <= x1, "no opaque pixel: the part is not in the picture");
    (w, h, f64::from(x1 - x0 + 1) / f64::from(w), f64::from(y1 - y0 + 1) / f64::from(h))
}

#[test]
fn a_step_part_becomes_a_packshot_across_freecad_and_blender() {
    let Some(freecad) = freecad() else { return };
    let home_dir = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(home_dir.path());
    let Some(blender) = support::headless_blender(home_dir.path()) else {
        eprintln!("SKIPPED, NOTHING TESTED: no Blender under test");
        return;
    };
    let parts = tempfile::tempdir().unwrap();
    let roots = std::fs::canonicalize(parts.path()).unwrap();
    let roots_value = roots.to_str().unwrap().to_string();
    let freecad = launch_with_env(&home, &freecad, &LaunchOptions::default(), &[("CAPSTAN_READ_ROOTS", &roots_value)]).expect("FreeCAD launches");

    let mut mcp = raw_mcp::RawClient::start(home_dir.path(), false);
    // The part: an L-bracket (a plate and an upright, fused) with a hole through the plate.
    for (key, args) in [
        ("cad.primitive", json!({ "kind": "box", "name": "Plate", "length": 60, "width": 40, "height": 8 })),
        ("cad.primitive", json!({ "kind": "box", "name": "Upright", "length": 8, "width": 40, "height": 45 })),
        ("cad.boolean", json!({ "operation": "fuse", "base": "Plate", "tool": "Upright", "name": "L" })),
        ("cad.primitive", json!({ "kind": "cylinder", "name": "Hole", "radius": 6, "height": 20, "position": [38, 20, -5] })),
        ("cad.boolean", json!({ "operation": "cut", "base": "L", "tool": "Hole", "name": "Bracket" })),
        ("cad.export", json!({ "file_name": "bracket.step", "format": "step", "objects": ["Bracket"] })),
    ] {
        execute(&mut mcp, key, args);
    }
    let step_file = roots.join("supplier bracket.step");
    std::fs::copy(freecad.instance.output.join("bracket.step"), &step_file).unwrap();

    let answer = execute(
        &mut mcp,
        "workflow.cad_packshot",
        json!({ "step_file": step_file, "part_name": "SupplierBracket", "material": "brushed_aluminum", "render_percentage": PERCENT, "samples": 4 }),
    );
    let result = &answer["result"];
    assert_eq!(result["status"], "ok", "{answer}");
    assert_eq!(result["apps"], json!(["freecad", "blender"]));
    let steps = result["steps"].as_array().unwrap();
    let by_id = |id: &str| steps.iter().find(|s| s["id"] == id).unwrap_or_else(|| panic!("no step {id}: {answer}"));
    for (id, app) in [("open", "freecad"), ("tessellate", "freecad"), ("place", "blender"), ("material", "blender"), ("render", "blender")] {
        assert_eq!(by_id(id)["app"], app, "{id}");
        assert_eq!(by_id(id)["status"], "ok", "{id}");
    }
    assert_eq!(by_id("open")["delta"]["added"], json!(["SupplierBracket"]), "FreeCAD's delta names the imported part");
    assert_eq!(by_id("tessellate")["arguments"]["objects"], json!(["SupplierBracket"]), "only the imported part is tessellated, not the test's leftovers");
    let handover = by_id("hand_over");
    assert_eq!((handover["from"].as_str(), handover["to"].as_str()), (Some("freecad"), Some("blender")));
    assert!(handover["result"]["bytes"].as_u64().unwrap() > 1000, "{handover}");
    let placed = by_id("place")["result"]["new_objects"][0].as_str().unwrap().to_string();
    assert_eq!(placed, "cad_part");
    assert!(by_id("place")["delta"]["added"].as_array().unwrap().contains(&json!("cad_part")), "Blender's delta names the imported mesh");
    assert_eq!(by_id("camera")["arguments"]["target_object"], json!(placed), "later steps use the name the import answered");
    // The mesh is the part at real size: 60 x 40 x 45 mm.
    let info = execute(&mut mcp, "scene.object_info", json!({ "name": placed }));
    let dims: Vec<f64> = info["result"]["dimensions"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    for (got, want) in dims.iter().zip([0.060, 0.040, 0.045]) {
        assert!((got - want).abs() < 1e-4, "dimensions {dims:?}");
    }

    let png = std::path::PathBuf::from(result["path"].as_str().expect("the answer names the PNG"));
    assert!(png.starts_with(&blender.instance.output), "{} is Blender's output", png.display());
    let (w, h, wide, high) = coverage(&png);
    assert_eq!((u64::from(w), u64::from(h)), (1080 * PERCENT / 100, 1080 * PERCENT / 100));
    eprintln!("the part spans {:.0}% of the width and {:.0}% of the height", wide * 100.0, high * 100.0);
    assert!((0.2..=0.8).contains(&wide) || (0.2..=0.8).contains(&high), "the part covers {wide:.2} x {high:.2} of the frame");

    // A STEP file outside the read roots: FreeCAD refuses it, nothing else runs.
    let refused = mcp.call_tool("execute_capability", json!({ "key": "workflow.cad_packshot", "arguments": { "step_file": "/etc/part.step" } }));
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    let body = &refused["result"]["structuredContent"];
    assert_eq!(body["error"]["failed_step"], "open", "{body}");
    assert_eq!(body["error"]["app_error"]["code"], "path_refused", "{body}");
    // A mesh name that is not an STL: refused before anything runs.
    let bad = mcp.call_tool("execute_capability", json!({ "key": "workflow.cad_packshot", "arguments": { "step_file": step_file, "mesh_file": "../x.stl" } }));
    assert_eq!(bad["result"]["structuredContent"]["error"]["code"], "INVALID_CAPABILITY_ARGUMENTS", "{bad}");
    drop(mcp);
    drop(freecad);
    drop(blender);
}
