//! `capstan demo`: the whole chain in one command. Makes sure a headless Blender is
//! there (provisioning one if needed), launches it with the bridge, starts
//! `capstan serve`, and drives a short guided session through a real MCP client:
//! goal, search, schema, then a product shot (a bevelled, smooth-shaded chrome object on
//! a seamless backdrop, soft studio lights, a gradient world to reflect, a camera framed
//! on the object) rendered to a PNG. Each step prints its scene delta.

use crate::cli::CliError;
use crate::home::{CapstanHome, HOME_ENV};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::{Value, json};
use std::process::ExitCode;

type Client = RunningService<rmcp::RoleClient, ()>;

fn fail(e: impl std::fmt::Display) -> CliError {
    CliError::Usage(e.to_string())
}

async fn step(client: &Client, n: usize, what: &str, tool: &str, args: Value) -> Result<Value, CliError> {
    let Value::Object(map) = args else { unreachable!("tool arguments are objects") };
    let result = client.call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(map)).await.map_err(fail)?;
    let doc = result.structured_content.clone().unwrap_or(Value::Null);
    if result.is_error == Some(true) {
        return Err(CliError::Usage(format!("step {n} ({what}) failed: {}", doc["error"])));
    }
    let delta = &doc["delta"];
    let change = if delta.is_object() {
        let list = |k: &str| delta[k].as_array().map(|a| a.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(", ")).unwrap_or_default();
        let parts: Vec<String> = [("added", list("added")), ("changed", list("changed")), ("removed", list("removed")), ("settings", list("settings"))]
            .into_iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        if parts.is_empty() { String::new() } else { format!("  [{}]", parts.join("; ")) }
    } else {
        String::new()
    };
    println!("{n:>2}. {what}{change}");
    Ok(doc)
}

/// A cyclorama: a floor that sweeps up into a wall behind the product through a
/// quarter circle, so the background has no horizon line. 16 m wide, smooth shaded.
fn backdrop() -> Value {
    let (radius, floor_front, wall_top, half_width, steps) = (2.5f64, -6.0f64, 6.0f64, 8.0f64, 12);
    let mut profile: Vec<(f64, f64)> = vec![(floor_front, 0.0)];
    for i in 0..=steps {
        let a = std::f64::consts::FRAC_PI_2 * f64::from(i) / f64::from(steps);
        profile.push((2.0 + radius * a.sin(), radius - radius * a.cos()));
    }
    profile.push((2.0 + radius, wall_top));
    let mut vertices = Vec::new();
    for x in [-half_width, half_width] {
        vertices.extend(profile.iter().map(|(y, z)| json!([x, y, z])));
    }
    let n = profile.len();
    let faces: Vec<Value> = (0..n - 1).map(|i| json!([i, i + 1, n + i + 1, n + i])).collect();
    json!({ "name": "Backdrop", "vertices": vertices, "faces": faces, "smooth": true })
}

