//! Workflows: capabilities chained as data (`workflow.product_hero`, ...).
//!
//! A pack cannot call another capability (its only door is the bridge), so a chain of
//! capabilities is the host's to run. A workflow is a JSON document, not code: a key in
//! family `workflow`, an argument schema, and steps, each a canonical capability key
//! with an argument template (`template`). The official ones are `host/workflows/*.json`,
//! embedded in the binary.
//!
//! Security reasoning: a workflow adds no reach. It is checked when the runtime loads
//! (`definition::check`: every step a loaded canonical key, every argument it uses
//! declared), and it runs each step through the same path as `execute_capability`: the
//! step's own schema, its own pack's sandbox, limits and gate. The bridge commands a
//! workflow lists are the union of its steps', used only for availability and version
//! skew, never to widen a gate. A workflow whose capability is missing (a pack not
//! loaded) is refused, so it is never offered half-working.

pub mod definition;
mod embed;
pub mod handover;
pub mod run;
pub mod template;

pub use definition::{FAMILY, OWNER, StepLookup, Workflow, WorkflowDoc};

/// The official workflow documents: (file name, text), every `host/workflows/*.json`
/// in file-name order (embedded by `host/build.rs`): adding a workflow is adding its
/// file, no host code names it.
pub const OFFICIAL: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/official_workflows.rs"));

/// The routing family of workflows: (weight, cues), as a pack would declare it.
pub fn family() -> crate::plugin::describe::FamilySpec {
    let cues = |w: u32, phrases: &[&str]| (w, phrases.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    crate::plugin::describe::FamilySpec {
        name: FAMILY.into(),
        summary: "whole chains in one call: product hero shot, turntable, Amazon packshot, CAD part to packshot, accident reconstruction".into(),
        // Strong on purpose: a workflow's words are specific (nobody says "accident
        // reconstruction" wanting one road), and a whole chain beats its parts' families.
        cues: vec![
            cues(10, &["product hero", "hero shot of", "hero render", "beauty render", "beauty shot", "in one call", "one call", "360 spin", "360 product", "spin of the", "turntable video", "turntable render", "main image", "main listing image", "a+ content", "accident reconstruction", "reconstruct the accident", "reconstruct the crash", "crash reconstruction", "for court"]),
            cues(8, &["amazon", "marketplace", "courtroom", "reconstruct", "reconstruction"]),
            cues(4, &["workflow", "end to end", "whole chain", "in one go"]),
        ],
    }
}

/// The keys and aliases of the official workflows, which no pack may claim.
pub fn reserved_names() -> &'static std::collections::BTreeSet<String> {
    static NAMES: std::sync::OnceLock<std::collections::BTreeSet<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        OFFICIAL
            .iter()
            .filter_map(|(name, text)| parse(name, text).ok())
            .flat_map(|doc| std::iter::once(doc.key).chain(doc.aliases))
            .collect()
    })
}

/// Parse an official document (a malformed one is a build defect, caught by the tests).
pub fn parse(name: &str, text: &str) -> Result<WorkflowDoc, String> {
    serde_json::from_str(text).map_err(|e| format!("workflow {name}: {e}"))
}
