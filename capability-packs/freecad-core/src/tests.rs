//! The pack as a whole: the manifest's command list, families, effects, schemas, and
//! handlers run against the SDK's mock bridge (no FreeCAD; the conformance suite runs
//! the real one).

use crate::{capabilities, families};
use capstan_freecad::*;
use capstan_sdk::testing::{MockBridge, assert_declared, assert_keys_in_family_namespace, assert_manifest_commands};
use serde_json::{Value, json};

fn cap(key: &str) -> capstan_sdk::Capability {
    capabilities::all().into_iter().find(|c| c.key() == key).unwrap_or_else(|| panic!("no capability {key}"))
}

fn schema(key: &str) -> Value {
    serde_json::from_str(&cap(key).input_schema()).unwrap()
}

fn delta(added: &[&str]) -> Delta {
    serde_json::from_value(json!({ "added": added, "removed": [], "changed": [], "settings": [] })).unwrap()
}

/// `pack.json` lists exactly the commands the capabilities use, under the server of
/// FreeCAD's client crate; `CAPSTAN_BLESS=1 cargo test -p freecad-core` rewrites it.
#[test]
fn the_manifest_lists_exactly_the_commands_the_capabilities_use() {
    assert_manifest_commands(env!("CARGO_MANIFEST_DIR"), SERVER, &capabilities::all());
}

#[test]
fn every_key_is_here_with_its_family_cases_and_catalog_commands() {
    let keys: Vec<&str> = capabilities::all().iter().map(|c| c.key()).collect();
    for key in ["cad.primitive", "cad.boolean", "cad.fillet", "cad.chamfer", "cad.measure", "cad.objects", "cad.object_info", "cad.import", "cad.export"] {
        assert!(keys.contains(&key), "{key} missing from {keys:?}");
    }
    assert_declared(&families(), &capabilities::all(), 3);
    assert_keys_in_family_namespace(&capabilities::all());
    for c in capabilities::all() {
        for command in c.bridge_commands() {
            assert!(COMMANDS.iter().any(|(name, _)| name == command), "{} declares {command}, which FreeCAD's catalog lacks", c.key());
        }
    }
}

