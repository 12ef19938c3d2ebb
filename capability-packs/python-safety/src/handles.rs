//! Blender handles that may only be used where they are written: `bpy.ops` and its
//! categories and operators, the `bpy.data` collections, and node collections
//! (`tree.nodes`).
//!
//! Security reasoning: the rules that matter for these handles are judged on the
//! spelling of the call. Which operator runs, and with which keywords (`filepath=`,
//! `write_still=`), is read off `bpy.ops.<category>.<operator>(...)`; whether a node
//! collection's `new` gets a literal node type is read off `X.nodes.new("...")`. Once a
//! handle is a value (put in a list, bound to a name, passed to a function, returned,
//! yielded, the body of a lambda), the call made through it no longer names it: issue 26
//! wrote a Python file with `[bpy.ops.anim][0].keying_set_export(filepath=...)` and
//! rendered to `/tmp` with `[bpy.ops.render][0].render(write_still=True)`. So a handle
//! may appear only in the places where the checker still sees what it reaches (`Place`):
//!
//! | handle | where it may appear |
//! |---|---|
//! | `bpy.ops` | as the base of an attribute (`bpy.ops.mesh`); `must_not_escape` reports the rest |
//! | `bpy.ops.<category>` | as the base of an attribute (`bpy.ops.mesh.primitive_cube_add`) |
//! | `bpy.ops.<category>.<operator>` | called where written, or as the base of an attribute (`.poll()`) |
//! | `bpy.data.<collection>` | as the base of an attribute or a subscript, iterated, the right side of `in`, an argument of a read-only builtin (`len`, `list`, `sorted`, ...); and, except the collections that load files, an argument of a function the script defines (a helper that walks `bpy.data.objects`) |
//! | a node collection | as the base of an attribute or a subscript, iterated, the right side of `in`, an argument of a read-only builtin, and bound once to a plain name (`nodes = tree.nodes`), which then counts as a node collection itself |
//! | a node collection's `new` | called where written |
//!
//! Aliases count: `D = bpy.data` makes `D.texts` the collection, and binding any of these
//! handles to a name (`o = bpy.ops.render`, `from bpy import ops`, `import bpy.ops as o`,
//! `from bpy.data import texts`) is itself refused, node collections excepted.
//!
//! Why this makes the node-type rule sound: a node collection is reached only through
//! an attribute named `nodes` (also spelled `getattr(x, "nodes")` or
//! `x.path_resolve("nodes")`), and from there it can go only to plain names the census
//! records. So every `.new(...)` whose receiver may be a node collection has a receiver
//! the checker recognises, and there the node type must be a string literal, which is
//! itself judged (`blender::is_file_node_type`). Any other receiver is provably not a
//! node collection, which is why `links.new(a, b)`, `bm.verts.new(co)` or
//! `edit_bones.new(f"Bone{i}")` keep passing.

use crate::analyze::Analyzer;
use crate::names::nfkc;
use crate::rules::Rule;
use ruff_ast::Expr;

/// Where an expression is used, as far as a handle is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Place {
    /// Passed around: an argument, an element, a bound or returned value, ...
    #[default]
    Value,
    /// `X` in `X.attr` (and in a literal `getattr(X, "attr")`).
    AttributeBase,
    /// `X` in `X(...)`.
    Callee,
    /// `X` in `NAME = X` (every target a plain name).
    AliasValue,
    /// `X` in `X[...]`.
    SubscriptBase,
    /// `X` in `for _ in X` or a comprehension's `for`.
    Iterated,
    /// `X` in `k in X` / `k not in X` (the last operand of the comparison).
    Contained,
    /// A positional argument of a read-only builtin the script does not rebind.
    ReadArgument,
    /// A positional argument of a function the script defines with an undecorated
    /// `def` (and binds no other way).
    HelperArgument,
}

/// The collections of `bpy.data` (Blender 5.2's `BlendData`; a name Blender adds later
/// is judged as an attribute like any other).
pub const DATA_COLLECTIONS: &[&str] = &[
    "actions", "all_ids", "annotations", "armatures", "brushes", "cache_files", "cameras", "collections", "curves",
    "fonts", "grease_pencils", "hair_curves", "images", "lattices", "libraries", "lightprobes", "lights", "linestyles",
    "masks", "materials", "meshes", "metaballs", "movieclips", "node_groups", "objects", "paint_curves", "palettes",
    "particles", "pointclouds", "scenes", "screens", "shape_keys", "sounds", "speakers", "texts", "textures",
    "volumes", "window_managers", "workspaces", "worlds",
];

