//! The router: goal text to a capability family, deterministically.
//!
//! Family-first: lexical cues (phrases and words, weighted) vote for families; the
//! strongest family wins, ties broken by a fixed priority that prefers reading over
//! changing. Only when no cue fires does keyword scoring over the catalog (summaries,
//! tags, examples) decide. If that is weak or ambiguous, the answer is `inspect`:
//! an unclear request looks before it changes anything. This is a correctness floor,
//! not an embedding model.

pub mod search;
pub mod text;

pub use search::{SearchHit, SearchIndex};

/// Families in tie-break order: non-mutating first, destructive last.
pub const FAMILY_PRIORITY: &[&str] = &[
    "inspect", "render", "camera", "lighting", "world", "material", "uv", "animation", "rigging", "physics", "spatial",
    "product", "forensic", "io", "assets", "generation", "workflow", "object", "create", "mutate",
];

/// The fallback for unclear goals.
pub const FALLBACK_FAMILY: &str = "inspect";

/// (family, weight, cues). A cue with a space is a phrase; otherwise a word stem.
const CUES: &[(&str, u32, &[&str])] = &[
    ("inspect", 3, &["what s in", "whats in", "what is in", "how many", "list", "describe", "where is", "is there", "are there", "inspect", "overview", "tell me about", "show me", "which object"]),
    ("mutate", 5, &["delete", "remove", "erase", "get rid of", "clear the", "destroy"]),
    ("render", 4, &["render", "png", "jpg", "jpeg", "final image", "take a picture", "screenshot", "still image"]),
    ("render", 2, &["resolution", "cycles", "eevee", "sample"]),
    ("camera", 4, &["camera", "lens", "focal", "depth of field", "dof", "bokeh", "shot", "framing", "viewpoint"]),
    ("lighting", 4, &["light", "lighting", "lamp", "softbox", "three point", "illuminat", "key light", "rim light", "spotlight"]),
    ("world", 4, &["hdri", "background", "sky", "environment", "world", "ambient"]),
    ("material", 4, &["material", "colour", "color", "paint", "chrome", "metal", "metallic", "gold", "copper", "glass", "plastic", "rubber", "shader", "texture", "look like", "roughness", "shiny", "glossy", "matte", "glow", "emissive", "red", "blue", "green"]),
    ("animation", 4, &["animate", "animation", "keyframe", "key frame", "spin", "bounce", "turntable", "timeline", "motion"]),
    ("uv", 4, &["uv", "unwrap"]),
    ("rigging", 4, &["rig", "armature", "bone", "skeleton"]),
    ("physics", 4, &["physics", "rigid body", "cloth", "simulat", "gravity", "collision", "fluid"]),
    ("io", 4, &["import", "export", "fbx", "gltf", "glb", "stl", "obj file", "usd"]),
    ("assets", 3, &["asset", "library"]),
    ("generation", 3, &["procedural", "generate", "scatter", "random"]),
    ("product", 3, &["product", "packshot", "hero shot", "amazon"]),
    ("forensic", 4, &["forensic", "crime", "reconstruct", "accident"]),
    ("spatial", 3, &["align", "distribute", "next to", "on top of", "arrange", "stack", "beside"]),
    ("object", 3, &["move", "rotate", "scale", "resize", "rename", "hide", "unhide", "bigger", "smaller", "taller", "shift", "translate", "turn"]),
    ("create", 3, &["add", "create", "make a", "make an", "insert", "spawn", "new", "place a", "put a", "build a"]),
    ("create", 1, &["cube", "sphere", "cylinder", "cone", "torus", "plane", "monkey", "suzanne"]),
];

/// Why the router chose a family (for status reports and debugging).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RouteBasis {
    /// Lexical cues decided.
    Cues,
    /// No cue fired; the catalog's keywords decided.
    Catalog,
    /// Nothing decided clearly; fell back to inspection.
    Fallback,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Route {
    pub family: String,
    pub basis: RouteBasis,
}

