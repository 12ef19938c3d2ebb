//! Classes as values the checker cannot follow: metaclasses (which decide what names,
//! attributes and class patterns mean in the classes they build) and class objects
//! reached by value (`type(x)`, an element of a literal, a loop over a literal of
//! module classes), on which setting an attribute patches the class for every other
//! script and add-on in the process.

use crate::analyze::Analyzer;
use crate::names::nfkc;
use ruff_ast::{self as ast, Expr};

impl Analyzer<'_> {
    /// An expression that may be a class the checker cannot name: `type(x)`, a name
    /// bound to one, or an element picked out of a literal (`[json.JSONEncoder][0]`).
    /// Setting an attribute on it patches the class for the whole process.
    pub(crate) fn is_class_handle(&self, e: &Expr) -> bool {
        // A loop, not recursion: a chain of subscripts can be as long as the script.
        let mut e = e;
        loop {
            match e {
                Expr::Call(c) => return matches!(&*c.func, Expr::Name(n) if nfkc(n.id.as_str()) == "type"),
                Expr::Subscript(s) if matches!(&*s.value, Expr::List(_) | Expr::Tuple(_) | Expr::Dict(_) | Expr::Set(_)) => return true,
                Expr::Subscript(s) => e = &s.value,
                Expr::Name(n) => return self.known.type_handles.contains(nfkc(n.id.as_str()).as_str()),
                _ => return false,
            }
        }
    }

    /// `type(x)`, or a name ever bound to one: a class whose methods, taken from it,
    /// are called with any object as `self`.
    pub(crate) fn is_type_of(&self, e: &Expr) -> bool {
        match e {
            Expr::Call(c) => is_type_call(c),
            Expr::Name(n) => self.known.type_of.contains(nfkc(n.id.as_str()).as_str()),
            Expr::Named(n) => self.is_type_of(&n.value),
            _ => false,
        }
    }

    /// A class base that is a `bpy.types` class (`class P(bpy.types.Panel)`, through an
    /// alias or `from bpy.types import Panel`) or a class reached by value (`type(x)`):
    /// the subclass inherits Blender's Python methods and calls them on itself.
    pub(crate) fn blender_base(&self, base: &Expr) -> Option<String> {
        if self.is_type_of(base) {
            return Some("a class reached by value (`type(x)`)".into());
        }
        self.resolve(base).into_iter().find(|p| p.windows(2).any(|w| w[0] == "bpy" && w[1] == "types") && p.last().is_some_and(|l| l != "types")).map(|p| format!("`{}`", p.join(".")))
    }

    /// A literal collection (or a view of one) with an element the checker can name as
    /// a module path: `for v in {"k": json.JSONEncoder}.values()` hands out the class.
    pub(crate) fn holds_module_values(&self, iter: &Expr) -> bool {
        let collection = match iter {
            Expr::Call(c) => match &*c.func {
                Expr::Attribute(a) => &*a.value,
                _ => return false,
            },
            other => other,
        };
        let elements: Vec<&Expr> = match collection {
            Expr::List(ast::ExprList { elts, .. }) | Expr::Tuple(ast::ExprTuple { elts, .. }) | Expr::Set(ast::ExprSet { elts, .. }) => elts.iter().collect(),
            Expr::Dict(d) => d.items.iter().map(|i| &i.value).collect(),
            _ => return false,
        };
        elements.iter().any(|e| self.resolve(e).iter().any(|p| p.len() >= 2))
    }

    /// A base that makes the class a metaclass: `type`, or the standard library's
    /// metaclasses by name or through an alias (`abc.ABCMeta`, `enum.EnumType`).
    pub(crate) fn is_metaclass(&self, base: &Expr) -> bool {
        const METACLASSES: &[&str] = &["type", "ABCMeta", "EnumMeta", "EnumType"];
        let named = matches!(base, Expr::Name(n) if METACLASSES.contains(&nfkc(n.id.as_str()).as_str()));
        named || self.resolve(base).iter().any(|p| p.last().is_some_and(|last| METACLASSES.contains(&last.as_str())))
    }
}

/// `type(x)` with one argument.
pub(crate) fn is_type_call(c: &ast::ExprCall) -> bool {
    matches!(&*c.func, Expr::Name(n) if nfkc(n.id.as_str()) == "type") && c.arguments.args.len() == 1 && c.arguments.keywords.is_empty()
}

/// The plain names a `for` target binds (`k`, `k, v`).
pub(crate) fn target_names(target: &Expr) -> Vec<&str> {
    match target {
        Expr::Name(n) => vec![n.id.as_str()],
        Expr::Tuple(ast::ExprTuple { elts, .. }) | Expr::List(ast::ExprList { elts, .. }) => elts.iter().flat_map(target_names).collect(),
        _ => Vec::new(),
    }
}
