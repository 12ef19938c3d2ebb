//! Code the interpreter runs on its own: later, or implicitly, outside the calls the
//! script writes.
//!
//! Security reasoning: the checker judges the calls a script writes. A method the
//! interpreter calls by itself runs wherever the object goes, and an object can go past
//! the script: handed back as its `result`, left in a structure something else reads,
//! or collected later by the garbage collector on whatever thread happens to run it.
//! At that point the runtime guard may be off and the deadline stopped. Issue 26 found
//! exactly that: a `dict` subclass handed back as the result, whose `__del__` ran at the
//! next `execute_python` call and, unguarded, wrote a Python file with an operator.
//! So the checker refuses the ways a script hands the interpreter code to run later:
//!
//! - **dunder method definitions**, except the value-object ones ordinary scene code
//!   defines (the shipped benign corpus): `__init__` and `__post_init__` (run only when
//!   the script constructs an object), `__repr__` (formatting), `__eq__` and `__lt__`
//!   (comparisons; defining `__eq__` without `__hash__`, and `__hash__` is refused,
//!   makes instances unhashable, so they can never become the key of a cache that a
//!   later lookup compares against). Everything else is refused: finalisers
//!   (`__del__`), class-creation hooks (`__init_subclass__`, `__set_name__`,
//!   `__class_getitem__`, `__new__`), pickling and copying hooks (`__reduce__`,
//!   `__getstate__`, ...), attribute hooks, context managers (`__enter__`/`__exit__`
//!   run at any `with`, a generator's cleanup included), and the conversion and
//!   protocol hooks C code calls while it converts a value (`__index__`, `__float__`,
//!   `__int__`, `__bool__`, `__len__`, `__iter__`, `__hash__`, `__str__`, `__format__`,
//!   `__getitem__`, ...): Blender's C code and the add-on call those on whatever they
//!   are handed, not only where the script calls them. (The lookup hooks,
//!   `__getattr__` and the like, keep their own rule, `dynamic-attribute`.)
//! - **generator cleanup code**: a `yield` inside a `try` or `with` block. A generator
//!   left suspended there runs its `finally`, its handlers (`GeneratorExit` is raised
//!   into it) or its context manager's exit when it is closed, which happens when it
//!   is collected: a finaliser written without a dunder.
//! - **subclasses of the mapping types** (`dict`, `OrderedDict`, `defaultdict`,
//!   `Counter`, `ChainMap`, `UserDict`, `typing.Dict`, ...) and **class bases the
//!   checker cannot name** (a call, a name bound to a computed value, an attribute of
//!   something that is not a module): a mapping passes for plain data, and what
//!   serialises or copies it calls its overridable methods (`items`, `keys`,
//!   `__getitem__`) by their ordinary names, so no dunder rule would see them.
//!
//! `weakref.finalize` and `atexit.register`, the library's own ways to run code later,
//! need modules that are never allowed (`dangerous-name`, `import-not-allowed`).

use crate::analyze::Analyzer;
use crate::names::{NameSet, nfkc};
use crate::rules::Rule;
use ruff_ast::Expr;

/// The dunder methods a class may define: the value-object ones, each run only by an
/// explicit construction, comparison or formatting (see the module docs).
pub static VALUE_DUNDERS: NameSet = NameSet::new(&["__init__", "__post_init__", "__repr__", "__eq__", "__lt__"]);

/// The builtin mapping type, by its builtin name.
const BUILTIN_MAPPINGS: &[&str] = &["dict"];

/// Mapping types of the allowed modules, as module paths.
const MODULE_MAPPINGS: &[(&str, &str)] = &[
    ("collections", "OrderedDict"),
    ("collections", "defaultdict"),
    ("collections", "Counter"),
    ("collections", "ChainMap"),
    ("collections", "UserDict"),
    ("typing", "Dict"),
    ("typing", "DefaultDict"),
    ("typing", "OrderedDict"),
    ("typing", "Counter"),
    ("typing", "ChainMap"),
];

/// Why defining the dunder method `name` hands the interpreter code to run by itself.
fn why_implicit(name: &str) -> &'static str {
    match name {
        "__del__" => "a finaliser runs whenever the object is collected, possibly after the script and outside its guard",
        "__init_subclass__" | "__set_name__" | "__class_getitem__" | "__new__" => "it runs when a class is created, subclassed or subscripted, wherever that happens",
        "__enter__" | "__exit__" | "__aenter__" | "__aexit__" => "a context manager's exit runs at every `with` that uses it, a collected generator's cleanup included",
        "__reduce__" | "__reduce_ex__" | "__getstate__" | "__setstate__" | "__copy__" | "__deepcopy__" | "__getnewargs__" | "__getnewargs_ex__" => "copying or pickling calls it and acts on what it returns",
        _ => "the interpreter and Blender's C code call it on their own whenever they convert, compare, hash, iterate or format the object, not only where the script does",
    }
}

