//! The tests of [`super`]'s checks (`planner::critique`): expectations in, measured verdicts out.

use super::*;
use crate::planner::fake::FakeRegistry;

#[test]
fn values_compare_with_tolerance_and_prefixes() {
    assert!(matches(&json!([1.0, 0.0005, 0.0, 1.0]), &json!([1, 0, 0]), 1e-3));
    assert!(!matches(&json!([1.0, 0.1, 0.0]), &json!([1, 0, 0]), 1e-3));
    assert!(!matches(&json!([1.0]), &json!([]), 1e-3));
    assert!(matches(&json!("MESH"), &json!("mesh"), 0.0));
    assert!(!matches(&json!(null), &json!(0), 1.0));
}

#[test]
fn nothing_passes_by_default() {
    let reg = FakeRegistry::default();
    // No expectations: fails.
    assert!(!critique(&reg, &[], None).passed);
    // An answer without the measured field, a missing delta, an empty constraint list.
    let exps = [
        Expectation::Property { object: "Cube".into(), path: "location.2".into(), equals: Some(json!(0)), at_least: None, at_most: None, tolerance: None },
        Expectation::Delta { added: Some(1), removed: None, added_type: None, only_changed: None },
        Expectation::Spatial { constraints: vec![] },
        Expectation::Visual { camera: None, size: None },
        Expectation::ObjectAbsent { name: "Cube".into() },
        Expectation::VisualMatch { camera: None, size: None },
    ];
    let c = critique(&reg, &exps, None);
    assert!(!c.passed);
    assert_eq!(c.score, 0.0);
    assert!(c.checks.iter().all(|k| !k.passed && k.reason.is_some()), "{c:?}");
    // spatial.assert saying passed without results fails too.
    reg.answer("spatial.assert", json!({ "passed": true }));
    let c = critique(&reg, &[Expectation::Spatial { constraints: vec![json!({"type": "triangulated", "object": "Cube"})] }], None);
    assert!(!c.passed);
}

#[test]
fn measured_values_decide() {
    let reg = FakeRegistry::default();
    reg.answer("scene.object_info", json!({ "name": "Cube", "type": "MESH", "location": [0.0, 0.0, 1.0] }));
    reg.answer("material.list", json!({ "materials": [{ "name": "Red", "base_color": [0.8, 0.0, 0.0, 1.0], "metallic": 0.0 }] }));
    let ok = [
        Expectation::ObjectExists { name: "Cube".into() },
        Expectation::Property { object: "Cube".into(), path: "location.2".into(), equals: Some(json!(1.0)), at_least: None, at_most: None, tolerance: None },
        Expectation::Material { material: "Red".into(), property: "base_color".into(), equals: json!([0.8, 0, 0]), tolerance: Some(0.01) },
    ];
    let c = critique(&reg, &ok, None);
    assert!(c.passed, "{c:?}");
    assert_eq!(c.score, 1.0);
    let wrong = Expectation::Property { object: "Cube".into(), path: "location.2".into(), equals: Some(json!(0.0)), at_least: None, at_most: None, tolerance: None };
    let c = critique(&reg, &[ok[0].clone(), wrong], None);
    assert!(!c.passed);
    assert_eq!(c.score, 0.5);
    assert_eq!(c.checks[1].measured, json!(1.0));
    // Any read-only capability measures, with bounds; a mutating one never does.
    reg.answer("render.audit", json!({ "config": { "film_transparent": true, "samples": 64 } }));
    let read = |path: &str, equals: Option<Value>, at_least: Option<f64>, at_most: Option<f64>| Expectation::Read {
        capability: "render.audit".into(),
        args: json!({}),
        path: path.into(),
        equals,
        at_least,
        at_most,
        tolerance: None,
    };
    assert!(critique(&reg, &[read("config.film_transparent", Some(json!(true)), None, None), read("config.samples", None, Some(32.0), Some(64.0))], None).passed);
    let c = critique(&reg, &[read("config.samples", None, Some(128.0), None), read("config.film_transparent", None, Some(1.0), None), read("config.nope", Some(json!(1)), None, None)], None);
    assert_eq!(c.checks.iter().map(|k| k.reason.clone().unwrap_or_default()).collect::<Vec<_>>(), [
        "config.samples: measured 64: below 128".to_string(),
        "config.film_transparent: measured true: not a number".to_string(),
        "cannot measure: render.audit answered no config.nope".to_string(),
    ]);
    let calls = reg.count();
    let mutating = Expectation::Read { capability: "scene.render".into(), args: json!({}), path: "x".into(), equals: Some(json!(1)), at_least: None, at_most: None, tolerance: None };
    let c = critique(&reg, &[mutating], None);
    assert!(!c.passed && c.checks[0].reason.as_deref().unwrap().contains("mutates"), "{c:?}");
    assert_eq!(reg.count(), calls, "the mutating capability was not called");
    let nothing = Expectation::Property { object: "Cube".into(), path: "location.2".into(), equals: None, at_least: None, at_most: None, tolerance: None };
    assert!(!critique(&reg, &[nothing], None).passed, "nothing to compare is not a pass");

    // Delta: one mesh added, nothing else touched.
    let mut d = SceneDelta::default();
    d.objects.added.insert("Cube".into());
    let exp = Expectation::Delta { added: Some(1), removed: Some(0), added_type: Some("MESH".into()), only_changed: Some(vec![]) };
    assert!(critique(&reg, std::slice::from_ref(&exp), Some(&d)).passed);
    d.objects.changed.insert("Camera".into());
    let c = critique(&reg, &[exp], Some(&d));
    assert!(!c.passed);
    assert!(c.checks[0].reason.as_ref().unwrap().contains("Camera"));
}

