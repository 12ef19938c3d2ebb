//! The router's floor (DESIGN.md section 8) with the families and cues the official
//! packs declare: nothing about families is written in the host any more.

mod support;

use capstan::home::CapstanHome;
use capstan::router::{self, RouteBasis};
use std::sync::Arc;

#[test]
fn the_floor_and_its_paraphrases_route_with_the_packs_own_cues() {
    let tmp = tempfile::tempdir().unwrap();
    let rt = support::runtime(&CapstanHome::at(tmp.path()), Arc::new(capstan::bridge::Offline), &[]);
    let families = rt.families();
    let index = rt.search_index(families.clone());
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
    // Reading, then changing, then destroying: a family's risk is the most any of its
    // capabilities can do, and ties in routing go to the earlier (safer) family.
    let risk = |family: &str| {
        rt.capabilities()
            .map(|(_, c)| c)
            .chain(rt.workflows().map(|w| &w.spec))
            .filter(|c| c.family == family)
            .map(|c| if c.destructive { 2 } else { u8::from(c.mutates) })
            .max()
            .unwrap_or(0)
    };
    let risks: Vec<u8> = names.iter().map(|f| risk(f)).collect();
    assert!(risks.windows(2).all(|w| w[0] <= w[1]), "families in order of risk: {:?}", names.iter().zip(&risks).collect::<Vec<_>>());
    assert_eq!(risk("mutate"), 2, "deleting is in mutate");
}

const TABLE_BEGIN: &str = "<!-- capability families: generated from the official packs by `CAPSTAN_BLESS=1 cargo test -p capstan --test routing`; do not edit by hand -->";
const TABLE_END: &str = "<!-- end of capability families -->";

/// The README's table of capability families, from what the official packs declare.
fn family_table(rt: &capstan::runtime::Runtime) -> String {
    use std::collections::BTreeMap;
    let mut summary: BTreeMap<&str, &str> = BTreeMap::new();
    for pack in rt.packs() {
        for f in &pack.families {
            let slot = summary.entry(f.name.as_str()).or_default();
            if slot.is_empty() {
                *slot = f.summary.as_str();
            }
        }
    }
    let workflow = capstan::workflow::family();
    summary.insert(workflow.name.as_str(), workflow.summary.as_str());
    let mut keys: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (_, c) in rt.capabilities() {
        keys.entry(c.family.as_str()).or_default().push(c.key.as_str());
    }
    keys.values_mut().for_each(|list| list.sort_unstable());
    let total: usize = keys.values().map(Vec::len).sum();
    let packs = rt.packs().len();
    let mut out = format!(
        "{TABLE_BEGIN}\n{total} capabilities in {} families, from {packs} official pack{}, and {} workflows that chain them:\n\n",
        keys.len(),
        if packs == 1 { "" } else { "s" },
        rt.workflows().count()
    );
    for w in rt.workflows() {
        keys.entry(w.spec.family.as_str()).or_default().push(w.spec.key.as_str());
    }
    out.push_str("| family | what it does | capabilities | keys |\n|---|---|---|---|\n");
    // In the router's order: reading first, destroying last.
    for family in rt.families().names() {
        let Some(list) = keys.get(family) else { continue };
        let shown: Vec<String> = list.iter().map(|k| format!("`{k}`")).collect();
        out.push_str(&format!("| {family} | {} | {} | {} |\n", summary.get(family).copied().unwrap_or(""), list.len(), shown.join(", ")));
    }
    out.push_str(TABLE_END);
    out
}

#[test]
fn the_readme_lists_the_capability_families_the_packs_declare() {
    let tmp = tempfile::tempdir().unwrap();
    let rt = support::runtime(&CapstanHome::at(tmp.path()), Arc::new(capstan::bridge::Offline), &[]);
    let path = support::workspace().join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let (Some(begin), Some(end)) = (readme.find(TABLE_BEGIN), readme.find(TABLE_END)) else {
        panic!("README.md has no generated family table (markers missing)");
    };
    let current = &readme[begin..end + TABLE_END.len()];
    let wanted = family_table(&rt);
    if current != wanted {
        if std::env::var("CAPSTAN_BLESS").as_deref() == Ok("1") {
            std::fs::write(&path, readme.replacen(current, &wanted, 1)).unwrap();
        } else {
            panic!("README.md's family table is stale: run CAPSTAN_BLESS=1 cargo test -p capstan --test routing\n--- wanted ---\n{wanted}");
        }
    }
}

