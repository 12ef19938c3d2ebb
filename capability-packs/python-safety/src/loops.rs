//! Loop variables whose values are string literals, so that `setattr(obj, key, value)`
//! inside the loop can be judged name by name, as if each literal were written out.
//!
//! Recognised: `for k in ("a", "b")`, `for k, v in (("a", 1), ("b", 2))`,
//! `for k, v in {"a": 1}.items()` (also `.keys()`, `.values()` and the dict itself),
//! and the same over a name bound to such a literal (`settings = {...}`; `for k, v in
//! settings.items()`).
//!
//! A loop variable counts only if every binding of its name is such a loop (the values
//! of all of them are checked); a name also assigned, or a parameter, is not a literal.
//!
//! Why a named collection can be trusted: the name must be bound exactly once, and
//! every place the script reads it must be a read that cannot change it (iterating it,
//! indexing it, `x in D`, `.items()`, `.keys()`, `.values()`, `.get()`, or an argument
//! of a builtin such as `len` or `sorted` that the script does not redefine and that
//! never returns its argument). Its rows must be strings or tuples, which nothing can
//! change. Passed to
//! its own function, aliased, or called with any other method, it might gain a key, so
//! loops over it prove nothing and the `setattr` is rejected as before. Both counts
//! come from the census walk over the whole script, so a mutation in a function
//! defined above the assignment counts too.

use crate::analyze::{Analyzer, literal_str};
use crate::names::nfkc;
use ruff_ast::{self as ast, CmpOp, Expr};

/// What a loop iterates over: for each item, the string literal at each position of
/// the item (one position for a plain value, several for a tuple), `None` where the
/// element is anything else.
type Rows = Vec<Vec<Option<String>>>;

/// A collection literal bound to a name.
#[derive(Debug, Clone)]
pub enum Collection {
    /// A list, tuple or set: one row per element.
    Seq(Rows),
    /// A dict: (key, value) per item.
    Dict(Vec<(Option<String>, Option<String>)>),
}

/// Methods whose call cannot change the collection they are called on.
const READ_METHODS: &[&str] = &["items", "keys", "values", "get", "index", "count", "copy"];
/// Builtins that read their arguments without changing them and never hand one back
/// (unless the script binds one of these names itself, which voids every read counted
/// through them). Not `min`, `max` or `sum`: `max(N, N)` and `sum((), N)` return `N`
/// itself, a second name for the collection that nothing tracks.
pub(crate) const READ_BUILTINS: &[&str] = &["len", "sorted", "list", "tuple", "set", "frozenset", "dict", "enumerate", "zip", "reversed", "any", "all", "print", "str", "repr"];