#[test]
fn visual_match_needs_a_reference_and_compares_with_it() {
    use crate::planner::visual_match::Picture;
    use base64::Engine as _;
    let reg = FakeRegistry::default();
    let e = Expectation::VisualMatch { camera: Some("Camera".into()), size: Some(16) };
    assert_eq!(e.roles(), vec![Role::PicturesScene, Role::ListsObjects]);
    assert!(Expectation::VisualMatch { camera: None, size: Some(300) }.problem().unwrap().contains("size 300"));
    let c = critique(&reg, std::slice::from_ref(&e), None);
    assert!(!c.passed && c.checks[0].reason.as_deref().unwrap().contains("no reference picture"), "{c:?}");
    // The scene renders a 16x16 picture with a red square in it.
    let pixels: Vec<u8> = (0..16u32 * 16).flat_map(|i| if (5..11).contains(&(i % 16)) && (5..11).contains(&(i / 16)) { [200, 30, 30, 255] } else { [60, 60, 60, 255] }).collect();
    let mut png_data = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut png_data, 16, 16);
        enc.set_color(png::ColorType::Rgba);
        enc.write_header().unwrap().write_image_data(&pixels).unwrap();
    }
    reg.answer("scene.info", json!({ "render": { "resolution": [100, 100] } }));
    reg.answer("inspect.viewport", json!({ "image": { "data": base64::engine::general_purpose::STANDARD.encode(&png_data) } }));
    let same = Picture::new(16, 16, pixels.clone()).unwrap();
    let c = critique_in(&reg, std::slice::from_ref(&e), None, Context { reference: Some(&same) });
    assert!(c.passed, "{c:?}");
    assert_eq!(c.checks[0].measured["iou"], json!(1.0));
    let grey = Picture::new(16, 16, [60, 60, 60, 255].repeat(256)).unwrap();
    let c = critique_in(&reg, std::slice::from_ref(&e), None, Context { reference: Some(&grey) });
    assert!(!c.passed && c.checks[0].reason.as_deref().unwrap().contains("IoU"), "{c:?}");
    let other_size = Picture::new(8, 8, [60, 60, 60, 255].repeat(64)).unwrap();
    let c = critique_in(&reg, &[e], None, Context { reference: Some(&other_size) });
    assert!(!c.passed && c.checks[0].reason.as_deref().unwrap().contains("framing"), "{c:?}");
}

#[test]
fn only_changed_compares_the_changed_list_and_quotes_what_was_measured() {
    let reg = FakeRegistry::default();
    // A deletion: Cube removed, nothing changed. only_changed: [] holds; removed: 1 governs the removal.
    let mut d = SceneDelta::default();
    d.objects.removed.insert("Cube".into());
    let exp = Expectation::Delta { added: None, removed: Some(1), added_type: None, only_changed: Some(vec![]) };
    let c = critique(&reg, std::slice::from_ref(&exp), Some(&d));
    assert!(c.passed, "a removal is not a change: {c:?}");
    assert_eq!(c.checks[0].measured["changed"], json!([]));
    // A removal the expectation does not allow fails through `removed`, naming what was removed.
    let none_removed = Expectation::Delta { added: None, removed: Some(0), added_type: None, only_changed: Some(vec![]) };
    let c = critique(&reg, &[none_removed], Some(&d));
    assert!(!c.passed);
    assert_eq!(c.checks[0].reason.as_deref(), Some(r#"removed 1 objects ["Cube"], expected 0"#));
    // A change outside the allowed list: the message quotes the measured `changed` list.
    d.objects.changed.insert("Light".into());
    d.objects.changed.insert("Camera".into());
    let allow_camera = Expectation::Delta { added: None, removed: None, added_type: None, only_changed: Some(vec!["Camera".into()]) };
    let c = critique(&reg, &[allow_camera], Some(&d));
    assert!(!c.passed);
    let reason = c.checks[0].reason.as_deref().unwrap();
    assert_eq!(reason, r#"changed objects it should not have: ["Light"] (measured changed: ["Camera", "Light"], allowed: ["Camera"])"#);
    assert_eq!(c.checks[0].measured["changed"], json!(["Camera", "Light"]));
}
