//! Names the checker treats as dangerous wherever they appear, compared after NFKC
//! normalisation (Python normalises identifiers the same way, so `ｅｖａｌ` *is* `eval`).

use rustc_hash::FxHashSet;
use std::borrow::Cow;
use std::sync::OnceLock;
use unicode_normalization::UnicodeNormalization;

/// A fixed list of names, looked up through a hash set built on first use: the
/// checker asks several lists about every name and attribute of a script. The fast
/// unkeyed hash is safe here: the set is fixed, so a crafted name can only collide
/// with a few dozen entries, never make lookups grow with the script.
pub struct NameSet {
    list: &'static [&'static str],
    set: OnceLock<FxHashSet<&'static str>>,
}

impl NameSet {
    pub const fn new(list: &'static [&'static str]) -> Self {
        NameSet { list, set: OnceLock::new() }
    }

    pub fn contains<S: AsRef<str> + ?Sized>(&self, name: &S) -> bool {
        self.set.get_or_init(|| self.list.iter().copied().collect()).contains(name.as_ref())
    }
}

/// `s` as Python reads it: NFKC-normalised (borrowed as is when it is ASCII, as
/// nearly every name is, so the common case allocates nothing).
pub fn nfkc(s: &str) -> Normal<'_> {
    Normal(if s.is_ascii() { Cow::Borrowed(s) } else { Cow::Owned(s.nfkc().collect()) })
}

/// A name after NFKC normalisation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Normal<'a>(Cow<'a, str>);