/// The collections that read or write files through their own methods (`load`, and
/// the libraries' `load`/`write`): never handed over, even to the script's helpers.
pub const FILE_COLLECTIONS: &[&str] = &["cache_files", "fonts", "images", "libraries", "movieclips", "sounds", "texts", "volumes"];

/// What a handle is.
enum Handle {
    /// `bpy.ops...`, with its path.
    Ops(Vec<String>),
    /// `bpy.data.<collection>` (also `bpy.context.blend_data.<collection>`): its name
    /// and the path it was reached by.
    Collection(String, String),
    /// A node collection.
    Nodes,
    /// A node collection's `new`, not yet called.
    NodesNew,
}

impl Analyzer<'_> {
    /// Judge a handle used at `place` (see the module docs for where each may go).
    pub(crate) fn check_handle(&mut self, e: &Expr, place: Place, at: usize) {
        for handle in self.handles(e) {
            let (allowed, shown, rule) = match &handle {
                Handle::Ops(path) => {
                    let allowed = match path.len() {
                        // Every other place is reported by `check_escape`.
                        2 => place != Place::AliasValue,
                        3 => place == Place::AttributeBase,
                        _ => matches!(place, Place::AttributeBase | Place::Callee),
                    };
                    let rule = if path.len() == 3 {
                        "an operator category may only be named in full where its operator is called, as in `bpy.ops.mesh.primitive_cube_add(...)`"
                    } else {
                        "an operator may only be called where it is written, as in `bpy.ops.mesh.primitive_cube_add(...)`"
                    };
                    (allowed, format!("`{}`", path.join(".")), rule.to_string())
                }
                Handle::Collection(name, shown) => {
                    let file = FILE_COLLECTIONS.contains(&name.as_str());
                    let allowed = matches!(place, Place::AttributeBase | Place::SubscriptBase | Place::Iterated | Place::Contained | Place::ReadArgument) || (place == Place::HelperArgument && !file);
                    let written = "used where it is written (`bpy.data.X[...]`, `bpy.data.X.new(...)`, `for x in bpy.data.X`, `len(bpy.data.X)`, `k in bpy.data.X`)";
                    let rule = if file { format!("a collection that loads files may only be {written}, not even handed to the script's own functions") } else { format!("a `bpy.data` collection may only be {written} or handed to a function the script defines") };
                    (allowed, format!("`{shown}`"), rule)
                }
                Handle::Nodes => {
                    let allowed = matches!(place, Place::AttributeBase | Place::SubscriptBase | Place::Iterated | Place::Contained | Place::ReadArgument) || (place == Place::AliasValue && nodes_alias_source(e));
                    (allowed, "the node collection".to_string(), "a node collection may only be used where it is written (`tree.nodes.new(\"ShaderNodeTexNoise\")`, `tree.nodes[\"Name\"]`, `for n in tree.nodes`) or bound once to a plain name (`nodes = tree.nodes`)".to_string())
                }
                Handle::NodesNew => (place == Place::Callee, "the node collection's `new`".to_string(), "it may only be called where it is written, with a literal node type".to_string()),
            };
            if !allowed {
                let what = match place {
                    Place::AliasValue => "bound to a name",
                    Place::Callee => "called as a whole",
                    Place::HelperArgument => "handed to a function",
                    _ => "passed around as a value (put in a container, passed, returned, yielded or bound)",
                };
                self.report(Rule::BlenderValueEscape, at, format!("{shown} is {what} here: {rule}, so the checker can see what it reaches"));
            }
        }
    }

    /// The handles `e` may be.
    fn handles(&self, e: &Expr) -> Vec<Handle> {
        let mut out = Vec::new();
        if self.is_nodes_value(e) {
            out.push(Handle::Nodes);
        }
        let new_of_nodes = match e {
            Expr::Attribute(a) => nfkc(a.attr.as_str()) == "new" && self.is_nodes_value(&a.value),
            Expr::Call(c) => self.getattr_names(c).is_some_and(|(base, names)| names.iter().any(|n| n == "new") && self.is_nodes_value(base)),
            _ => false,
        };
        if new_of_nodes {
            out.push(Handle::NodesNew);
        }
        // A handle's path has at most four parts (five through `bpy.context.blend_data`,
        // more through a module that re-exports `bpy`), so only short chains are resolved.
        if chain_links(e, 6).is_some() {
            for path in self.resolve(e) {
                match path.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
                    ["bpy", "ops", ..] if path.len() <= 4 => out.push(Handle::Ops(path.clone())),
                    ["bpy", "data", c] | ["bpy", "context", "blend_data", c] if DATA_COLLECTIONS.contains(c) => out.push(Handle::Collection(c.to_string(), path.join("."))),
                    _ => {}
                }
            }
        }
        out
    }

    /// Is `e` a node collection: an attribute named `nodes` (however spelled), or a
    /// name bound to one?
    pub(crate) fn is_nodes_value(&self, e: &Expr) -> bool {
        match e {
            Expr::Attribute(a) => nfkc(a.attr.as_str()) == "nodes",
            Expr::Call(c) => {
                if let Some((_, names)) = self.getattr_names(c) {
                    return names.iter().any(|n| n == "nodes");
                }
                match (&*c.func, c.arguments.args.first().and_then(crate::analyze::literal_str)) {
                    (Expr::Attribute(a), Some(path)) if nfkc(a.attr.as_str()) == "path_resolve" => path_ends_in_nodes(path),
                    _ => false,
                }
            }
            Expr::Name(n) => {
                let n = nfkc(n.id.as_str());
                self.known.node_names.contains(n.as_str()) || self.census.node_names.contains(n.as_str())
            }
            _ => false,
        }
    }

    /// `NAME = X.nodes`: NAME is a node collection too (census walk).
    pub(crate) fn track_node_names(&mut self, targets: &[Expr], value: &Expr) {
        if nodes_alias_source(value) {
            for t in targets {
                if let Expr::Name(n) = t {
                    self.census.node_names.insert(nfkc(n.id.as_str()).into());
                }
            }
        }
    }

    /// An imported name that binds a handle (`from bpy import ops`,
    /// `import bpy.ops as o`, `from bpy.data import texts`).
    pub(crate) fn imported_handle(&mut self, path: &[String], at: usize) {
        let handle = match path.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
            ["bpy", "ops", ..] => true,
            ["bpy", "data", c] => DATA_COLLECTIONS.contains(c),
            _ => false,
        };
        if handle {
            self.report(Rule::BlenderValueEscape, at, format!("importing `{}` binds it to a name; it may only be used by its full name where it is written, so the checker sees what it reaches", path.join(".")));
        }
    }

    /// Where a call's positional arguments go: a read-only builtin, a function the
    /// script defines, or anything else.
    pub(crate) fn argument_place(&self, func: &Expr) -> Place {
        let Expr::Name(f) = func else { return Place::Value };
        let f = nfkc(f.id.as_str());
        let stores = self.known.stores.get(f.as_str()).copied().unwrap_or(0);
        if stores == 0 && crate::loops::READ_BUILTINS.contains(&f.as_str()) {
            return Place::ReadArgument;
        }
        // A decorator may replace the function with anything (`@(lambda f: sink.append)`).
        if stores > 0 && self.known.function_bindings.get(f.as_str()) == Some(&stores) && !self.known.decorated.contains(f.as_str()) {
            return Place::HelperArgument;
        }
        Place::Value
    }
}