impl Analyzer<'_> {
    /// `NAME = <collection literal>`: remember its rows.
    pub(crate) fn track_collection(&mut self, target: &str, value: &Expr) {
        if let Some(collection) = collection_literal(value) {
            self.census.collections.insert(nfkc(target).into(), collection);
        }
    }

    /// `for TARGET in ITER` (a statement or a comprehension): bind the string literals
    /// each target name takes, if ITER is a literal collection or a view of one.
    pub(crate) fn track_loop(&mut self, target: &Expr, iter: &Expr) {
        let Some((rows, via)) = self.rows(iter) else { return };
        let names: Vec<Option<&str>> = match target {
            Expr::Name(n) => vec![Some(n.id.as_str())],
            Expr::Tuple(ast::ExprTuple { elts, .. }) | Expr::List(ast::ExprList { elts, .. }) => elts.iter().map(|e| if let Expr::Name(n) = e { Some(n.id.as_str()) } else { None }).collect(),
            _ => return,
        };
        for (position, name) in names.iter().enumerate() {
            let Some(name) = name else { continue };
            let values: Option<Vec<String>> = rows.iter().map(|row| if row.len() == names.len() { row[position].clone() } else { None }).collect();
            if let Some(values) = values {
                let name: String = nfkc(name).into();
                if let Some(via) = &via {
                    self.census.loop_collections.entry(name.clone()).or_default().push(via.clone());
                }
                *self.census.literal_loop_bindings.entry(name.clone()).or_default() += 1;
                let known = self.census.literal_loops.entry(name).or_default();
                for v in values {
                    if !known.contains(&v) {
                        known.push(v);
                    }
                }
            }
        }
    }

    /// The rows `iter` yields, and the name of the collection they come from (which
    /// must turn out never to change).
    fn rows(&self, iter: &Expr) -> Option<(Rows, Option<String>)> {
        if let Some(Collection::Seq(rows)) = collection_literal(iter) {
            return Some((rows, None));
        }
        let (base, view) = match iter {
            Expr::Call(c) if c.arguments.is_empty() => match &*c.func {
                Expr::Attribute(a) if matches!(a.attr.as_str(), "items" | "keys" | "values") => (&*a.value, a.attr.as_str()),
                _ => return None,
            },
            other => (other, "keys"),
        };
        let (collection, via) = match base {
            Expr::Name(n) => {
                let name: String = nfkc(n.id.as_str()).into();
                (self.census.collections.get(&name)?.clone(), Some(name))
            }
            other => (collection_literal(other)?, None),
        };
        let rows = match (collection, view) {
            (Collection::Seq(rows), "keys") => rows,
            (Collection::Dict(items), "items") => items.into_iter().map(|(k, v)| vec![k, v]).collect(),
            (Collection::Dict(items), "keys") => items.into_iter().map(|(k, _)| vec![k]).collect(),
            (Collection::Dict(items), "values") => items.into_iter().map(|(_, v)| vec![v]).collect(),
            _ => return None,
        };
        Some((rows, via))
    }

    /// Count a read of a name that cannot change what it names (see the module docs).
    pub(crate) fn note_safe_read(&mut self, e: &Expr) {
        if let Expr::Name(n) = e {
            *self.census.safe_reads.entry(nfkc(n.id.as_str()).into()).or_default() += 1;
        }
    }

    /// The reads a call or comparison makes of names without changing them:
    /// `D.items()`, `len(D)`, `x in D`.
    pub(crate) fn note_safe_reads_in(&mut self, e: &Expr) {
        match e {
            Expr::Call(c) => match &*c.func {
                Expr::Attribute(a) if READ_METHODS.contains(&a.attr.as_str()) => self.note_safe_read(&a.value),
                Expr::Name(f) if READ_BUILTINS.contains(&f.id.as_str()) => {
                    for arg in &c.arguments.args {
                        self.note_safe_read(arg);
                    }
                }
                _ => {}
            },
            // Only the last operand of a chain: in `"a" in N in C()` Python also runs
            // `N in C()`, which hands `N` itself to `C.__contains__`.
            Expr::Compare(c) => {
                if let (Some(CmpOp::In | CmpOp::NotIn), Some(right)) = (c.ops.last(), c.comparators.last()) {
                    self.note_safe_read(right);
                }
            }
            _ => {}
        }
    }

    /// The string literals a loop variable can hold, if every binding of the name is
    /// a loop over literals, directly or through collections that never change.
    pub(crate) fn loop_literals(&self, name: &str) -> Option<Vec<String>> {
        let known = &self.known;
        if known.stores.get(name).is_none_or(|&n| Some(&n) != known.literal_loop_bindings.get(name)) {
            return None;
        }
        let collections = known.loop_collections.get(name).map_or(&[][..], Vec::as_slice);
        let frozen = |c: &String| known.bound_once(c) && known.loads.get(c) == known.safe_reads.get(c);
        if !collections.is_empty() && READ_BUILTINS.iter().any(|b| known.stores.contains_key(*b)) {
            return None;
        }
        if !collections.iter().all(frozen) {
            return None;
        }
        known.literal_loops.get(name).cloned()
    }
}

/// A list, tuple, set or dict literal as rows. A row is a string or a tuple: a list
/// inside the collection could be changed through an index (`N[0][0] = ...`, which
/// reads `N` without changing it), so it counts as not literal.
fn collection_literal(e: &Expr) -> Option<Collection> {
    let row = |e: &Expr| match e {
        Expr::Tuple(ast::ExprTuple { elts, .. }) => elts.iter().map(|x| literal_str(x).map(String::from)).collect(),
        other => vec![literal_str(other).map(String::from)],
    };
    match e {
        Expr::Tuple(ast::ExprTuple { elts, .. }) | Expr::List(ast::ExprList { elts, .. }) | Expr::Set(ast::ExprSet { elts, .. }) => Some(Collection::Seq(elts.iter().map(row).collect())),
        Expr::Dict(d) => Some(Collection::Dict(d.items.iter().map(|item| (item.key.as_ref().and_then(literal_str).map(String::from), literal_str(&item.value).map(String::from))).collect())),
        _ => None,
    }
}