impl Normal<'_> {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Normal<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Normal<'_> {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Normal<'_> {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Normal<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for Normal<'_> {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for Normal<'_> {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl From<Normal<'_>> for String {
    fn from(n: Normal<'_>) -> String {
        n.0.into_owned()
    }
}

pub fn is_dunder(name: &str) -> bool {
    name.len() > 4 && name.starts_with("__") && name.ends_with("__")
}

/// Builtins that execute code, open files, import, or expose namespaces: rejected
/// wherever the name appears, even when the script defines its own.
pub static DANGEROUS_BUILTINS: NameSet = NameSet::new(&[
    "eval", "exec", "compile", "open", "__import__", "globals", "locals", "vars", "breakpoint", "execfile", "reload",
    "memoryview", "__build_class__", "__loader__", "__spec__", "__builtins__",
]);

/// Builtins that are harmful only as themselves (they read the console or stop the
/// interpreter): a script may use the names for its own variables (`for input in
/// node.inputs`), so only a use of the builtin itself, a name the script never
/// binds, is rejected.
pub static SOFT_BUILTINS: NameSet = NameSet::new(&["input", "help", "exit", "quit", "copyright", "credits", "license"]);

/// Builtins that take an attribute name: allowed only as a direct call with a string
/// literal name (or a loop variable over string literals), which is then checked
/// like `obj.name`.
pub static ATTRIBUTE_BUILTINS: NameSet = NameSet::new(&["getattr", "setattr", "delattr", "hasattr"]);

/// Attribute names that run code or evaluate strings, on any object.
pub static CODE_ATTRIBUTES: NameSet = NameSet::new(&[
    "exec", "eval", "execfile", "popen", "load_module", "exec_module", "import_module", "getattr", "setattr",
    "delattr", "globals", "locals", "vars", "get_type_hints", "spawnv", "spawnl", "execv", "execl", "fork",
    // String annotations are evaluated by these (`@f.register` on `x: "code()"`).
    "singledispatch", "singledispatchmethod", "ForwardRef", "evaluate_forward_ref", "get_annotations", "_eval_type",
    // Builds a class from names given as data (dunders included), like three-argument
    // `type()`, and compiles code for it.
    "make_dataclass",
    // `enum.global_enum` writes members into any module in sys.modules.
    "global_enum", "global_enum_repr", "global_str", "global_flag_repr",
]);

/// Modules (and module-like names) that reach the OS, the interpreter or native code.
/// Allowed modules re-export several of them as plain attributes (`json.codecs`,
/// `dataclasses.sys`, `enum.bltns`, `random._os`), so they are rejected as attributes
/// on anything and as imported names; a local variable of the same name is harmless
/// (importing or reaching the module is what is checked).
pub static DANGEROUS_MODULES: NameSet = NameSet::new(&[
    "os", "sys", "posix", "nt", "builtins", "bltns", "subprocess", "shutil", "importlib", "imp", "socket", "ctypes", "io",
    "codecs", "pathlib", "tempfile", "pickle", "marshal", "shelve", "runpy", "inspect", "gc", "threading",
    "multiprocessing", "concurrent", "pty", "urllib", "http", "ssl", "glob", "zipfile", "tarfile", "sqlite3",
    "webbrowser", "codeop", "linecache", "asyncio", "fcntl", "mmap", "selectors", "faulthandler", "tracemalloc",
    "zipimport", "pkgutil", "sysconfig", "getpass", "ftplib", "smtplib", "telnetlib", "xmlrpc", "weakref", "copyreg",
    "dis", "opcode", "atexit", "_io", "_os", "_sys", "_thread", "_posixsubprocess", "_imp", "_frozen_importlib",
    "_bootstrap", "_weakref", "_builtins", "_signal", "_ctypes",
    // `warnings.formatwarning` reads any file's lines; `warnings.simplefilter` and
    // `contextlib.redirect_stdout`/`chdir` in a never-closed `ExitStack` change the
    // process for everything that runs after the script.
    "warnings", "contextlib",
]);

/// Module names that are ordinary attribute names elsewhere (`layout.operator`,
/// `node.code`): rejected only as attributes of a module (`fractions.operator`).
/// `system` is here rather than with the code attributes because Blender has its own
/// (`scene.unit_settings.system`); `os.system` needs `os`, which every route to is
/// rejected anyway.
pub static MODULE_ONLY_ATTRIBUTES: NameSet = NameSet::new(&["operator", "string", "types", "code", "select", "signal", "platform", "site", "resource", "open", "compile", "system"]);
/// Attribute names that belong to frames, generators, coroutines, code objects,
/// tracebacks and functions' globals.
pub static INTROSPECTION_ATTRIBUTES: NameSet = NameSet::new(&[
    "f_globals", "f_locals", "f_builtins", "f_back", "f_code", "f_trace", "f_lineno", "gi_frame", "gi_code", "gi_yieldfrom",
    "gi_running", "cr_frame", "cr_code", "cr_await", "ag_frame", "ag_code", "ag_await", "tb_frame", "tb_next", "tb_lasti",
    "co_code", "co_consts", "co_names", "co_varnames", "co_filename", "func_globals", "func_code", "func_closure",
    "im_func", "im_self", "cell_contents", "mro", "CodeType", "FunctionType", "LambdaType", "FrameType", "TracebackType",
    "ModuleType", "MethodType", "GeneratorType", "CellType",
]);

/// Dunder attributes that are safe to touch: calling a base class's `__init__`,
/// reading a type's or function's name and docstring.
/// Dunder attributes that are safe to touch: calling a base class's `__init__`,
/// reading a type's or function's name and docstring. Everything else, `__class__`
/// included (DESIGN.md section 10: dunder access is rejected; `type(x)` is the way).
pub static SAFE_DUNDER_ATTRIBUTES: NameSet = NameSet::new(&["__init__", "__name__", "__doc__", "__qualname__"]);

/// Dunder methods a class may not define: on a metaclass they decide what a class
/// body's names mean (`__prepare__`), what `Cls.__match_args__` is and whether any
/// object matches a class pattern, which turns `case Cls(x)` into attribute access by
/// names the script computes; `__mro_entries__` swaps the bases of a class statement.
/// A metaclass cannot be recognised reliably (`M = type(abc.ABC)` makes one from a
/// value), so the hooks are refused in every class.
/// `__reduce__`/`__reduce_ex__` tell `copy.copy` which callable to rebuild an object
/// with and which attributes to set on the result by name: `setattr` with names given
/// as data, on an object of the script's choosing (a module, say).
pub static LOOKUP_HOOKS: NameSet = NameSet::new(&["__prepare__", "__getattr__", "__getattribute__", "__instancecheck__", "__subclasscheck__", "__mro_entries__", "__reduce__", "__reduce_ex__"]);

/// Standard-library helpers that read or write attributes by names given as data, or
/// hand out the `Field` objects whose names `dataclasses` pastes into the code it
/// generates (renaming one injects code into the next dataclass built on it):
/// rejected wherever the name appears as an attribute or is imported.
/// Standard-library calls that change state shared by everything else running in
/// Blender's interpreter: the thread's decimal context (`getcontext().prec = 3`).
pub static SHARED_STATE_ATTRIBUTES: NameSet = NameSet::new(&["getcontext", "setcontext"]);

pub static CLASS_BUILDER_ATTRIBUTES: NameSet = NameSet::new(&["update_wrapper", "fields", "Field"]);

/// The public API of named tuples, underscored only to keep clear of field names:
/// no module or class reachable from the allowed modules has attributes by these
/// names that lead anywhere else.
pub static NAMEDTUPLE_API: NameSet = NameSet::new(&["_asdict", "_replace", "_fields", "_make", "_field_defaults"]);

/// `from __future__ import ...` features a script may name: compiler directives with
/// no runtime reach. (Not `barry_as_FLUFL`, which changes what the parser accepts.)
pub static FUTURE_FEATURES: NameSet = NameSet::new(&[
    "annotations", "division", "print_function", "absolute_import", "generators", "nested_scopes", "with_statement",
    "unicode_literals", "generator_stop",
]);

/// Dunder names allowed as plain names (`if __name__ == "__main__":`).
pub static SAFE_DUNDER_NAMES: NameSet = NameSet::new(&["__name__"]);