/// Phrases written apart from the packs' own examples (`tests/data/routing_phrases.tsv`):
/// paraphrases, negations, several per family. At 90+ capabilities search must still
/// put the expected key in its top 3, and the router pick the expected family, for at
/// least 90% of them.
#[test]
fn search_and_routing_stay_right_across_the_catalog() {
    let tmp = tempfile::tempdir().unwrap();
    let rt = support::runtime(&CapstanHome::at(tmp.path()), Arc::new(capstan::bridge::Offline), &[]);
    let families = rt.families();
    let index = rt.search_index(families.clone());
    let text = std::fs::read_to_string(support::workspace().join("host/tests/data/routing_phrases.tsv")).unwrap();
    let rows: Vec<(&str, &str, &str)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut cols = l.split('\t');
            (cols.next().unwrap(), cols.next().expect("a key column"), cols.next().expect("a family column"))
        })
        .collect();
    assert!(rows.len() >= 100, "at least 100 phrases: {}", rows.len());
    let (mut key_misses, mut family_misses) = (Vec::new(), Vec::new());
    for (phrase, key, family) in &rows {
        let spec = rt.capability(key).unwrap_or_else(|| panic!("{phrase:?} expects {key}, which no pack declares"));
        assert_eq!(spec.family, *family, "{key}'s family");
        let hits = index.search(phrase, None, None, 3);
        if !hits.iter().any(|h| h.key == *key) {
            key_misses.push(format!("{phrase:?}: expected {key}, got {:?}", hits.iter().map(|h| h.key.as_str()).collect::<Vec<_>>()));
        }
        let routed = router::route(phrase, &families, Some(&index)).family;
        if routed != *family {
            family_misses.push(format!("{phrase:?}: expected {family}, routed {routed}"));
        }
    }
    let n = rows.len() as f64;
    let key_rate = 1.0 - key_misses.len() as f64 / n;
    let family_rate = 1.0 - family_misses.len() as f64 / n;
    eprintln!("routing phrases: {} ; key in top 3: {:.1}% ; family: {:.1}%", rows.len(), key_rate * 100.0, family_rate * 100.0);
    assert!(key_rate >= 0.9, "expected key in the top 3 for {:.1}% (< 90%):\n{}", key_rate * 100.0, key_misses.join("\n"));
    assert!(family_rate >= 0.9, "family right for {:.1}% (< 90%):\n{}", family_rate * 100.0, family_misses.join("\n"));
}

/// The routing evaluation set is written apart from the capabilities' own examples: no
/// goal may share four consecutive words with any example, so it measures generalisation.
#[test]
fn routing_goals_share_no_four_words_with_any_example() {
    use std::collections::HashMap;
    let tmp = tempfile::tempdir().unwrap();
    let rt = support::runtime(&CapstanHome::at(tmp.path()), Arc::new(capstan::bridge::Offline), &[]);
    let families = rt.families();
    let _index = rt.search_index(families.clone());
    let words = |s: &str| -> Vec<String> {
        s.to_lowercase()
            .split(|c: char| !(c.is_alphanumeric() || c == '\''))
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let mut grams: HashMap<Vec<String>, String> = HashMap::new();
    for spec in rt.capabilities().map(|(_, c)| c.as_ref()).chain(rt.workflows().map(|w| w.spec.as_ref())) {
        for example in &spec.examples {
            for g in words(example).windows(4) {
                grams.entry(g.to_vec()).or_insert_with(|| format!("{}: {example}", spec.key));
            }
        }
    }
    let text = std::fs::read_to_string(support::workspace().join("host/tests/data/routing_goals.tsv")).unwrap();
    let (mut rows, mut reads) = (0usize, 0usize);
    let mut problems = Vec::new();
    let mut overlaps = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        rows += 1;
        let cols: Vec<&str> = line.split('\t').collect();
        let [goal, key, family, intent] = cols[..] else {
            problems.push(format!("not 4 columns: {line}"));
            continue;
        };
        match rt.capability(key) {
            None => problems.push(format!("no capability {key}: {goal}")),
            Some(spec) => {
                if spec.family != family {
                    problems.push(format!("{key} is in family {}, not {family}: {goal}", spec.family));
                }
                match intent {
                    "read" => {
                        reads += 1;
                        if spec.mutates {
                            problems.push(format!("read goal routed to mutating {key}: {goal}"));
                        }
                    }
                    "change" => {}
                    other => problems.push(format!("intent {other:?} is neither read nor change: {goal}")),
                }
            }
        }
        if let Some((g, from)) = words(goal).windows(4).find_map(|g| grams.get(g).map(|from| (g.join(" "), from))) {
            overlaps.push(format!("{goal}\n    shares \"{g}\" with {from}"));
        }
    }
    assert!(problems.is_empty(), "malformed goals:\n{}", problems.join("\n"));
    assert!(rows >= 300, "only {rows} goals (< 300)");
    assert!(reads >= 80, "only {reads} read goals (< 80)");
    assert!(overlaps.is_empty(), "{} goals share four words with an example:\n{}", overlaps.len(), overlaps.join("\n"));
}