/// What a cue matched: the phrase itself, or the goal word it matched (so two cues
/// matching one word, such as `light` and `lighting`, count once).
fn cue_match<'a>(padded: &str, stems: &'a [String], cue: &'a str) -> Option<&'a str> {
    if cue.contains(' ') {
        padded.contains(&format!(" {cue} ")).then_some(cue)
    } else {
        let cue_stem = text::stem(cue);
        stems.iter().find(|s| **s == cue_stem || (cue.len() >= 4 && s.starts_with(cue))).map(String::as_str)
    }
}

/// Family scores from the lexical cues, in priority order.
pub fn cue_scores(goal: &str) -> Vec<(&'static str, u32)> {
    let padded = text::padded(goal);
    let stems: Vec<String> = text::words(goal).iter().map(|w| text::stem(w)).collect();
    let mut scores: Vec<(&'static str, u32)> = FAMILY_PRIORITY.iter().map(|f| (*f, 0)).collect();
    for (family, weight, cues) in CUES {
        let mut matched: Vec<&str> = cues.iter().filter_map(|c| cue_match(&padded, &stems, c)).collect();
        matched.sort_unstable();
        matched.dedup();
        let hits = matched.len() as u32;
        if let Some(entry) = scores.iter_mut().find(|(f, _)| f == family) {
            entry.1 += hits * weight;
        }
    }
    scores
}

/// Route a goal. `index` (the catalog) decides only when no cue fires.
pub fn route(goal: &str, index: Option<&SearchIndex>) -> Route {
    let scores = cue_scores(goal);
    let best = scores.iter().map(|(_, s)| *s).max().unwrap_or(0);
    if best > 0 {
        // Ties go to the family listed first in FAMILY_PRIORITY (reading before changing).
        let family = scores.iter().find(|(_, s)| *s == best).map(|(f, _)| *f).unwrap_or(FALLBACK_FAMILY);
        return Route { family: family.to_string(), basis: RouteBasis::Cues };
    }
    if let Some(index) = index {
        let hits = index.search(goal, None, None, 2);
        match hits.as_slice() {
            [first, second, ..] if first.score >= 2.0 && first.score > second.score * 1.5 => {
                return Route { family: first.family.clone(), basis: RouteBasis::Catalog };
            }
            [only] if only.score >= 2.0 => return Route { family: only.family.clone(), basis: RouteBasis::Catalog },
            _ => {}
        }
    }
    Route { family: FALLBACK_FAMILY.to_string(), basis: RouteBasis::Fallback }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_floor_table_routes_to_its_families() {
        for (phrase, family) in [
            ("add a cube", "create"),
            ("three point lights", "lighting"),
            ("make it look like chrome", "material"),
            ("render a png", "render"),
            ("what's in the scene", "inspect"),
            ("move the camera", "camera"),
            ("delete the default cube", "mutate"),
            ("hdri background", "world"),
        ] {
            assert_eq!(route(phrase, None).family, family, "{phrase}");
        }
    }

    #[test]
    fn paraphrases_route_too() {
        for (phrase, family) in [
            ("Could you put a sphere on the floor?", "create"),
            ("light the product with soft boxes", "lighting"),
            ("paint the monkey red", "material"),
            ("give me a final image", "render"),
            ("how many objects are there", "inspect"),
            ("use an 85mm lens", "camera"),
            ("get rid of the light", "mutate"),
            ("set a sky as the environment", "world"),
            ("animate the cube spinning", "animation"),
            ("rotate the torus 45 degrees", "object"),
            ("make the cube bigger", "object"),
            ("unwrap the mesh", "uv"),
        ] {
            assert_eq!(route(phrase, None).family, family, "{phrase}");
        }
    }

    #[test]
    fn ambiguous_goals_fall_back_to_inspection() {
        for phrase in ["make this feel more premium somehow", "hmm", "do the thing", ""] {
            let r = route(phrase, None);
            assert_eq!(r.family, "inspect", "{phrase}");
            assert_eq!(r.basis, RouteBasis::Fallback, "{phrase}");
        }
    }
}
