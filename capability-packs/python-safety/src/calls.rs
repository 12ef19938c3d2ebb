//! Calls that need more than walking their parts: the attribute builtins (a literal
//! name is checked like `obj.name`, anything else is rejected), `str.format` (which
//! can walk attributes from inside a string), and render operators that write files.

use crate::analyze::{Analyzer, literal_str};
use crate::blender;
use crate::handles::Place;
use crate::names::{self, nfkc};
use crate::rules::Rule;
use ruff_ast::{self as ast, Expr};

/// Module helpers judged at their call (`dataclasses.field` only as a class attribute's
/// value, `functools.wraps` only with one argument): they may be called by name, never
/// passed around as values.
pub fn judged_by_its_call(path: &[String]) -> bool {
    matches!(path.iter().map(String::as_str).collect::<Vec<_>>().as_slice(), ["dataclasses", "field"] | ["functools", "wraps"])
}

pub fn call(a: &mut Analyzer, c: &ast::ExprCall, at: usize) {
    let field_call = std::mem::take(&mut a.field_call);
    if let Expr::Name(n) = &*c.func {
        let f = nfkc(n.id.as_str());
        if names::ATTRIBUTE_BUILTINS.contains(&f.as_str()) {
            attribute_builtin(a, c, &f, at);
            return;
        }
        if f == "type" && c.arguments.len() >= 3 {
            a.report(Rule::DynamicAttribute, at, "`type()` with three arguments builds a class from a dict of attributes".into());
        }
    }
    if let Expr::Attribute(attr) = &*c.func {
        let method = nfkc(attr.attr.as_str());
        // `str.format(template, ...)`: the template is the first argument.
        if matches!(&*attr.value, Expr::Name(n) if n.id.as_str() == "str") && (method == "format" || method == "format_map") {
            match c.arguments.args.first().and_then(literal_str) {
                Some(t) => format_fields(a, t, at),
                None => a.report(Rule::FormatTraversal, at, format!("`str.{method}` with a template that is not a literal can walk attributes")),
            }
            visit_arguments(a, c);
            return;
        }
        // RNA's `path_resolve("a.b")` is getattr by string.
        if method == "path_resolve" {
            match c.arguments.args.first().and_then(literal_str) {
                Some(path) => {
                    for part in path.split(['.', '[', ']']).filter(|p| !p.is_empty() && !p.starts_with(['"', '\'']) && !p.bytes().all(|b| b.is_ascii_digit())) {
                        a.attribute(&attr.value, part, false, at);
                    }
                }
                None => a.report(Rule::DynamicAttribute, at, "`path_resolve` with a path that is not a string literal".into()),
            }
        }
        // `image.save(filepath=...)` writes wherever it is told.
        if method == "save" && c.arguments.keywords.iter().any(|k| k.arg.as_ref().is_none_or(|n| nfkc(n.as_str()).contains("path"))) {
            a.report(Rule::BlenderFileAccess, at, "`.save(filepath=...)` writes a file to a path of the script's choosing".into());
        }
    }
    node_new(a, c, at);
    // The callee is used by name, not passed around: a module helper judged by its call
    // (`dataclasses.field`, `functools.wraps`) may be called directly.
    a.expr_at(&c.func, Place::Callee);
    if let Expr::Attribute(attr) = &*c.func {
        let method = nfkc(attr.attr.as_str());
        const MUTATORS: &[&str] = &["update", "append", "extend", "insert", "pop", "popitem", "clear", "setdefault", "remove", "add", "discard", "sort", "reverse"];
        if MUTATORS.contains(&method.as_str()) {
            for path in a.resolve(&attr.value) {
                if blender::changes_module_state(&path) {
                    a.report(Rule::BlenderPersistence, at, format!("`{}.{method}()` changes a module's state for everything else running in Blender", path.join(".")));
                }
            }
        }
    }
    for path in a.resolve(&c.func) {
        if path.len() >= 4 && path[0] == "bpy" && path[1] == "ops" {
            operator_call(a, c, &path, at);
        }
        match path.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
            ["dataclasses", "field"] if !field_call => {
                a.report(Rule::DynamicAttribute, at, "`dataclasses.field(...)` anywhere but as the value of an annotated class attribute keeps a handle on a Field, whose name dataclasses paste into generated code".into());
            }
            ["functools", "wraps"] if c.arguments.args.len() != 1 || !c.arguments.keywords.is_empty() => {
                a.report(Rule::DynamicAttribute, at, "`functools.wraps` with `assigned`/`updated` copies attributes by names given as data".into());
            }
            ["enum", "Enum" | "IntEnum" | "Flag" | "IntFlag" | "StrEnum" | "ReprEnum"] => enum_functional(a, c, at),
            _ => {}
        }
    }
    visit_arguments(a, c);
}

