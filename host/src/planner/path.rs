//! Paths into a JSON answer, as expectations name the value they measure.

use serde_json::Value;

/// A value in a JSON answer by a dotted path: `location.2`, `light.energy`,
/// `objects[name=Cube].location.0` (the first element of an array whose field equals
/// the text), `keyframes.#` (the length of an array or object).
pub fn at_path(value: &Value, path: &str) -> Option<Value> {
    let parts = segments(path);
    let mut current = value;
    for (i, segment) in parts.iter().enumerate() {
        current = match segment {
            // A length is a number: nothing can follow it.
            Segment::Length if i + 1 == parts.len() => {
                return match current {
                    Value::Array(items) => Some(Value::from(items.len())),
                    Value::Object(map) => Some(Value::from(map.len())),
                    _ => None,
                };
            }
            Segment::Length => return None,
            Segment::Select { field, equals } => current.as_array()?.iter().find(|item| item.get(field).is_some_and(|v| text_equals(v, equals)))?,
            Segment::Key(key) => match current {
                Value::Array(items) => items.get(key.parse::<usize>().ok()?)?,
                Value::Object(map) => map.get(*key)?,
                _ => return None,
            },
        };
    }
    Some(current.clone())
}

fn text_equals(v: &Value, text: &str) -> bool {
    match v {
        Value::String(s) => s == text,
        // A number or boolean written as text: `[n=7]`, `[enabled=true]`.
        other => serde_json::from_str::<Value>(text).is_ok_and(|v| v == *other),
    }
}

enum Segment<'a> {
    Key(&'a str),
    Select { field: &'a str, equals: &'a str },
    Length,
}

/// The path's parts: dots separate them except inside `[...]` (a selected name may
/// hold dots: `objects[name=Cube.001]`).
fn segments(path: &str) -> Vec<Segment<'_>> {
    let mut out = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(inner) = rest.strip_prefix('[') {
            let Some(end) = inner.find(']') else {
                out.push(Segment::Key(rest));
                break;
            };
            let body = &inner[..end];
            match body.split_once('=') {
                Some((field, equals)) => out.push(Segment::Select { field, equals }),
                None => out.push(Segment::Key(body)),
            }
            rest = inner[end + 1..].trim_start_matches('.');
            continue;
        }
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        let part = &rest[..end];
        if part == "#" {
            out.push(Segment::Length);
        } else if !part.is_empty() {
            out.push(Segment::Key(part));
        }
        rest = rest[end..].strip_prefix('.').unwrap_or(&rest[end..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_index_select_and_count() {
        assert_eq!(at_path(&json!({"location": [0, 1, 2]}), "location.2"), Some(json!(2)));
        assert_eq!(at_path(&json!({"location": [0, 1, 2]}), "location.9"), None);
        let scene = json!({ "objects": [{ "name": "Cube", "location": [1, 2, 3] }, { "name": "Cube.001", "location": [4, 5, 6], "n": 7 }] });
        assert_eq!(at_path(&scene, "objects[name=Cube.001].location.1"), Some(json!(5)));
        assert_eq!(at_path(&scene, "objects[name=Cube].location"), Some(json!([1, 2, 3])));
        assert_eq!(at_path(&scene, "objects[n=7].name"), Some(json!("Cube.001")));
        assert_eq!(at_path(&scene, "objects[name=Lamp]"), None);
        assert_eq!(at_path(&scene, "objects.#"), Some(json!(2)));
        assert_eq!(at_path(&scene, "objects.0.#"), Some(json!(2)));
        assert_eq!(at_path(&scene, "objects.0.name.#"), None);
    }
}