/// Issue 28's measure on goal-length sentences written apart from the examples
/// (`routing_goals.tsv`): the family, the capability among the first five suggestions
/// (what `router_set_goal` answers), and no goal that only asks gets a suggestion that
/// changes anything.
#[test]
fn goals_route_by_intent_then_family() {
    let tmp = tempfile::tempdir().unwrap();
    let rt = support::runtime(&CapstanHome::at(tmp.path()), Arc::new(capstan::bridge::Offline), &[]);
    let families = rt.families();
    let index = rt.search_index(families.clone());
    let text = std::fs::read_to_string(support::workspace().join("host/tests/data/routing_goals.tsv")).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(|l| l.split('\t').collect()).collect();
    let (mut family_misses, mut key_misses, mut mutating_answers) = (Vec::new(), Vec::new(), Vec::new());
    for row in &rows {
        let [goal, key, family, intent] = row[..] else { panic!("four columns: {row:?}") };
        let route = router::route(goal, &families, Some(&index));
        if route.family != family {
            family_misses.push(format!("{goal:?}: expected {family}, routed {} ({:?})", route.family, route.basis));
        }
        // What router_set_goal suggests: the routed family's best five, read-only when the goal only asks.
        let reads_only = route.intent == router::Intent::Read;
        let mut hits = index.search_as(goal, Some(&route.family), None, 5, reads_only);
        if hits.is_empty() {
            hits = index.search_as(goal, None, None, 5, reads_only);
        }
        if !hits.iter().any(|h| h.key == key) {
            key_misses.push(format!("{goal:?}: expected {key}, got {:?}", hits.iter().map(|h| h.key.as_str()).collect::<Vec<_>>()));
        }
        if intent == "read" && (route.intent != router::Intent::Read || hits.iter().any(|h| h.mutates || h.writes_files)) {
            mutating_answers.push(format!("{goal:?}: intent {:?}, suggestions {:?}", route.intent, hits.iter().map(|h| h.key.as_str()).collect::<Vec<_>>()));
        }
    }
    let n = rows.len() as f64;
    let (family_rate, key_rate) = (1.0 - family_misses.len() as f64 / n, 1.0 - key_misses.len() as f64 / n);
    eprintln!("routing goals: {} ; family {:.1}% ; capability in the first five {:.1}% ; questions answered with a change: {}", rows.len(), family_rate * 100.0, key_rate * 100.0, mutating_answers.len());
    eprintln!("family misses:\n{}\n\ncapability misses:\n{}\n\nquestions that could change:\n{}", family_misses.join("\n"), key_misses.join("\n"), mutating_answers.join("\n"));
    assert!(mutating_answers.is_empty(), "questions answered with a change:\n{}", mutating_answers.join("\n"));
    // Measured 91.0% and 89.8% (412 goals, issue 28: the aim is 90% for the family and
    // 80% for the capability); these floors keep it.
    assert!(family_rate >= 0.90, "family right for {:.1}% (< 90%)", family_rate * 100.0);
    assert!(key_rate >= 0.88, "capability in the first five for {:.1}% (< 88%)", key_rate * 100.0);
}