/// `Enum("Name", names)`: the functional API sets every name as a class attribute,
/// dunders included (`("__match_args__", ...)`), so the names must be literals, and
/// each is judged like a name written in a class body.
fn enum_functional(a: &mut Analyzer, c: &ast::ExprCall, at: usize) {
    let names = c.arguments.args.get(1).or_else(|| c.arguments.keywords.iter().find(|k| k.arg.as_ref().is_some_and(|n| n.as_str() == "names")).map(|k| &k.value));
    let Some(names) = names else { return };
    let literal: Option<Vec<String>> = match names {
        Expr::StringLiteral(s) => Some(s.value.to_str().split([',', ' ']).filter(|n| !n.is_empty()).map(String::from).collect()),
        Expr::List(ast::ExprList { elts, .. }) | Expr::Tuple(ast::ExprTuple { elts, .. }) => elts
            .iter()
            .map(|e| match e {
                Expr::Tuple(ast::ExprTuple { elts, .. }) => elts.first().and_then(literal_str).map(String::from),
                other => literal_str(other).map(String::from),
            })
            .collect(),
        Expr::Dict(d) => d.items.iter().map(|item| item.key.as_ref().and_then(literal_str).map(String::from)).collect(),
        _ => None,
    };
    match literal {
        Some(names) => {
            for name in names.iter().map(|n| nfkc(n)) {
                if name.starts_with('_') {
                    a.report(Rule::DunderName, at, format!("the enum member name `{name}` sets an interpreter or private class attribute"));
                }
            }
        }
        None => a.report(Rule::DynamicAttribute, at, "`Enum(...)` with member names that are not literals can set any class attribute, dunders included".into()),
    }
}

/// `X.nodes.new(type)` (also through a name bound to `X.nodes`, or a literal
/// `getattr(X.nodes, "new")`): the node type must be a string literal (or a loop
/// variable over literals), which is judged as a node type wherever it is written, so
/// a file-reading node (`blender::is_file_node_type`) cannot be named by a string the
/// script builds (`"ShaderNode" + "Script"`, an f-string, a variable, `bl_idname`).
/// `handles.rs` keeps every node collection where this sees it.
fn node_new(a: &mut Analyzer, c: &ast::ExprCall, at: usize) {
    let on_nodes = |a: &Analyzer, receiver: &Expr| a.is_nodes_value(receiver) || matches!(receiver, Expr::Name(n) if nfkc(n.id.as_str()) == "nodes");
    let is_new = match &*c.func {
        Expr::Attribute(attr) => nfkc(attr.attr.as_str()) == "new" && on_nodes(a, &attr.value),
        Expr::Call(g) => a.getattr_names(g).is_some_and(|(base, names)| names.iter().any(|n| n == "new") && on_nodes(a, base)),
        _ => false,
    };
    if !is_new {
        return;
    }
    let hidden = c.arguments.args.iter().any(|e| matches!(e, Expr::Starred(_))) || c.arguments.keywords.iter().any(|k| k.arg.is_none());
    let kind = c.arguments.args.first().or_else(|| c.arguments.keywords.iter().find(|k| k.arg.as_ref().is_some_and(|n| nfkc(n.as_str()) == "type")).map(|k| &k.value));
    if hidden || kind.is_some_and(|k| a.literal_names(k).is_none()) {
        a.report(Rule::BlenderFileAccess, at, "a node collection's `new` with a node type that is not a string literal could create a node that reads or writes files (`ShaderNodeScript`, `GeometryNodeImport*`, `CompositorNodeOutputFile`); write the type as a literal".into());
    }
}

