//! The judgement of names and attributes: dunders, privates, dangerous builtins and
//! modules, introspection, Blender routes, format templates. Every spelling of an
//! attribute access (`a.b`, literal `getattr`, `case C(b=_)`, `path_resolve`) ends
//! here, so one table of rules covers them all.

use crate::analyze::{Analyzer, Bind, literal_str, route_kind};
use crate::blender;
use crate::names::{self, nfkc};
use crate::rules::Rule;
use ruff_ast::Expr;

impl Analyzer<'_> {
    pub(crate) fn check_escape(&mut self, e: &Expr, at: usize) {
        // Only paths of one or two parts must not escape (`bpy`, `bpy.ops`), also
        // re-exported (`bpy_extras.object_utils.bpy`): a chain of more than four links
        // is never one of them, so it is not resolved here.
        if crate::handles::chain_links(e, 4).is_none() {
            return;
        }
        for path in self.resolve(e) {
            let shown = path.join(".");
            if blender::must_not_escape(&path) {
                self.report(Rule::BlenderCodeExecution, at, format!("`{shown}` may only be used by its full name (`{shown}.<name>...`); passed around, the route it reaches cannot be checked"));
            } else if path.len() == 1 || crate::calls::judged_by_its_call(&path) {
                // A module (or one of the helpers judged by their call) passed around as
                // a value: what is reached through it can no longer be named.
                self.report(Rule::DynamicAttribute, at, format!("`{shown}` may only be used by its name (`{shown}.<name>` or a direct call); passed around, what it reaches cannot be checked"));
            }
        }
    }

    /// A name read as an expression.
    pub fn name(&mut self, raw: &str, at: usize) {
        let n = nfkc(raw);
        if self.collecting {
            match self.census.loads.get_mut(n.as_str()) {
                Some(count) => *count += 1,
                None => {
                    self.census.loads.insert(n.clone().into(), 1);
                }
            }
        }
        if names::is_dunder(&n) && !names::SAFE_DUNDER_NAMES.contains(&n.as_str()) {
            if names::DANGEROUS_BUILTINS.contains(&n.as_str()) {
                self.report(Rule::DangerousBuiltin, at, format!("`{n}` can run code, import or open files"));
            } else {
                self.report(Rule::DunderName, at, format!("the name `{n}` reaches interpreter internals"));
            }
            return;
        }
        if names::DANGEROUS_BUILTINS.contains(&n.as_str()) {
            self.report(Rule::DangerousBuiltin, at, format!("`{n}` can run code, import or open files"));
        }
        if names::SOFT_BUILTINS.contains(&n.as_str()) && !self.known.stores.contains_key(n.as_str()) {
            self.report(Rule::DangerousBuiltin, at, format!("the builtin `{n}` reads the console or stops the interpreter"));
        }
        if names::ATTRIBUTE_BUILTINS.contains(&n.as_str()) {
            self.report(Rule::DynamicAttribute, at, format!("`{n}` may only be called directly with a literal attribute name"));
        }
        if self.policy.denies(&n) {
            self.report(Rule::DeniedName, at, format!("`{n}` is denied by the policy"));
        }
    }

    /// A name being bound (definition, parameter, assignment or loop target, handler,
    /// pattern capture, import). Defining dunder methods such as `__init__` is fine.
    pub fn binding(&mut self, raw: &str, at: usize, kind: Bind) {
        let n = nfkc(raw);
        if kind != Bind::Declaration {
            *self.census.stores.entry(n.clone().into()).or_default() += 1;
        }
        match kind {
            Bind::Function => *self.census.function_bindings.entry(n.clone().into()).or_default() += 1,
            Bind::Class => *self.census.class_bindings.entry(n.clone().into()).or_default() += 1,
            _ => {}
        }
        if names::is_dunder(&n) {
            if kind != Bind::Function {
                self.report(Rule::DunderName, at, format!("the name `{n}` reaches interpreter internals"));
            } else if names::LOOKUP_HOOKS.contains(n.as_str()) {
                self.report(Rule::DynamicAttribute, at, format!("defining `{n}` routes the interpreter's own lookups (names, attributes, class patterns) through code the checker cannot follow"));
            } else {
                self.dunder_definition(&n, at);
            }
            return;
        }
        if names::DANGEROUS_BUILTINS.contains(&n.as_str()) {
            self.report(Rule::DangerousBuiltin, at, format!("`{n}` can run code, import or open files"));
        }
        if self.policy.denies(&n) {
            self.report(Rule::DeniedName, at, format!("`{n}` is denied by the policy"));
        }
        if kind != Bind::Parameter && self.receivers.iter().any(|r| r.iter().any(|x| n == x.as_str())) {
            self.report(Rule::PrivateAttribute, at, format!("rebinding the method receiver `{n}` would let it reach private attributes of anything"));
        }
    }

    /// A name bound to a module path (an import, `o = json`): one binding the checker
    /// can name (`implicit.rs` tells class bases it can name from computed ones).
    pub(crate) fn note_module_binding(&mut self, target: &Expr) {
        if let Expr::Name(n) = target {
            self.note_import_binding(n.id.as_str());
        }
    }

    /// An import binds `name` to a module path.
    pub(crate) fn note_import_binding(&mut self, name: &str) {
        *self.census.module_bindings.entry(nfkc(name).into()).or_default() += 1;
    }

    /// An imported name (`from m import NAME`, `import m as NAME`): also a binding.
    pub fn imported_name(&mut self, n: &str, at: usize) {
        if names::DANGEROUS_MODULES.contains(&n) {
            self.report(Rule::DangerousName, at, format!("`{n}` reaches the operating system or the interpreter"));
        }
        if names::DANGEROUS_BUILTINS.contains(&n) || names::ATTRIBUTE_BUILTINS.contains(&n) || names::CODE_ATTRIBUTES.contains(&n) {
            self.report(Rule::DangerousBuiltin, at, format!("importing `{n}` hands over a way to run code"));
        }
        if names::CLASS_BUILDER_ATTRIBUTES.contains(&n) {
            self.report(Rule::DynamicAttribute, at, format!("importing `{n}` hands over attribute access by names given as data"));
        }
        if names::SHARED_STATE_ATTRIBUTES.contains(&n) {
            self.report(Rule::BlenderPersistence, at, format!("importing `{n}` hands over state every later script in Blender shares"));
        }
        if blender::is_registered_class_name(n) {
            self.report(Rule::BlenderPythonClass, at, format!("`{n}` names a class Blender registered from Python, whose methods evaluate strings and write files with any object as `self`"));
        }
    }

    /// `base.attr`, however it is spelled (`getattr(base, "attr")`, `case C(attr=_)`).
    pub fn attribute(&mut self, base: &Expr, raw: &str, store: bool, at: usize) {
        let attr = nfkc(raw);
        let on_receiver = matches!(base, Expr::Name(n) if self.receivers.iter().any(|r| r.iter().any(|x| nfkc(n.id.as_str()) == x.as_str())));
        let base_paths = self.resolve(base);
        if names::is_dunder(&attr) {
            if !names::SAFE_DUNDER_ATTRIBUTES.contains(&attr.as_str()) || store {
                self.report(Rule::DunderAttribute, at, format!("access to `.{attr}` reaches interpreter internals"));
            }
        } else if attr.starts_with('_') && !on_receiver && !names::NAMEDTUPLE_API.contains(attr.as_str()) {
            self.report(Rule::PrivateAttribute, at, format!("access to the private attribute `.{attr}`"));
        }
        if names::SHARED_STATE_ATTRIBUTES.contains(&attr.as_str()) {
            self.report(Rule::BlenderPersistence, at, format!("`.{attr}` changes state every later script in Blender shares (use `decimal.localcontext()`)"));
        }
        if names::CLASS_BUILDER_ATTRIBUTES.contains(&attr.as_str()) {
            self.report(Rule::DynamicAttribute, at, format!("`.{attr}` reads or writes attributes by names given as data"));
        }
        if names::INTROSPECTION_ATTRIBUTES.contains(&attr.as_str()) {
            self.report(Rule::Introspection, at, format!("`.{attr}` exposes frames, code or globals"));
        }
        // Module-only names count on the standard library's modules (`fractions.operator`),
        // not on Blender's (`bpy.types`, `bmesh.types`), and `re.compile` is fine.
        let of_module = base_paths.iter().any(|p| {
            let top = p.first().map(String::as_str).unwrap_or("");
            let blender_module = blender::is_blender_module(top);
            let re_compile = attr == "compile" && top == "re";
            !blender_module && !re_compile
        });
        if names::DANGEROUS_MODULES.contains(&attr.as_str()) || (of_module && names::MODULE_ONLY_ATTRIBUTES.contains(&attr.as_str())) {
            self.report(Rule::DangerousName, at, format!("`.{attr}` reaches the operating system or the interpreter"));
        }
        if names::CODE_ATTRIBUTES.contains(&attr.as_str()) || names::DANGEROUS_BUILTINS.contains(&attr.as_str()) && of_module {
            self.report(Rule::DangerousBuiltin, at, format!("`.{attr}` runs code or evaluates strings"));
        }
        if self.policy.denies(&attr) {
            self.report(Rule::DeniedName, at, format!("`.{attr}` is denied by the policy"));
        }
        if let Some(rule) = blender::attribute_rule(&attr) {
            self.report(rule, at, format!("`.{attr}` is a Blender route to {}", route_kind(rule)));
        }
        if blender::is_registered_class_name(&attr) {
            self.report(Rule::BlenderPythonClass, at, format!("`.{attr}` names a class Blender registered from Python, whose methods evaluate strings and write files with any object as `self`"));
        }
        if !store && self.is_type_of(base) && !matches!(attr.as_str(), "__name__" | "__qualname__" | "__doc__" | "bl_rna") {
            self.report(Rule::BlenderPythonClass, at, format!("`type(x).{attr}` takes `{attr}` from a class, where it is called with any object as `self` (Blender's Python-defined classes evaluate strings and write files in theirs); use it through the instance"));
        }
        if store && let Some(rule) = blender::store_rule(&attr) {
            self.report(rule, at, format!("setting `.{attr}` points Blender at {}", if rule == Rule::BlenderFileAccess { "a path on disk" } else { "code" }));
        }
        if attr == "format" || attr == "format_map" {
            self.format_receiver(base, &attr, at);
        }
        // `bpy.data.texts.load(path)` (images, sounds, fonts, movie clips, volumes' grids,
        // libraries) reads any file, and a collection can be reached under any name
        // (`D.texts`, a parameter, an element), so `.load` is refused on everything but
        // the `json` module, whose `load` reads only a file object (and `open` is refused).
        if attr == "load" && !base_paths.iter().any(|p| p.len() == 1 && p[0] == "json") {
            self.report(Rule::BlenderFileAccess, at, "`.load` reads a file of the script's choosing (`bpy.data.texts.load`, `images.load`, `sounds.load`, `fonts.load`, `movieclips.load`, `libraries.load`, a volume's `grids.load`), whatever name the collection is reached by".into());
        }
        // `image.save()` writes the datablock over its file; a script's own `save`
        // (a function or method it defines) is its business.
        if attr == "save" && !self.known.stores.contains_key("save") {
            self.report(Rule::BlenderFileAccess, at, "`.save()` writes a datablock to its file on disk".into());
        }
        for mut path in base_paths {
            path.push(attr.clone().into());
            self.check_path(&path, at);
            if store && blender::changes_module_state(&path) {
                self.report(Rule::BlenderPersistence, at, format!("assigning `{}` changes a module for everything else running in Blender", path.join(".")));
            }
        }
    }

    /// `template.format(...)`: the template must be a literal (or a module constant
    /// bound once to one) whose fields walk into nothing private.
    pub(crate) fn format_receiver(&mut self, base: &Expr, method: &str, at: usize) {
        let template = match base {
            Expr::Name(n) if self.known.bound_once(&nfkc(n.id.as_str())) => self.known.str_consts.get(nfkc(n.id.as_str()).as_str()).cloned(),
            other => literal_str(other).map(String::from),
        };
        match template {
            Some(t) => crate::calls::format_fields(self, &t, at),
            None => self.report(Rule::FormatTraversal, at, format!("`.{method}` on a string that is not a literal can walk attributes")),
        }
    }

    /// The literal values a getattr-family name argument can take: a string literal,
    /// or a loop variable over string literals that nothing else binds.
    pub fn literal_names(&self, e: &Expr) -> Option<Vec<String>> {
        if let Some(s) = literal_str(e) {
            return Some(vec![s.to_string()]);
        }
        match e {
            Expr::Name(n) => {
                let n = nfkc(n.id.as_str());
                self.loop_literals(&n)
            }
            _ => None,
        }
    }

    pub fn check_path(&mut self, path: &[String], at: usize) {
        if let Some((rule, route)) = blender::path_rule(path) {
            self.report(rule, at, format!("`{}` is a Blender route to {} (under `{route}`)", path.join("."), route_kind(rule)));
        }
        if let Some(why) = blender::bpy_types_rule(path) {
            self.report(Rule::BlenderPythonClass, at, why);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule;
    use crate::testing::{allowed, rules};

    #[test]
    fn load_is_refused_on_every_receiver_but_json() {
        for src in [
            "import bpy\nbpy.data.texts.load('/etc/passwd')\n",
            "import bpy\nD = bpy.data\nD.images.load('/etc/x.png')\n",
            "def read(c, p):\n    return c.load(p)\n",
            "import bpy\nf = getattr(bpy.data.sounds, 'load')\n",
            "import bpy\nv = bpy.data.volumes.new('v')\nv.grids.load()\n",
            "import bpy\nwith bpy.context.blend_data.libraries.load('/x.blend') as (a, b):\n    pass\n",
        ] {
            let found = rules(src);
            assert!(found.iter().any(|(r, l, c)| *r == Rule::BlenderFileAccess && *l >= 2 && *c >= 1), "{src}: {found:?}");
        }
        assert!(allowed("import json\nresult = json.loads('{}')\nprint(json.load)\n"));
    }

    #[test]
    fn packed_data_and_reloads_are_refused() {
        for src in ["import bpy\nbpy.data.images['i'].pack()\n", "import bpy\nx = bpy.data.images['i'].packed_file.data\n", "import bpy\nbpy.data.images['i'].reload()\n", "import bpy\nwith bpy.data.temp_data() as t:\n    pass\n"] {
            assert!(rules(src).iter().any(|(r, ..)| *r == Rule::BlenderFileAccess), "{src}");
        }
    }

    #[test]
    fn paths_assigned_to_any_object_are_refused() {
        for target in ["bpy.context.scene.render.filepath", "img.filepath_raw", "mod.bake_directory", "node.directory", "node.base_path", "seq.proxy_dir", "anything.cache_path", "bake.save_mode", "cache.use_disk_cache"] {
            let src = format!("import bpy\nimg = mod = node = seq = anything = bake = cache = bpy.context.object\n{target} = '/tmp/x'\n");
            assert!(rules(&src).iter().any(|(r, l, _)| *r == Rule::BlenderFileAccess && *l == 3), "{src}");
        }
        let src = "import bpy\nsetattr(bpy.context.scene.render, 'filepath', '/tmp/x')\n";
        assert!(rules(src).iter().any(|(r, ..)| *r == Rule::BlenderFileAccess), "{src}");
    }
}
