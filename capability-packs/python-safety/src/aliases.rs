//! Which module path an expression names (`bpy.ops.wm`, through `o = bpy.ops`,
//! `from bpy import ops`, literal `getattr`), and the aliases that make it so. Aliases
//! are never forgotten: a name bound to a module anywhere counts as that module
//! everywhere, so a rebinding in a branch that never runs does not hide a route.

use crate::analyze::Analyzer;
use crate::names::nfkc;
use ruff_ast::Expr;

impl Analyzer<'_> {
    /// Every dotted module path an expression may name: a chain of attributes on a
    /// module, an alias of one, or a literal `getattr` of either.
    ///
    /// A path through a module that re-exports `bpy` (`bpy_extras.object_utils.bpy`)
    /// is the `bpy` module itself, so it is returned from there (`bpy.ops.render`): the
    /// rules keyed on `bpy...` paths then see it under the name they know.
    pub fn resolve(&self, e: &Expr) -> Vec<Vec<String>> {
        let mut paths = self.resolve_within(e, crate::analyze::MAX_DEPTH);
        for path in &mut paths {
            if let Some(i) = path.iter().skip(1).position(|p| p == "bpy") {
                path.drain(..=i);
            }
        }
        paths
    }

    /// Resolution follows at most `budget` links of a chain: a longer chain is deeper
    /// than the walk follows, which rejects it as `nesting-too-deep` on its own, and
    /// following it here would only spend the guest's stack.
    fn resolve_within(&self, e: &Expr, budget: usize) -> Vec<Vec<String>> {
        let Some(budget) = budget.checked_sub(1) else { return Vec::new() };
        match e {
            Expr::Name(n) => {
                let n = nfkc(n.id.as_str());
                match self.census.aliases.get(n.as_str()) {
                    Some(paths) => paths.clone(),
                    None if matches!(n.as_str(), "bpy" | "bpy_extras" | "addon_utils") => vec![vec![n.into()]],
                    None => Vec::new(),
                }
            }
            Expr::Attribute(a) => extend(self.resolve_within(&a.value, budget), nfkc(a.attr.as_str()).into()),
            // `getattr(x, "name")`, also with a loop variable over literals: each name.
            Expr::Call(c) => match self.getattr_names(c) {
                Some((base, names)) => {
                    let bases = self.resolve_within(base, budget);
                    names.into_iter().flat_map(|name| extend(bases.clone(), name)).collect()
                }
                None => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    pub fn bind_alias(&mut self, name: &str, path: Vec<String>) {
        let paths = self.census.aliases.entry(nfkc(name).into()).or_default();
        if !paths.contains(&path) {
            paths.push(path);
        }
    }

    /// `x = bpy.ops`, `a = b = json`: remember every module path a name takes.
    pub(crate) fn track_alias(&mut self, targets: &[Expr], value: &Expr) {
        for path in self.resolve(value) {
            for t in targets {
                if let Expr::Name(n) = t {
                    self.bind_alias(n.id.as_str(), path.clone());
                }
            }
        }
    }
}

fn extend(paths: Vec<Vec<String>>, part: String) -> Vec<Vec<String>> {
    paths
        .into_iter()
        .map(|mut p| {
            p.push(part.clone());
            p
        })
        .collect()
}
