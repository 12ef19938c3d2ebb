//! The routing family this pack serves, with the words that send a request to it.
//! Cues avoid blender-core's phrases ("place a", "put a" stay `create`; "move" stays
//! `mutate`): these are the words of measuring, checking and arranging.

use capstan_sdk::Family;

pub fn families() -> Vec<Family> {
    vec![
        Family::new("spatial", "Measure and arrange objects in space: ray casts, bounds, overlap, distance, placement, geometric checks, camera framing, real-world size")
            .cues(5, &["left of", "right of", "in front of", "next to", "directly below", "directly above", "line of sight", "on top of", "raycast", "ray cast", "bounding box", "collide", "colliding", "overlap", "intersect", "penetrat", "distance between", "how far", "clearance", "real world size", "to scale", "life size"])
            // Setting one existing thing on another ("put the mug on the table"); "put a"
            // (a new thing) stays create's.
            .cues(4, &["put the", "rest it on", "sit it on"])
            // Framing checks (spatial.camera_framing): questions about where an object is in
            // the shot, not requests to move the camera (those stay `camera`).
            .cues(5, &["fully in", "in the shot", "in frame", "in the frame", "out of frame", "out of the frame", "of the frame", "of the shot", "cut off", "cropped", "visible to the camera", "visible from the camera", "seen by the camera"])
            .cues(4, &["rest", "onto", "sit on", "stand on", "place it on", "behind the", "underneath", "inside the", "bounds", "footprint", "floating", "sinking", "assert", "verify that", "check that", "dimensions of", "how big", "how tall", "how wide", "realistic size"]),
    ]
}
