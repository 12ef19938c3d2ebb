//! What the first walk learns about the whole script, for the second walk to judge by.

use std::collections::{HashMap, HashSet};

/// What a first walk learns about the whole script, so the second walk can judge a
/// use by every binding of its name, wherever that binding is (a function body may
/// use an alias assigned below it).
#[derive(Debug, Default, Clone)]
pub struct Census {
    /// How often each name is bound (assigned, a loop or handler target, a parameter,
    /// a definition, an import).
    pub stores: HashMap<String, u32>,
    /// Module-level `NAME = "literal"`.
    pub str_consts: HashMap<String, String>,
    /// `for NAME in ("a", "b")`: the literal values a loop variable takes.
    pub literal_loops: HashMap<String, Vec<String>>,
    /// How many bindings of a name are loops over literals (`loops.rs`).
    pub literal_loop_bindings: HashMap<String, u32>,
    /// Loop variables whose literals come from named collections, and their names.
    pub loop_collections: HashMap<String, Vec<String>>,
    /// `NAME = [...]` / `{...}`: collection literals bound to a name.
    pub collections: HashMap<String, crate::loops::Collection>,
    /// How often each name is read, and how often in a way that cannot change it.
    pub loads: HashMap<String, u32>,
    pub safe_reads: HashMap<String, u32>,
    /// Names ever bound to `type(x)` or to an element of a literal (`is_class_handle`).
    pub type_handles: HashSet<String>,
    /// Names ever bound to `type(x)` itself (`is_type_of`).
    pub type_of: HashSet<String>,
    /// Every dotted module path each name was ever bound to (`o = bpy.ops`). Never
    /// forgotten: a rebinding in a branch that may not run does not clear it.
    pub aliases: HashMap<String, Vec<Vec<String>>>,
    /// How many bindings of each name are `def` statements.
    pub function_bindings: HashMap<String, u32>,
    /// Names of functions defined with a decorator (which may replace them).
    pub decorated: HashSet<String>,
    /// How many bindings of each name are `class` statements.
    pub class_bindings: HashMap<String, u32>,
    /// How many bindings of each name bind a module path (an import, `o = json`).
    pub module_bindings: HashMap<String, u32>,
    /// Names bound to a node collection (`nodes = tree.nodes`, `handles.rs`).
    pub node_names: HashSet<String>,
}

impl Census {
    pub(crate) fn bound_once(&self, name: &str) -> bool {
        self.stores.get(name) == Some(&1)
    }
}
