//! Calls that need more than walking their parts: the attribute builtins (a literal
//! name is checked like `obj.name`, anything else is rejected), `str.format` (which
//! can walk attributes from inside a string), and render operators that write files.

use crate::analyze::{Analyzer, literal_str};
use crate::blender;
use crate::names::{self, nfkc};
use crate::rules::Rule;
use rustpython_parser::ast::{self, Constant, Expr};

pub fn call(a: &mut Analyzer, c: &ast::ExprCall, at: usize) {
    if let Expr::Name(n) = &*c.func {
        let f = nfkc(n.id.as_str());
        if names::ATTRIBUTE_BUILTINS.contains(&f.as_str()) {
            match c.args.get(1).and_then(literal_str) {
                Some(name) => {
                    a.expr(&c.args[0]);
                    a.attribute(&c.args[0], name, f == "setattr" || f == "delattr", at);
                    c.args[2..].iter().for_each(|e| a.expr(e));
                }
                None => {
                    a.report(Rule::DynamicAttribute, at, format!("`{f}` with an attribute name that is not a string literal"));
                    c.args.iter().for_each(|e| a.expr(e));
                }
            }
            c.keywords.iter().for_each(|k| a.expr(&k.value));
            return;
        }
    }
    a.expr(&c.func);
    if let Expr::Attribute(attr) = &*c.func {
        let method = nfkc(attr.attr.as_str());
        if method == "format" || method == "format_map" {
            let on_str_type = matches!(&*attr.value, Expr::Name(n) if n.id.as_str() == "str");
            let template = if on_str_type { c.args.first().and_then(literal_str) } else { literal_str(&attr.value) };
            match template {
                Some(t) => format_fields(a, t, at),
                None => a.report(Rule::FormatTraversal, at, format!("`.{method}` on a string that is not a literal can walk attributes")),
            }
        }
    }
    if let Some(path) = a.resolve(&c.func)
        && path.len() == 4
        && path[..3] == ["bpy", "ops", "render"]
        && (path[3] == "render" || path[3] == "opengl")
    {
        for k in &c.keywords {
            let name = k.arg.as_ref().map(|n| nfkc(n.as_str()));
            if name.as_deref().is_some_and(|n| blender::RENDER_WRITE_KEYWORDS.contains(&n)) && !is_false(&k.value) {
                a.report(Rule::BlenderFileAccess, at, format!("`bpy.ops.render.{}` with `{}` writes files to the output path", path[3], name.unwrap()));
            }
        }
    }
    c.args.iter().for_each(|e| a.expr(e));
    c.keywords.iter().for_each(|k| a.expr(&k.value));
}

fn is_false(e: &Expr) -> bool {
    matches!(e, Expr::Constant(c) if matches!(c.value, Constant::Bool(false) | Constant::None))
}

/// `getattr(base, "name", ...)` as (base, name).
pub fn literal_getattr(c: &ast::ExprCall) -> Option<(&Expr, String)> {
    match &*c.func {
        Expr::Name(n) if nfkc(n.id.as_str()) == "getattr" => Some((c.args.first()?, literal_str(c.args.get(1)?)?.to_string())),
        _ => None,
    }
}

/// Every replacement field of a format string (nested ones in specs too): a field
/// that walks into a private, dunder, introspection or dangerous name is rejected.
fn format_fields(a: &mut Analyzer, template: &str, at: usize) {
    let bytes = template.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'{' {
            if bytes.get(i + 1) == Some(&b'{') {
                i += 2;
                continue;
            }
            let end = template[i + 1..].find(['}', '!', ':', '{']).map_or(template.len(), |e| i + 1 + e);
            let field = &template[i + 1..end];
            for part in field.split(['.', '[', ']']).skip(1).filter(|p| !p.is_empty()) {
                let part = nfkc(part);
                let bad = part.starts_with('_')
                    || names::INTROSPECTION_ATTRIBUTES.contains(&part.as_str())
                    || names::DANGEROUS_MODULES.contains(&part.as_str())
                    || names::DANGEROUS_BUILTINS.contains(&part.as_str());
                if bad {
                    a.report(Rule::FormatTraversal, at, format!("the format field `{{{field}}}` walks into `{part}`"));
                }
            }
        }
        i += 1;
    }
}
