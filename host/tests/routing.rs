//! The router's floor (DESIGN.md section 8) with the families and cues the official
//! packs declare: nothing about families is written in the host any more.

mod support;

use capstan::home::CapstanHome;
use capstan::router::{self, RouteBasis, SearchIndex, search::CapabilityText};
use std::sync::Arc;

#[test]
fn the_floor_and_its_paraphrases_route_with_the_packs_own_cues() {
    let tmp = tempfile::tempdir().unwrap();
    let rt = support::runtime(&CapstanHome::at(tmp.path()), Arc::new(capstan::bridge::Offline), &[]);
    let families = rt.families();
    let index = SearchIndex::build(
        rt.capabilities().map(|(_, c)| CapabilityText {
            key: &c.key, family: &c.family, summary: &c.summary, mutates: c.mutates, tags: &c.tags, aliases: &c.aliases, examples: &c.examples,
        }),
        families.clone(),
    );
    for (phrase, family) in [
        ("add a cube", "create"),
        ("three point lights", "lighting"),
        ("make it look like chrome", "material"),
        ("render a png", "render"),
        ("what's in the scene", "inspect"),
        ("move the camera", "camera"),
        ("delete the default cube", "mutate"),
        ("hdri background", "world"),
        ("Could you put a sphere on the floor?", "create"),
        ("light the product with soft boxes", "lighting"),
        ("paint the monkey red", "material"),
        ("how many objects are there", "inspect"),
        ("get rid of the light", "mutate"),
        ("animate the cube spinning", "animation"),
        ("rotate the torus 45 degrees", "mutate"),
        ("bevel the edges", "mutate"),
        ("parent the lamp to the table", "object"),
        ("make the camera track the cube with a constraint", "rigging"),
    ] {
        assert_eq!(router::route(phrase, &families, Some(&index)).family, family, "{phrase}");
    }
    let r = router::route("make this feel more premium somehow", &families, Some(&index));
    assert_eq!((r.family.as_str(), r.basis), ("inspect", RouteBasis::Fallback));
    for (query, key) in [("add a subdivision modifier", "mutate.modifier_add"), ("parent the light to the cube", "object.parent"), ("snapshot the scene", "inspect.snapshot")] {
        let hits = index.search(query, None, None, 3);
        assert!(hits.iter().any(|h| h.key == key), "{query}: {hits:?}");
    }
    let names: Vec<&str> = families.names().collect();
    assert_eq!(names.first(), Some(&"inspect"), "reading first: {names:?}");
    let destructive: Vec<&str> = names.iter().rev().take(2).copied().collect();
    assert!(destructive.contains(&"mutate"), "destroying families last: {names:?}");
}