/// What `capstan eval` scores as `family_ok` / `capability_ok` and what the planner's
/// routing preview shows: the one family and capability [`capstan::planner::pick`]
/// chooses for a whole goal. Measured on `routing_goals.tsv` and on the two held-out
/// eval suites, whose goals and labels were written by someone who never saw the router
/// (`host/eval/heldout.json`, `heldout2.json`, `heldout3.json`). Blind first runs,
/// before any change they could inform: the second suite picked 26 families and 23
/// capabilities of 40 (29 and 26 after changes found on the other sets), the third,
/// written after those changes, 34 and 27.
#[test]
fn goals_pick_their_capability_first() {
    let tmp = tempfile::tempdir().unwrap();
    let rt = support::runtime(&CapstanHome::at(tmp.path()), Arc::new(capstan::bridge::Offline), &[]);
    let families = rt.families();
    let index = rt.search_index(families.clone());
    let edit = rt.role(capstan::roles::Role::TransformsObject);
    let pick = |goal: &str| capstan::planner::pick(&families, &index, edit, goal);
    // A plain edit goes to the pack's transforms-object capability, in its family, also
    // when a statement comes first; a clause that speaks of what is there adds nothing.
    assert_eq!(edit, Some("scene.modify_object"));
    for goal in ["Hide the camera, I don't want to see it.", "shift the chair left by 2 metres", "The cube is half under the ground. Raise it so its bottom sits at z = 0."] {
        assert_eq!(pick(goal), ("mutate".to_string(), Some("scene.modify_object".to_string())), "{goal}");
    }
    for goal in ["aim it at the cube", "the cube should be 50cm wide, not 2m"] {
        assert_ne!(pick(goal).1.as_deref(), Some("scene.create_object"), "{goal}");
    }
    assert_eq!(pick("add a cube at the origin").1.as_deref(), Some("scene.create_object"));
    // No plain edit for a goal that asks, or when another instruction follows; things
    // that may be new are still made.
    let changes = |goal: &str| pick(goal).1.is_some_and(|k| rt.capability(&k).is_some_and(|c| c.mutates));
    assert!(!changes("Move the cube 2 m up? Actually no, don't move anything yet, just tell me where it is."));
    for goal in ["Hide the light. Add a sun lamp.", "Rotate the camera 90 degrees around Z. Make its lens 85mm."] {
        assert_ne!(pick(goal).1.as_deref(), Some("scene.modify_object"), "{goal}");
    }
    assert!(pick("Put two area lights over the table").1.is_some());
    assert!(pick("Put the monkey in the middle of the scene").1.is_some());
    let text = std::fs::read_to_string(support::workspace().join("host/tests/data/routing_goals.tsv")).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(|l| l.split('\t').collect()).collect();
    let mut misses = Vec::new();
    for row in &rows {
        let [goal, key, _, _] = row[..] else { panic!("four columns: {row:?}") };
        let (_, picked) = pick(goal);
        if picked.as_deref() != Some(key) {
            misses.push(format!("{goal:?}: expected {key}, picked {picked:?}"));
        }
    }
    let rate = 1.0 - misses.len() as f64 / rows.len() as f64;
    eprintln!("routing goals: {} ; capability picked first {:.1}%\n{}", rows.len(), rate * 100.0, misses.join("\n"));
    // Measured 80.8% (333 of 412).
    assert!(rate >= 0.80, "first pick right for {:.1}% (< 80%)", rate * 100.0);
    // (suite, families right at least, capabilities right at least): what was measured;
    // the shipped suite's labelled goals too (73 with a family, 72 with a capability).
    // heldout4 is measured blind (written 2026-12-07 after the last router change; not
    // tuned on): 37 and 36 of 40.
    for (name, family_floor, key_floor) in [("heldout", 37, 34), ("heldout2", 33, 31), ("heldout3", 36, 31), ("heldout4", 37, 36), ("suite", 67, 61)] {
        let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(support::workspace().join(format!("host/eval/{name}.json"))).unwrap()).unwrap();
        let (mut families_right, mut keys_right, mut misses) = (0, 0, Vec::new());
        for t in doc["tasks"].as_array().unwrap().iter().filter(|t| t.get("family").is_some()) {
            let goal = t["goal"].as_str().unwrap();
            let (family, key) = pick(goal);
            families_right += usize::from(t["family"].as_str() == Some(family.as_str()));
            keys_right += usize::from(t["capability"].as_str() == key.as_deref());
            if t["capability"].as_str() != key.as_deref() {
                misses.push(format!("{goal:?}: labelled {} {}, picked {family} {key:?}", t["family"], t["capability"]));
            }
        }
        eprintln!("{name}: family {families_right}, capability {keys_right}\n{}", misses.join("\n"));
        assert!(families_right >= family_floor && keys_right >= key_floor, "{name}: family {families_right} (floor {family_floor}), capability {keys_right} (floor {key_floor})");
    }
}
