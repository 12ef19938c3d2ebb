//! Change-then-read (issue 27 item 6): every read capability has a conformance case that
//! changes the scene through another capability and reads it back, and at least one such
//! case measures the change (it fails on the factory scene without it).

use super::*;

/// The read capabilities a case checks after changing the scene through another
/// capability (issue 27: reads measure the scene as it is after a change, not as it
/// was). Two shapes count:
/// - a case of a read capability whose setup mutates and whose result is asserted;
/// - a case whose own call (or setup) mutates and whose `reads` assert a read capability.
///
/// `None` when the case is not change-then-read.
pub(crate) fn change_then_read(key: &str, case: &Case, mutates: &dyn Fn(&str) -> bool) -> Option<Vec<String>> {
    let setup_mutates = case.setup.iter().any(|s| mutates(&s.key));
    let mut readers = Vec::new();
    if !mutates(key) && setup_mutates && case.expect.result.is_some() && case.expect.error.is_none() {
        readers.push(key.to_string());
    }
    if mutates(key) || setup_mutates {
        readers.extend(case.expect.reads.iter().filter(|r| !mutates(&r.key)).map(|r| r.key.clone()));
    }
    (!readers.is_empty()).then_some(readers)
}

/// Whether a change-then-read case measures its change for `reader`: replayed on the
/// factory scene without the change (the mutating setup of a read case, or the
/// mutating call of a case with `reads`), `reader`'s assertion must not hold. Files an
/// earlier run left in the output folder are removed first, so a read of a render
/// cannot pass on the last run's file.
pub(crate) fn measures_the_change(f: &Fixture, key: &str, case: &Case, reader: &str) -> Result<bool, Failed> {
    reset(f)?;
    if let Some(output) = f.output_dir() {
        for entry in std::fs::read_dir(&output).into_iter().flatten().flatten() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    let mutates = |k: &str| f.runtime.capability(k).is_some_and(|c| c.mutates);
    let mut reads: Vec<(&str, &Value, &Value)> = Vec::new();
    if mutates(key) {
        for step in &case.setup {
            f.runtime.call(&step.key, &step.arguments.to_string()).map_err(|e| format!("{}: setup {}: {e}", case.name, step.key))?;
        }
    } else {
        for step in case.setup.iter().filter(|s| !mutates(&s.key)) {
            f.runtime.call(&step.key, &step.arguments.to_string()).map_err(|e| format!("{}: setup {}: {e}", case.name, step.key))?;
        }
        if let Some(result) = &case.expect.result {
            reads.push((key, &case.arguments, result));
        }
    }
    reads.extend(case.expect.reads.iter().map(|r| (r.key.as_str(), &r.arguments, &r.result)));
    for (read_key, arguments, want) in reads.into_iter().filter(|(k, _, _)| *k == reader) {
        let Ok(got) = f.runtime.call(read_key, &arguments.to_string()) else { return Ok(true) };
        let mut problems = Vec::new();
        check::contains(&got.result, want, reader, &mut problems);
        if !problems.is_empty() {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Each read capability has a change-then-read case that could fail: one whose
/// assertion does not also hold without the change. (Cases that assert what a change
/// leaves alone are change-then-read too, but they cannot catch a stale read.)
pub(crate) fn change_then_read_cases_measure_the_change() -> Result<(), Failed> {
    let f = fixture().map_err(Failed::from)?;
    let rt = &f.runtime;
    let mutates = |k: &str| rt.capability(k).is_some_and(|c| c.mutates);
    let all: Vec<_> = rt.capabilities().map(|(_, c)| c).chain(rt.workflows().map(|w| &w.spec)).collect();
    let mut unmeasured = Vec::new();
    for reader in rt.capabilities().filter(|(p, _)| crate::in_this_suite(p)).map(|(_, c)| c).filter(|c| !c.mutates && !READS_NO_SCENE.iter().any(|(k, _)| *k == c.key)) {
        let mut measured = false;
        'cases: for cap in &all {
            for case in &cap.conformance {
                if change_then_read(&cap.key, case, &mutates).is_some_and(|r| r.contains(&reader.key)) && measures_the_change(f, &cap.key, case, &reader.key)? {
                    measured = true;
                    break 'cases;
                }
            }
        }
        if !measured {
            unmeasured.push(reader.key.as_str());
        }
    }
    if unmeasured.is_empty() {
        Ok(())
    } else {
        Err(format!("these read capabilities' change-then-read cases all pass without their change too: {}", unmeasured.join(", ")).into())
    }
}

/// Read capabilities that read nothing any capability can change, with the reason.
pub(crate) const READS_NO_SCENE: &[(&str, &str)] = &[("inspect.rna", "describes Blender's types (RNA), which no capability changes")];

/// Every read capability has at least one change-then-read case (issue 27 item 6), so
/// a new read capability cannot ship without one. Needs no Blender.
pub(crate) fn every_read_has_a_change_then_read_case(rt: &Runtime) -> Result<(), Failed> {
    let mutates = |k: &str| rt.capability(k).is_some_and(|c| c.mutates);
    let mut covered: std::collections::BTreeSet<String> = READS_NO_SCENE.iter().map(|(k, _)| k.to_string()).collect();
    for cap in rt.capabilities().map(|(_, c)| c).chain(rt.workflows().map(|w| &w.spec)) {
        for case in &cap.conformance {
            covered.extend(change_then_read(&cap.key, case, &mutates).unwrap_or_default());
        }
    }
    let missing: Vec<&str> = rt.capabilities().map(|(_, c)| c).filter(|c| !c.mutates && !covered.contains(&c.key)).map(|c| c.key.as_str()).collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("{} read capabilities have no case that changes the scene through another capability and then reads it back: {}", missing.len(), missing.join(", ")).into())
    }
}