fn visit_arguments(a: &mut Analyzer, c: &ast::ExprCall) {
    let place = a.argument_place(&c.func);
    c.arguments.args.iter().for_each(|e| a.expr_at(e, place));
    let at = c.range.start().into();
    c.arguments.keywords.iter().for_each(|k| a.keyword(k, at));
}

/// `getattr(obj, name)` and friends: each literal value the name can take is checked
/// as `obj.name`; anything else is rejected.
fn attribute_builtin(a: &mut Analyzer, c: &ast::ExprCall, f: &str, at: usize) {
    let args = &c.arguments.args;
    match args.get(1).and_then(|e| a.literal_names(e)) {
        Some(names) => {
            a.expr_as_base(&args[0]);
            for name in names {
                a.attribute(&args[0], &name, f == "setattr" || f == "delattr", at);
            }
            args[2..].iter().for_each(|e| a.expr(e));
            if let Some(Expr::Name(_)) = args.get(1) {
                a.expr(&args[1]);
            }
        }
        None => {
            a.report(Rule::DynamicAttribute, at, format!("`{f}` with an attribute name that is not a string literal"));
            args.iter().for_each(|e| a.expr(e));
        }
    }
    c.arguments.keywords.iter().for_each(|k| a.expr(&k.value));
}

/// A `bpy.ops` operator call: keywords that name files or carry code, render writes,
/// and `**kwargs` that hide which keywords are passed.
fn operator_call(a: &mut Analyzer, c: &ast::ExprCall, path: &[String], at: usize) {
    let shown = path.join(".");
    for k in &c.arguments.keywords {
        let Some(name) = k.arg.as_ref().map(|n| nfkc(n.as_str())) else {
            if !blender::operator_options_are_harmless(path) {
                a.report(Rule::BlenderFileAccess, at, format!("`{shown}` with `**` arguments hides which options the operator gets"));
            }
            continue;
        };
        if let Some(rule) = blender::operator_keyword_rule(&name) {
            a.report(rule, at, format!("`{shown}` with `{name}=` reaches {}", crate::analyze::route_kind(rule)));
        }
        let renders = path.len() == 4 && path[2] == "render" && (path[3] == "render" || path[3] == "opengl");
        if renders && blender::RENDER_WRITE_KEYWORDS.contains(&name.as_str()) && !is_false(&k.value) {
            a.report(Rule::BlenderFileAccess, at, format!("`{shown}` with `{name}` writes files to the output path (only a literal `False` is allowed)"));
        }
        // `bpy.ops.node.add_node(type=...)` creates whatever node type it is given.
        if path[2] == "node" && name == "type" && a.literal_names(&k.value).is_none() {
            a.report(Rule::BlenderFileAccess, at, format!("`{shown}` with a `type=` that is not a string literal could create a node that reads or writes files"));
        }
    }
}

/// Only a literal `False` leaves a render's writing off.
fn is_false(e: &Expr) -> bool {
    matches!(e, Expr::BooleanLiteral(b) if !b.value)
}

/// The base of `getattr(base, NAME)` whose name is a literal or a plain name (which
/// may be a loop variable over literals): a link of an attribute chain.
pub fn literal_getattr_base(c: &ast::ExprCall) -> Option<&Expr> {
    match (&*c.func, c.arguments.args.get(1)) {
        (Expr::Name(n), Some(Expr::StringLiteral(_) | Expr::Name(_))) if nfkc(n.id.as_str()) == "getattr" => c.arguments.args.first(),
        _ => None,
    }
}

impl Analyzer<'_> {
    /// `getattr(base, name)` as (base, every literal value the name can take): a string
    /// literal, or a loop variable over literals (`loops.rs`).
    pub fn getattr_names<'e>(&self, c: &'e ast::ExprCall) -> Option<(&'e Expr, Vec<String>)> {
        match &*c.func {
            Expr::Name(n) if nfkc(n.id.as_str()) == "getattr" => {
                let base = c.arguments.args.first()?;
                let names = self.literal_names(c.arguments.args.get(1)?)?;
                Some((base, names.into_iter().map(|n| nfkc(&n).into()).collect()))
            }
            _ => None,
        }
    }
}