#[test]
fn the_manifest_requires_freecad_0_20_and_reads_its_runtime_file() {
    let manifest: Value = serde_json::from_str(&std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/pack.json")).unwrap()).unwrap();
    let server = &manifest["servers"][SERVER];
    assert_eq!(server["requires"], json!({ "app": true, "min_version": "0.20" }));
    assert_eq!(server["liveness"]["path"], "$CAPSTAN_HOME/run/freecad/server.json");
    assert_eq!(server["liveness"]["endpoint_path"], "/bridge");
    assert_eq!(manifest["component"], "freecad_core.wasm");
}

#[test]
fn effects_follow_the_bridge_commands() {
    for key in ["cad.measure", "cad.objects", "cad.object_info", "cad.export"] {
        assert!(!cap(key).mutates_state(), "{key} changes nothing in the document");
    }
    for key in ["cad.primitive", "cad.boolean", "cad.fillet", "cad.chamfer", "cad.import"] {
        assert!(cap(key).mutates_state() && !cap(key).is_destructive(), "{key}");
    }
    let (_, effect) = COMMANDS.iter().find(|(name, _)| *name == "export_cad").unwrap();
    assert!(effect.writes_files(), "cad.export writes a file, as the host's search reports");
}

#[test]
fn schemas_say_what_each_argument_needs() {
    let primitive = schema("cad.primitive");
    assert_eq!(primitive["required"], json!(["kind"]));
    let rules = primitive["allOf"].as_array().unwrap();
    assert!(rules.iter().any(|r| r["if"]["properties"]["kind"]["const"] == "box" && r["then"]["required"] == json!(["length", "width", "height"])));
    assert_eq!(primitive["additionalProperties"], json!(false));
    let export = schema("cad.export");
    let text = export.to_string();
    assert!(text.contains(r"[sS][tT][lL]") && text.contains("linear_deflection_mm"), "{text}");
    let fillet = schema("cad.fillet");
    assert_eq!(fillet["properties"]["edges"]["oneOf"][1]["items"]["minimum"], 1);
    assert!(schema("cad.import")["allOf"][0]["properties"]["path"]["pattern"].as_str().unwrap().contains("[iI][gG][sS]"));
}

#[test]
fn bad_arguments_make_no_bridge_call() {
    let bridge = MockBridge::install();
    for (key, args) in [
        ("cad.primitive", r#"{"kind": "sphere", "radius": 1, "height": 2}"#),
        ("cad.primitive", r#"{"kind": "torus", "radius": 2, "tube_radius": 2}"#),
        ("cad.primitive", r#"{"kind": "cone", "radius": 2, "top_radius": 2, "height": 1}"#),
        ("cad.boolean", r#"{"operation": "cut", "base": "Box", "tool": "Box"}"#),
        ("cad.import", r#"{"path": "/srv/parts/../../etc/x.step"}"#),
        ("cad.import", r#"{"path": "/srv/parts/readme.txt"}"#),
        ("cad.export", r#"{"file_name": "a/b.step", "format": "step"}"#),
        ("cad.export", r#"{"file_name": "b.obj", "format": "stl"}"#),
        ("cad.export", r#"{"file_name": "b.step", "format": "step", "quality": "fine"}"#),
    ] {
        assert!(cap(key).run_json(args).is_err(), "{key} {args}");
    }
    assert!(bridge.commands().is_empty(), "{:?}", bridge.commands());
}

#[test]
fn a_primitive_sends_its_dimensions_and_placement() {
    let bridge = MockBridge::install();
    bridge.on::<CreatePrimitive, _>(|p| {
        assert_eq!((p.kind, p.length, p.width, p.height, p.radius), (CreatePrimitiveParamsKind::Box, Some(10.0), Some(20.0), Some(30.0), None));
        assert_eq!((p.position, p.rotation), (Some([1.0, 2.0, 3.0]), Some([0.0, 0.0, 45.0])));
        Ok(CreatePrimitiveResult { name: "Box".into(), kind: "box".into(), volume: 6000.0, delta: delta(&["Box"]) })
    });
    let out: Value = serde_json::from_str(
        &cap("cad.primitive").run_json(r#"{"kind": "box", "length": 10, "width": 20, "height": 30, "position": [1, 2, 3], "rotation": [0, 0, 45]}"#).unwrap(),
    )
    .unwrap();
    assert_eq!(out["volume"], 6000.0);
    assert_eq!(bridge.commands(), ["create_primitive"]);
}

#[test]
fn edges_default_to_all_and_numbers_pass_through() {
    let bridge = MockBridge::install();
    bridge.on::<Fillet, _>(|p| {
        assert_eq!(p.edges, Some(FilletParamsEdges::String(FilletParamsEdgesString::All)));
        Ok(FilletResult { name: "Fillet".into(), edges: 12, volume: 5949.8, valid: true, delta: delta(&["Fillet"]) })
    });
    bridge.on::<Chamfer, _>(|p| {
        assert_eq!(p.edges, Some(ChamferParamsEdges::Array(vec![1, 5])));
        assert_eq!(p.size, 0.5);
        Ok(ChamferResult { name: "Chamfer".into(), edges: 2, volume: 5990.0, valid: true, delta: delta(&["Chamfer"]) })
    });
    cap("cad.fillet").run_json(r#"{"object": "Block", "radius": 1}"#).unwrap();
    cap("cad.chamfer").run_json(r#"{"object": "Block", "size": 0.5, "edges": [1, 5]}"#).unwrap();
    assert_eq!(bridge.commands(), ["fillet", "chamfer"]);
}

#[test]
fn export_passes_the_quality_and_names_its_file() {
    let bridge = MockBridge::install();
    bridge.on::<ExportCad, _>(|p| {
        assert_eq!(p.format, ExportCadParamsFormat::Stl);
        let (linear, angular) = match p.quality {
            Some(ExportCadParamsQuality::Object(q)) => (q.linear_deflection_mm, q.angular_deflection_deg),
            other => panic!("{other:?}"),
        };
        Ok(ExportCadResult {
            path: "/out/ball.stl".into(),
            format: "stl".into(),
            bytes: 100,
            objects: vec!["Ball".into()],
            triangles: Some(646),
            linear_deflection_mm: Some(linear),
            angular_deflection_deg: Some(angular),
        })
    });
    let out: Value = serde_json::from_str(
        &cap("cad.export").run_json(r#"{"file_name": "ball.stl", "format": "stl", "quality": {"linear_deflection_mm": 0.5, "angular_deflection_deg": 20}}"#).unwrap(),
    )
    .unwrap();
    assert_eq!((out["file_name"].as_str(), out["triangles"].as_i64(), out["linear_deflection_mm"].as_f64()), (Some("ball.stl"), Some(646), Some(0.5)));
    bridge.on::<ExportCad, _>(|p| {
        assert_eq!(p.quality, Some(ExportCadParamsQuality::String(ExportCadParamsQualityString::Coarse)));
        Ok(ExportCadResult { path: "/out/b.obj".into(), format: "obj".into(), bytes: 1, objects: vec![], triangles: Some(1), linear_deflection_mm: None, angular_deflection_deg: None })
    });
    cap("cad.export").run_json(r#"{"file_name": "b.OBJ", "format": "obj", "quality": "coarse"}"#).unwrap();
}

#[test]
fn objects_are_filtered_in_the_pack_and_the_total_kept() {
    let bridge = MockBridge::install();
    bridge.on::<ListObjects, _>(|_| {
        Ok(serde_json::from_value(json!({ "document": "capstan", "objects": [
            { "name": "Box", "label": "Box", "type": "Part::Box", "visible": false, "has_shape": true },
            { "name": "Cut", "label": "Cut", "type": "Part::Cut", "visible": true, "has_shape": true },
            { "name": "Group", "label": "Group", "type": "App::DocumentObjectGroup", "visible": true, "has_shape": false },
        ] }))
        .unwrap())
    });
    let run = |args: &str| -> Value { serde_json::from_str(&cap("cad.objects").run_json(args).unwrap()).unwrap() };
    let names = |v: &Value| v["objects"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    assert_eq!(names(&run("{}")), ["Box", "Cut", "Group"]);
    assert_eq!(names(&run(r#"{"visible_only": true}"#)), ["Cut", "Group"]);
    let both = run(r#"{"visible_only": true, "shapes_only": true}"#);
    assert_eq!((names(&both), both["total"].as_u64()), (vec!["Cut".to_string()], Some(3)));
}

#[test]
fn an_import_that_brings_nothing_fails() {
    let bridge = MockBridge::install();
    bridge.on::<ImportCad, _>(|p| {
        assert_eq!(p.path, "/srv/parts/empty.step");
        Ok(ImportCadResult { path: p.path, format: "step".into(), new_objects: vec![], volume_mm3: 0.0, solids: 0, delta: delta(&[]) })
    });
    let err = cap("cad.import").run_json(r#"{"path": "/srv/parts/empty.step"}"#).unwrap_err();
    assert!(err.to_string().contains("no shape"), "{err}");
}

#[test]
fn app_errors_reach_the_caller_typed() {
    let bridge = MockBridge::install();
    bridge.on::<ObjectInfo, _>(|p| Err(capstan_sdk::BridgeError::app(AppErrorCode::NotFound, format!("no object named {:?}", p.name))));
    match cap("cad.object_info").run_json(r#"{"name": "Ghost"}"#) {
        Err(capstan_sdk::PackError::Bridge(e)) => assert_eq!(e.app_error::<AppErrorCode>(), Some(AppErrorCode::NotFound)),
        other => panic!("{other:?}"),
    }
}