/// How many attribute (or literal `getattr`) links lead from `e` down to a name, if at
/// most `max`.
pub(crate) fn chain_links(e: &Expr, max: usize) -> Option<usize> {
    let mut e = e;
    let mut links = 0;
    loop {
        match e {
            Expr::Name(_) => return Some(links),
            Expr::Attribute(a) => e = &a.value,
            Expr::Call(c) => match crate::calls::literal_getattr_base(c) {
                Some(base) => e = base,
                None => return None,
            },
            _ => return None,
        }
        links += 1;
        if links > max {
            return None;
        }
    }
}

/// The spellings of a node collection a plain name may be bound to, and the census
/// records: `X.nodes`, `getattr(X, "nodes")`, `X.path_resolve("nodes")`, each
/// recognisable without the census (a loop variable over literals is not, so
/// `getattr(X, k)` may not be bound to a name).
fn nodes_alias_source(e: &Expr) -> bool {
    match e {
        Expr::Attribute(a) => nfkc(a.attr.as_str()) == "nodes",
        Expr::Call(c) => {
            let first = c.arguments.args.first().and_then(crate::analyze::literal_str);
            let second = c.arguments.args.get(1).and_then(crate::analyze::literal_str);
            match &*c.func {
                Expr::Name(n) => nfkc(n.id.as_str()) == "getattr" && second.is_some_and(|s| nfkc(s) == "nodes"),
                Expr::Attribute(a) => nfkc(a.attr.as_str()) == "path_resolve" && first.is_some_and(path_ends_in_nodes),
                _ => false,
            }
        }
        _ => false,
    }
}