async fn session(client: &Client, size: (u32, u32), samples: u32) -> Result<String, CliError> {
    let goal = step(client, 1, "set the goal: a chrome product hero shot", "router_set_goal", json!({ "goal": "Make a premium chrome product hero render" })).await?;
    println!("    routed to family {:?}", goal["family"].as_str().unwrap_or("?"));
    let found = step(client, 2, "search: add an object", "search_capabilities", json!({ "query": "add an object" })).await?;
    let key = found["results"][0]["key"].as_str().unwrap_or("scene.create_object").to_string();
    println!("    best match: {key}");
    step(client, 3, &format!("read the schema of {key}"), "get_capability_schema", json!({ "key": key })).await?;
    let exec = |key: &str, args: Value| json!({ "key": key, "arguments": args });
    let scene = step(client, 4, "look at the scene", "execute_capability", exec("scene.info", json!({}))).await?;
    let mut n = 5;
    for default in ["Cube", "Light"] {
        let present = scene["result"]["objects"].as_array().is_some_and(|objs| objs.iter().any(|o| o["name"] == default));
        if present {
            step(client, n, &format!("delete the default {}", default.to_lowercase()), "execute_capability", exec("scene.delete_object", json!({ "name": default }))).await?;
            n += 1;
        }
    }
    let steps = [
        ("create the product (a cylinder)", "scene.create_object", json!({ "type": "cylinder", "name": "Product", "size": 1.2, "location": [0, 0, 0.6] })),
        ("bevel its edges", "mutate.modifier_add", json!({ "object": "Product", "type": "BEVEL", "properties": { "width": 0.04, "segments": 4, "limit_method": "ANGLE" } })),
        ("shade it smooth, keeping the rims crisp", "mutate.cleanup", json!({ "action": "shade_auto_smooth", "object": "Product", "angle": 40 })),
        ("give it a chrome material", "scene.set_material", json!({ "object": "Product", "preset": "chrome" })),
        ("build a seamless backdrop (a floor that sweeps up into a wall)", "create.mesh", backdrop()),
        ("make the backdrop a soft mid grey", "scene.set_material", json!({ "object": "Backdrop", "color": "#8c9096", "preset": "matte" })),
        ("light it like a studio (soft boxes)", "scene.lighting_preset", json!({ "preset": "studio", "target": "Product", "distance": 5, "intensity": 0.5 })),
        ("a gradient world for the chrome to reflect", "world.gradient", json!({ "top": "#f2f4f7", "bottom": "#30343a", "strength": 0.8 })),
        ("place the camera in front, a little above", "scene.camera", json!({ "location": [0, -4.5, 1.9], "look_at": "Product", "lens": 70 })),
        ("frame the product", "camera.frame_objects", json!({ "camera": "Camera", "objects": ["Product"], "margin": 0.45 })),
    ];
    for (what, key, args) in steps {
        step(client, n, what, "execute_capability", exec(key, args)).await?;
        n += 1;
    }
    let what = format!("render a {}x{} PNG (Cycles, CPU, {} samples, denoised)", size.0, size.1, samples);
    let args = json!({ "filename": "capstan-demo.png", "engine": "cycles", "resolution": [size.0, size.1], "samples": samples });
    let render = step(client, n, &what, "execute_capability", exec("scene.render", args)).await?;
    Ok(render["result"]["path"].as_str().unwrap_or("?").to_string())
}

/// `capstan demo`'s arguments.
#[derive(clap::Args)]
pub struct DemoArgs {
    /// Render size, WIDTHxHEIGHT.
    #[arg(long, default_value = "960x540", value_parser = parse_size)]
    size: (u32, u32),
    /// Cycles samples (denoised).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=4096))]
    samples: u32,
}

/// `WIDTHxHEIGHT`, each 16..=8192.
fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text.split_once('x').ok_or_else(|| format!("{text:?} is not WIDTHxHEIGHT"))?;
    let side = |v: &str| v.parse::<u32>().ok().filter(|n| (16..=8192).contains(n)).ok_or_else(|| format!("{v:?} is not a size from 16 to 8192"));
    Ok((side(w)?, side(h)?))
}

/// The demo's render: 960x540 at 64 samples makes a clean image in about a minute on
/// two cores; tests ask for a thumbnail (`--size 128x72 --samples 8`).
pub fn run(args: DemoArgs) -> Result<ExitCode, CliError> {
    let DemoArgs { size, samples } = args;
    let home = CapstanHome::from_env()?;
    // The same confined headless start as `capstan eval`, published for the session.
    let blender = crate::app_unit::AppUnit::start_headless(&super::unit::BLENDER, &home, &Default::default()).map_err(fail)?;
    println!("{}", blender.describe());
    println!("bridge up; starting `capstan serve` and an MCP client session");
    let exe = std::env::current_exe().map_err(fail)?;
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().map_err(fail)?;
    let png = runtime.block_on(async {
        let cmd = tokio::process::Command::new(&exe).configure(|c| {
            c.env(HOME_ENV, home.root()).arg("serve");
        });
        let client: Client = ().serve(TokioChildProcess::new(cmd).map_err(fail)?).await.map_err(fail)?;
        let outcome = session(&client, size, samples).await;
        let _ = client.cancel().await;
        outcome
    })?;
    println!("done: {png}");
    Ok(ExitCode::SUCCESS)
}