impl Analyzer<'_> {
    /// `def NAME` where NAME is a dunder (the lookup hooks are judged by the caller).
    pub(crate) fn dunder_definition(&mut self, name: &str, at: usize) {
        if VALUE_DUNDERS.contains(name) {
            return;
        }
        self.report(Rule::ImplicitCode, at, format!("defining `{name}` gives the interpreter code to run by itself: {}; a class may define only `__init__`, `__post_init__`, `__repr__`, `__eq__` and `__lt__`", why_implicit(name)));
    }

    /// A class base: a mapping type, or a base the checker cannot name.
    pub(crate) fn judge_base(&mut self, base: &Expr, at: usize) {
        // `dict[str, int]`, `typing.Dict[str, int]`: the class is made from the subscripted type.
        let base = match base {
            Expr::Subscript(s) => &*s.value,
            other => other,
        };
        let paths = self.resolve(base);
        let mapping_path = paths.iter().find(|p| matches!(p.as_slice(), [m, t] if MODULE_MAPPINGS.iter().any(|(mm, tt)| m == mm && t == tt)));
        if let Some(path) = mapping_path {
            self.report(Rule::ImplicitCode, at, format!("a subclass of `{}` passes for plain data, and whatever copies or serialises it calls its methods (`items`, `keys`) after the script", path.join(".")));
            return;
        }
        match base {
            Expr::Name(n) => {
                let n = nfkc(n.id.as_str());
                let stores = self.known.stores.get(n.as_str()).copied().unwrap_or(0);
                if stores == 0 && BUILTIN_MAPPINGS.contains(&n.as_str()) {
                    self.report(Rule::ImplicitCode, at, format!("a subclass of `{n}` passes for plain data, and whatever copies or serialises it calls its methods (`items`, `keys`) after the script"));
                    return;
                }
                // Bound only by `class` statements and imports: a class the checker sees.
                let named = self.known.class_bindings.get(n.as_str()).copied().unwrap_or(0) + self.known.module_bindings.get(n.as_str()).copied().unwrap_or(0);
                if stores > named {
                    self.report(Rule::ImplicitCode, at, format!("the base `{n}` is bound to a value computed at run time, which could be `dict` (whose subclasses pass for plain data); use a class defined or imported by name"));
                }
            }
            Expr::Attribute(_) if !paths.is_empty() => {}
            Expr::Attribute(_) | Expr::Call(_) | Expr::Subscript(_) | Expr::Named(_) | Expr::If(_) | Expr::BoolOp(_) | Expr::Starred(_) => {
                self.report(Rule::ImplicitCode, at, "a class base computed at run time could be `dict` (whose subclasses pass for plain data); use a class defined or imported by name".into());
            }
            _ => {}
        }
    }

    /// `yield` inside a `try` or `with` block: code that runs when the generator is
    /// closed, which a collected generator is, whenever that happens.
    pub(crate) fn yield_in_cleanup(&mut self, at: usize) {
        if self.cleanup_blocks > 0 {
            self.report(Rule::ImplicitCode, at, "a `yield` inside `try` or `with` leaves cleanup code (`finally`, a handler, a context manager's exit) that runs whenever the generator is collected, possibly after the script; move the `yield` out of the block".into());
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule;
    use crate::testing::{allowed, rules};

    #[test]
    fn finalisers_and_class_hooks_are_refused() {
        for (src, line) in [
            ("class R(object):\n    def __del__(self):\n        pass\n", 2),
            ("class B:\n    def __init_subclass__(cls, **kw):\n        pass\n", 2),
            ("class D:\n    def __set_name__(self, owner, name):\n        pass\n", 2),
            ("class G:\n    def __class_getitem__(cls, item):\n        return cls\n", 2),
            ("class N:\n    def __new__(cls):\n        return 1\n", 2),
            ("class C:\n    def __enter__(self):\n        return self\n    def __exit__(self, *a):\n        return True\n", 2),
            ("class S:\n    def __getstate__(self):\n        return {}\n", 2),
            ("def __del__(self):\n    pass\n", 1),
        ] {
            let found = rules(src);
            assert!(found.iter().any(|(r, l, c)| *r == Rule::ImplicitCode && *l == line && *c >= 1), "{src}: {found:?}");
        }
    }

    #[test]
    fn conversion_and_protocol_hooks_are_refused() {
        for name in ["__hash__", "__str__", "__format__", "__iter__", "__len__", "__bool__", "__index__", "__float__", "__int__", "__getitem__", "__contains__", "__call__", "__missing__", "__copy__", "__deepcopy__", "__ne__", "__gt__", "__add__"] {
            let src = format!("class V:\n    def {name}(self, *a):\n        return 0\n");
            assert!(rules(&src).iter().any(|(r, ..)| *r == Rule::ImplicitCode), "{name}");
        }
    }

    #[test]
    fn the_lookup_hooks_keep_their_rule() {
        let found = rules("class V:\n    def __getattr__(self, n):\n        return 0\n");
        assert!(found.iter().any(|(r, ..)| *r == Rule::DynamicAttribute), "{found:?}");
    }

    #[test]
    fn value_object_dunders_pass() {
        assert!(allowed(
            "from dataclasses import dataclass\n\n@dataclass\nclass P:\n    x: int = 0\n    def __post_init__(self):\n        self.x += 1\n\nclass K:\n    def __init__(self, k):\n        self.k = k\n    def __repr__(self):\n        return f\"K({self.k})\"\n    def __eq__(self, other):\n        return self.k == other.k\n    def __lt__(self, other):\n        return self.k < other.k\n\nresult = sorted([K(2), K(1)])[0].k\n"
        ));
    }

    #[test]
    fn dunders_assigned_in_a_class_body_stay_refused() {
        assert!(!allowed("class R:\n    __del__ = print\n"));
        assert!(!allowed("class R:\n    pass\nR.__del__ = print\n"));
        assert!(!allowed("class R:\n    pass\nsetattr(R, '__del__', print)\n"));
    }

    #[test]
    fn weakref_finalize_and_atexit_are_refused() {
        assert!(!allowed("import weakref\nweakref.finalize(object(), print)\n"));
        assert!(!allowed("import atexit\natexit.register(print)\n"));
        assert!(!allowed("import json\njson.weakref\n"));
    }

    #[test]
    fn generator_cleanup_code_is_refused() {
        for src in [
            "def g():\n    try:\n        yield 1\n    finally:\n        print('later')\n",
            "def g():\n    try:\n        yield 1\n    except BaseException:\n        print('later')\n",
            "import decimal\ndef g():\n    with decimal.localcontext():\n        yield 1\n",
            "def g():\n    try:\n        pass\n    finally:\n        yield from range(3)\n",
        ] {
            let found = rules(src);
            assert!(found.iter().any(|(r, l, _)| *r == Rule::ImplicitCode && *l >= 3), "{src}: {found:?}");
        }
        // A try inside the generator that does not enclose a yield is fine, and so is a
        // yield in a function nested inside a try.
        assert!(allowed("def g(xs):\n    for x in xs:\n        try:\n            v = int(x)\n        except ValueError:\n            v = 0\n        yield v\n"));
        assert!(allowed("try:\n    def g():\n        yield 1\nexcept ValueError:\n    pass\n"));
    }

    #[test]
    fn mapping_subclasses_and_computed_bases_are_refused() {
        for src in [
            "class R(dict):\n    pass\n",
            "class R(dict[str, int]):\n    pass\n",
            "import collections\nclass R(collections.OrderedDict):\n    pass\n",
            "from collections import defaultdict as dd\nclass R(dd):\n    pass\n",
            "import typing\nclass R(typing.Dict[str, int]):\n    pass\n",
            "B = dict\nclass R(B):\n    pass\n",
            "def base():\n    return dict\nclass R(base()):\n    pass\n",
            "def base():\n    return dict\nB = base()\nclass R(B):\n    pass\n",
            "class H:\n    pass\nh = H()\nclass R(h.base):\n    pass\n",
        ] {
            let found = rules(src);
            assert!(found.iter().any(|(r, ..)| *r == Rule::ImplicitCode), "{src}: {found:?}");
        }
        assert!(allowed("from enum import Enum\nfrom abc import ABC\nimport typing\nclass E(Enum):\n    A = 1\nclass P(ABC):\n    pass\nclass Q(P):\n    pass\nclass T(typing.NamedTuple):\n    x: int\nclass U(typing.Generic[typing.TypeVar('X')]):\n    pass\n"));
    }
}
