//! `import` and `from ... import`: an allow-list of top-level modules; relative, star
//! and private imports rejected; each imported path checked against Blender's routes
//! and remembered as an alias, so `from bpy import ops; ops.wm` is seen as `bpy.ops.wm`.

use crate::analyze::{Analyzer, Bind};
use crate::names::{self, nfkc};
use crate::rules::Rule;
use ruff_ast as ast;

pub fn import(a: &mut Analyzer, i: &ast::StmtImport, at: usize) {
    for alias in &i.names {
        let parts: Vec<String> = nfkc(alias.name.as_str()).split('.').map(String::from).collect();
        check_module(a, &parts, at);
        match &alias.asname {
            Some(name) => {
                a.binding(name.as_str(), at, Bind::Other);
                a.note_import_binding(name.as_str());
                a.imported_handle(&parts, at);
                a.bind_alias(name.as_str(), parts);
            }
            None => {
                a.binding(&parts[0], at, Bind::Other);
                a.note_import_binding(&parts[0]);
                a.bind_alias(&parts[0].clone(), vec![parts[0].clone()]);
            }
        }
    }
}

pub fn import_from(a: &mut Analyzer, i: &ast::StmtImportFrom, at: usize) {
    let Some(module) = i.module.as_ref().filter(|_| i.level == 0) else {
        a.report(Rule::ImportRelative, at, "relative imports are not allowed".into());
        return;
    };
    let parts: Vec<String> = nfkc(module.as_str()).split('.').map(String::from).collect();
    if parts == ["__future__"] && i.names.iter().all(|n| n.asname.is_none() && names::FUTURE_FEATURES.contains(nfkc(n.name.as_str()).as_str())) {
        return;
    }
    check_module(a, &parts, at);
    for alias in &i.names {
        let name = nfkc(alias.name.as_str());
        if name == "*" {
            a.report(Rule::ImportStar, at, format!("`from {} import *` hides what it binds", parts.join(".")));
            continue;
        }
        if name.starts_with('_') && !names::is_dunder(&name) {
            a.report(Rule::ImportPrivate, at, format!("importing the private name `{name}` from `{}`", parts.join(".")));
        }
        a.imported_name(&name, at);
        // `from fractions import operator` is the module `fractions.operator` reaches.
        if names::MODULE_ONLY_ATTRIBUTES.contains(name.as_str()) && !crate::blender::is_blender_module(&parts[0]) {
            a.report(Rule::DangerousName, at, format!("`from {} import {name}` reaches the operating system or the interpreter", parts.join(".")));
        }
        if names::is_dunder(&name) {
            a.report(Rule::DunderName, at, format!("importing `{name}` reaches interpreter internals"));
        }
        let mut path = parts.clone();
        path.push(name.clone().into());
        a.check_path(&path, at);
        if let Some(rule) = crate::blender::attribute_rule(&name) {
            a.report(rule, at, format!("`{}` is a Blender route to {}", path.join("."), crate::analyze::route_kind(rule)));
        }
        let bound = alias.asname.as_ref().map(|n| n.as_str().to_string()).unwrap_or(name.into());
        a.binding(&bound, at, Bind::Other);
        a.note_import_binding(&bound);
        a.imported_handle(&path, at);
        a.bind_alias(&bound, path);
    }
}

fn check_module(a: &mut Analyzer, parts: &[String], at: usize) {
    let full = parts.join(".");
    if !a.policy().allows_module(&parts[0]) {
        let allowed = a.policy().allowed_list();
        a.report(Rule::ImportNotAllowed, at, format!("importing `{full}` is not allowed (allowed: {allowed})"));
    }
    for part in parts {
        if part.starts_with('_') {
            a.report(Rule::ImportPrivate, at, format!("`{full}` imports the private module `{part}`"));
        } else if names::DANGEROUS_MODULES.contains(&part.as_str()) && a.policy().allows_module(&parts[0]) {
            a.report(Rule::DangerousName, at, format!("`{full}` reaches `{part}`"));
        }
    }
    a.check_path(parts, at);
}
