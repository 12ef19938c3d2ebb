//! Keying an object along waypoints (forensic.animate_vehicle and forensic.ghost): speed
//! captions first, then a location key per waypoint, a heading key per waypoint when any waypoint gives one,
//! one interpolation for all, and the scene put on the first
//! waypoint's frame (or a chosen one) so the object is evaluated there.

use crate::plan::{Waypoint, check_waypoints, safe_name};
use capstan_blender::{
    CreateTextParams, CreateTextParamsAlignX, InsertKeyframeParams, InsertKeyframeParamsProperty as Property, InsertKeyframeParamsValue as KeyValue,
    SetFrameRangeParams, SetInterpolationParams, SetInterpolationParamsInterpolation, create_text, insert_keyframe,
    set_frame_range, set_interpolation,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Interpolation {
    #[default]
    #[serde(rename = "LINEAR")]
    Linear,
    #[serde(rename = "BEZIER")]
    Bezier,
}

/// What a path needs from the object: its rotation (radians) and height.
pub struct Subject {
    pub name: String,
    pub rotation: [f64; 3],
    pub height: f64,
}

/// Names of the captions, checked before any bridge call.
pub fn caption_names(object: &str, points: &[Waypoint]) -> PackResult<Vec<(usize, String)>> {
    check_waypoints(points)?;
    points.iter().enumerate().filter(|(_, w)| w.speed_label.is_some())
        .map(|(i, w)| Ok((i, safe_name(&format!("{object} Speed {}", w.frame))?))).collect()
}

pub fn key(subject: &Subject, points: &[Waypoint], interpolation: Interpolation, fit_range: bool, show_frame: Option<i64>) -> PackResult<Value> {
    let captions = caption_names(&subject.name, points)?;
    // Captions first: a later command's depsgraph update would re-evaluate the fresh keys
    // and move the object off its last set value, a change that command did not make.
    let mut labels = Vec::new();
    for (i, name) in captions {
        let w = &points[i];
        let made = create_text(&CreateTextParams {
            text: w.speed_label.clone().unwrap_or_default(),
            name: Some(name),
            location: Some([w.location[0], w.location[1], w.location[2] + subject.height + 0.8]),
            rotation: Some([90.0, 0.0, 0.0]),
            size: Some(0.6),
            extrude: None,
            bevel_depth: None, bevel_resolution: None,
            align_x: Some(CreateTextParamsAlignX::Center),
            align_y: None,
        })?;
        labels.push(made.name);
    }
    let keyed_rotation = points.iter().any(|w| w.rotation.is_some());
    let mut heading = subject.rotation[2];
    for (done, w) in points.iter().enumerate() {
        let key = |property, value| InsertKeyframeParams { object: subject.name.clone(), property, frame: w.frame, value: Some(KeyValue::Vec3(value)) };
        insert_keyframe(&key(Property::Location, w.location))?;
        if keyed_rotation {
            heading = w.rotation.map(f64::to_radians).unwrap_or(heading);
            insert_keyframe(&key(Property::RotationEuler, [subject.rotation[0], subject.rotation[1], heading]))?;
        }
        progress::report(done as u64 + 1, points.len() as u64, &format!("keyed waypoint {} of {} (frame {})", done + 1, points.len(), w.frame));
    }
    let interp = match interpolation {
        Interpolation::Linear => SetInterpolationParamsInterpolation::Linear,
        Interpolation::Bezier => SetInterpolationParamsInterpolation::Bezier,
    };
    let set = set_interpolation(&SetInterpolationParams {
        object: subject.name.clone(), data_path: None, index: None, interpolation: Some(interp), easing: None, handle_type: None, extrapolation: None,
    })?;
    let (first, last) = (points[0].frame, points[points.len() - 1].frame);
    let range = set_frame_range(&SetFrameRangeParams {
        frame_start: fit_range.then_some(first),
        frame_end: fit_range.then_some(last),
        frame_current: Some(show_frame.unwrap_or(first)),
        ..Default::default()
    })?;
    Ok(json!({
        "object": subject.name, "keys": points.len(), "frames": [first, last], "rotation_keyed": keyed_rotation,
        "interpolation": interpolation, "fcurves": set.fcurves, "speed_labels": labels,
        "frame_range": [range.frame_start, range.frame_end], "frame_current": range.frame_current,
    }))
}