/// Every replacement field of a format string (nested ones in specs too): a field
/// that walks into a private, dunder, introspection or dangerous name is rejected.
pub fn format_fields(a: &mut Analyzer, template: &str, at: usize) {
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

#[cfg(test)]
mod tests {
    use crate::rules::Rule;
    use crate::testing::{allowed, rules};

    fn file_access_at(src: &str, line: u32) -> bool {
        rules(src).iter().any(|(r, l, c)| *r == Rule::BlenderFileAccess && *l == line && *c >= 1)
    }

    #[test]
    fn computed_node_types_are_refused_on_every_node_collection() {
        let g = "import bpy\ng = bpy.data.node_groups.new('g', 'GeometryNodeTree')\n";
        for call in [
            "g.nodes.new('ShaderNode' + 'Script')",
            "g.nodes.new(type='GeometryNode' + 'ImportText')",
            "g.nodes.new(f'GeometryNode{1}')",
            "g.nodes.new(g.nodes[0].bl_idname)",
            "g.nodes.new(*['x'])",
            "g.nodes.new(**{'type': 'x'})",
            "getattr(g.nodes, 'new')('A' + 'B')",
            "g.path_resolve('nodes').new('A' + 'B')",
            "getattr(g, 'nodes').new('A' + 'B')",
        ] {
            let src = format!("{g}{call}\n");
            assert!(file_access_at(&src, 3), "{src}: {:?}", rules(&src));
        }
        // Through a name bound to the collection, whatever the name.
        let src = format!("{g}coll = g.nodes\nkind = 'x'\ncoll.new(kind)\n");
        assert!(file_access_at(&src, 5), "{:?}", rules(&src));
        let src = format!("{g}for k in ('new',):\n    getattr(g.nodes, k)('A' + 'B')\n");
        assert!(file_access_at(&src, 4), "{:?}", rules(&src));
    }

    #[test]
    fn literal_node_types_and_other_collections_pass() {
        assert!(allowed(
            "import bpy\nimport bmesh\ng = bpy.data.node_groups.new('g', 'GeometryNodeTree')\nn = g.nodes.new('GeometryNodeMeshCube')\nfor kind in ('GeometryNodeJoinGeometry', 'NodeGroupOutput'):\n    g.nodes.new(kind)\ng.links.new(n.outputs[0], g.nodes[1].inputs[0])\nbm = bmesh.new()\nv = bm.verts.new((0.0, 0.0, 0.0))\narm = bpy.data.armatures.new('a')\nname = 'Bone'\nmarker = bpy.context.scene.timeline_markers.new(name, frame=1)\nm = bpy.data.materials.new(f'M{1}')\n"
        ));
    }

    #[test]
    fn node_add_node_needs_a_literal_type() {
        assert!(file_access_at("import bpy\nbpy.ops.node.add_node(type='ShaderNode' + 'Script')\n", 2));
        assert!(allowed("import bpy\nbpy.ops.node.add_node(type='ShaderNodeTexNoise', use_transform=True)\n"));
    }

    #[test]
    fn renders_write_unless_the_keyword_is_a_literal_false() {
        for kw in ["write_still=True", "write_still=None", "animation=1", "animation=flag", "write_still=not False"] {
            let src = format!("import bpy\nflag = True\nbpy.ops.render.render({kw})\n");
            assert!(file_access_at(&src, 3), "{src}");
        }
        assert!(file_access_at("import bpy\nbpy.ops.render.opengl(animation=True)\n", 2));
        assert!(allowed("import bpy\nbpy.ops.render.render(write_still=False, animation=False)\n"));
    }

    #[test]
    fn file_keywords_are_refused_on_any_operator() {
        for call in ["cycles.denoise_animation(output_filepath='/tmp/x')", "object.bake(filepath='/tmp/x')", "object.bake(save_mode='EXTERNAL')", "sequencer.image_strip_add(directory='/etc/')", "mesh.primitive_cube_add(relative_path=True)"] {
            let src = format!("import bpy\nbpy.ops.{call}\n");
            assert!(file_access_at(&src, 2), "{src}");
        }
    }
}