/// `"nodes"`, `"node_tree.nodes"`: a path whose last step is the attribute `nodes`.
fn path_ends_in_nodes(path: &str) -> bool {
    let path = path.trim();
    path.strip_suffix("nodes").is_some_and(|rest| rest.is_empty() || rest.ends_with('.'))
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule;
    use crate::testing::{allowed, rules};

    fn escapes(src: &str) -> bool {
        rules(src).iter().any(|(r, l, c)| *r == Rule::BlenderValueEscape && *l >= 1 && *c >= 1)
    }

    #[test]
    fn operator_categories_and_operators_cannot_be_passed_around() {
        for src in [
            "import bpy\n[bpy.ops.anim][0].keying_set_export()\n",
            "import bpy\nx = bpy.ops.render\nx.render()\n",
            "import bpy\nx = bpy.ops.render.render\n",
            "import bpy\ndef f():\n    return bpy.ops.render\n",
            "import bpy\nf = lambda: bpy.ops.anim\n",
            "import bpy\nprint(bpy.ops.render)\n",
            "import bpy\ng = getattr(bpy.ops, 'render')\n",
            "import bpy\nfor k in ('render',):\n    g = getattr(bpy.ops, k)\n",
            "import bpy\ny = (bpy.ops.render,)\n",
            "import bpy\nz = {'r': bpy.ops.render.render}\n",
            "import bpy\ndef g():\n    yield bpy.ops.render\n",
            "import bpy\nimport functools\np = functools.partial(bpy.ops.render.render, write_still=False)\n",
            "import bpy\no = bpy.ops\n",
            "import bpy\nif (r := bpy.ops.render):\n    pass\n",
            "import bpy\nr = bpy.ops.render if True else None\n",
            "import bpy\nfor c in (bpy.ops.render, bpy.ops.anim):\n    pass\n",
            "from bpy import ops\n",
            "import bpy.ops as o\n",
            "from bpy.ops import render\n",
        ] {
            assert!(escapes(src), "{src}: {:?}", rules(src));
        }
    }

    #[test]
    fn operators_called_where_written_pass() {
        assert!(allowed("import bpy\nbpy.ops.mesh.primitive_cube_add(size=2)\nif bpy.ops.object.select_all.poll():\n    bpy.ops.object.select_all(action='DESELECT')\ngetattr(bpy.ops.mesh, 'primitive_uv_sphere_add')(radius=1)\n"));
    }

    #[test]
    fn collections_cannot_be_passed_around() {
        for src in [
            "import bpy\n[bpy.data.texts][0]\n",
            "import bpy\nt = bpy.data.texts\n",
            "import bpy\ndef f():\n    return bpy.data.images\n",
            "import bpy\ndef f(t):\n    return t\nf(bpy.data.texts)\n",
            "import bpy\nD = bpy.data\nx = [D.sounds]\n",
            "import bpy\nf = lambda: bpy.data.fonts\n",
            "import bpy\nh = {}\nh.setdefault('k', bpy.data.objects)\n",
            "import bpy\nm = max(bpy.data.objects, bpy.data.objects)\n",
            "import bpy\nx = bpy.data.objects == 1\n",
            "import bpy\nx = bpy.data.objects in []\n",
            "from bpy.data import texts\n",
        ] {
            assert!(escapes(src), "{src}: {:?}", rules(src));
        }
    }

    #[test]
    fn collections_used_where_written_pass() {
        assert!(allowed(
            "import bpy\nD = bpy.data\nn = len(bpy.data.objects)\nfor o in bpy.data.objects:\n    print(o.name)\nnames = [m.name for m in D.materials]\nif 'Cube' in bpy.data.objects:\n    cube = bpy.data.objects['Cube']\nmat = bpy.data.materials.get('M') or bpy.data.materials.new('M')\nall_objects = sorted(list(bpy.data.objects), key=lambda o: o.name)\n\ndef walk(objects):\n    return [o.name for o in objects]\n\nresult = walk(bpy.data.objects)\n"
        ));
    }

    #[test]
    fn file_collections_are_not_handed_even_to_helpers() {
        assert!(escapes("import bpy\ndef walk(t):\n    return len(t)\nwalk(bpy.data.texts)\n"));
        // A helper name bound another way, or decorated, is not a helper.
        assert!(escapes("import bpy\nsink = []\n@(lambda f: sink.append)\ndef keep(c):\n    pass\nkeep(bpy.data.objects)\n"));
        assert!(escapes("import bpy\ndef walk(t):\n    return t\nwalk = print\nwalk(bpy.data.objects)\n"));
        // A rebound builtin is not read-only: it is the script's own helper.
        assert!(escapes("import bpy\ndef len(x):\n    return x\nlen(bpy.data.texts)\n"));
        assert!(escapes("import bpy\nlen = print\nlen(bpy.data.objects)\n"));
    }

    #[test]
    fn node_collections_cannot_be_passed_around() {
        for src in [
            "import bpy\nt = bpy.data.node_groups.new('g', 'GeometryNodeTree')\nc = [t.nodes][0]\n",
            "import bpy\nt = bpy.data.node_groups.new('g', 'GeometryNodeTree')\nnodes = t.nodes\nother = nodes\n",
            "import bpy\nt = bpy.data.node_groups.new('g', 'GeometryNodeTree')\ndef f(n):\n    return n\nf(t.nodes)\n",
            "import bpy\nt = bpy.data.node_groups.new('g', 'GeometryNodeTree')\nmake = t.nodes.new\n",
            "import bpy\nt = bpy.data.node_groups.new('g', 'GeometryNodeTree')\nmake = getattr(t.nodes, 'new')\n",
            "import bpy\nt = bpy.data.node_groups.new('g', 'GeometryNodeTree')\nholder = [t.path_resolve('nodes')]\n",
            "import bpy\nt = bpy.data.node_groups.new('g', 'GeometryNodeTree')\nc = getattr(t, 'nodes')\nx = (c,)\n",
            "import bpy\nt = bpy.data.node_groups.new('g', 'GeometryNodeTree')\nfor k in ('nodes',):\n    c = getattr(t, k)\n",
        ] {
            assert!(escapes(src), "{src}: {:?}", rules(src));
        }
    }

    #[test]
    fn node_collections_used_where_written_pass() {
        assert!(allowed(
            "import bpy\nmat = bpy.data.materials.new('M')\nmat.use_nodes = True\nnodes = mat.node_tree.nodes\nlinks = mat.node_tree.links\nnoise = nodes.new('ShaderNodeTexNoise')\nbsdf = nodes.get('Principled BSDF') or nodes.new(type='ShaderNodeBsdfPrincipled')\nlinks.new(noise.outputs['Fac'], bsdf.inputs['Roughness'])\nfor n in mat.node_tree.nodes:\n    print(n.name)\nprint(len(nodes), 'Principled BSDF' in nodes, nodes['Principled BSDF'].name)\n"
        ));
    }

    #[test]
    fn place_names_are_reported_in_the_message() {
        let found = crate::testing::findings("import bpy\nx = bpy.ops.render\n");
        let f = found.iter().find(|f| f.rule == Rule::BlenderValueEscape).unwrap();
        assert_eq!((f.line, f.column), (2, 5));
        assert!(f.message.contains("bpy.ops.render") && f.message.contains("bound to a name"), "{}", f.message);
    }

    #[test]
    fn paths_ending_in_nodes() {
        assert!(super::path_ends_in_nodes("nodes"));
        assert!(super::path_ends_in_nodes("node_tree.nodes"));
        assert!(!super::path_ends_in_nodes("node_tree.nodes[\"x\"]"));
        assert!(!super::path_ends_in_nodes("use_nodes"));
    }
}
