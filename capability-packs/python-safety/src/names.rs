//! Names the checker treats as dangerous wherever they appear, compared after NFKC
//! normalisation (Python normalises identifiers the same way, so `ｅｖａｌ` *is* `eval`).

use unicode_normalization::UnicodeNormalization;

pub fn nfkc(s: &str) -> String {
    if s.is_ascii() { s.to_string() } else { s.nfkc().collect() }
}

pub fn is_dunder(name: &str) -> bool {
    name.len() > 4 && name.starts_with("__") && name.ends_with("__")
}

/// Builtins that execute code, open files, import, or expose namespaces: rejected
/// wherever the name appears, even when the script defines its own.
pub const DANGEROUS_BUILTINS: &[&str] = &[
    "eval", "exec", "compile", "open", "__import__", "globals", "locals", "vars", "breakpoint", "execfile", "reload",
    "memoryview", "__build_class__", "__loader__", "__spec__", "__builtins__",
];

/// Builtins that are harmful only as themselves (they read the console or stop the
/// interpreter): a script may use the names for its own variables (`for input in
/// node.inputs`), so only a use of the builtin itself, a name the script never
/// binds, is rejected.
pub const SOFT_BUILTINS: &[&str] = &["input", "help", "exit", "quit", "copyright", "credits", "license"];

/// Builtins that take an attribute name: allowed only as a direct call with a string
/// literal name (or a loop variable over string literals), which is then checked
/// like `obj.name`.
pub const ATTRIBUTE_BUILTINS: &[&str] = &["getattr", "setattr", "delattr", "hasattr"];

/// Attribute names that run code or evaluate strings, on any object.
pub const CODE_ATTRIBUTES: &[&str] = &[
    "exec", "eval", "execfile", "system", "popen", "load_module", "exec_module", "import_module", "getattr", "setattr",
    "delattr", "globals", "locals", "vars", "get_type_hints", "spawnv", "spawnl", "execv", "execl", "fork",
];

/// Modules (and module-like names) that reach the OS, the interpreter or native code.
/// Allowed modules re-export several of them as plain attributes (`json.codecs`,
/// `dataclasses.sys`, `enum.bltns`, `random._os`), so they are rejected as attributes
/// on anything and as imported names; a local variable of the same name is harmless
/// (importing or reaching the module is what is checked).
pub const DANGEROUS_MODULES: &[&str] = &[
    "os", "sys", "posix", "nt", "builtins", "bltns", "subprocess", "shutil", "importlib", "imp", "socket", "ctypes", "io",
    "codecs", "pathlib", "tempfile", "pickle", "marshal", "shelve", "runpy", "inspect", "gc", "threading",
    "multiprocessing", "concurrent", "pty", "urllib", "http", "ssl", "glob", "zipfile", "tarfile", "sqlite3",
    "webbrowser", "codeop", "linecache", "asyncio", "fcntl", "mmap", "selectors", "faulthandler", "tracemalloc",
    "zipimport", "pkgutil", "sysconfig", "getpass", "ftplib", "smtplib", "telnetlib", "xmlrpc", "weakref", "copyreg",
    "dis", "opcode", "atexit", "_io", "_os", "_sys", "_thread", "_posixsubprocess", "_imp", "_frozen_importlib",
    "_bootstrap", "_weakref", "_builtins", "_signal", "_ctypes",
];

/// Module names that are ordinary attribute names elsewhere (`layout.operator`,
/// `node.code`): rejected only as attributes of a module (`fractions.operator`).
pub const MODULE_ONLY_ATTRIBUTES: &[&str] = &["operator", "string", "types", "code", "select", "signal", "platform", "site", "resource", "open", "compile"];
/// Attribute names that belong to frames, generators, coroutines, code objects,
/// tracebacks and functions' globals.
pub const INTROSPECTION_ATTRIBUTES: &[&str] = &[
    "f_globals", "f_locals", "f_builtins", "f_back", "f_code", "f_trace", "f_lineno", "gi_frame", "gi_code", "gi_yieldfrom",
    "gi_running", "cr_frame", "cr_code", "cr_await", "ag_frame", "ag_code", "ag_await", "tb_frame", "tb_next", "tb_lasti",
    "co_code", "co_consts", "co_names", "co_varnames", "co_filename", "func_globals", "func_code", "func_closure",
    "im_func", "im_self", "cell_contents", "mro", "CodeType", "FunctionType", "LambdaType", "FrameType", "TracebackType",
    "ModuleType", "MethodType", "GeneratorType", "CellType",
];

/// Dunder attributes that are safe to touch: calling a base class's `__init__`,
/// reading a type's or function's name and docstring.
/// Dunder attributes that are safe to touch: calling a base class's `__init__`,
/// reading a type's or function's name and docstring. Everything else, `__class__`
/// included (DESIGN.md section 10: dunder access is rejected; `type(x)` is the way).
pub const SAFE_DUNDER_ATTRIBUTES: &[&str] = &["__init__", "__name__", "__doc__", "__qualname__"];

/// Dunder names allowed as plain names (`if __name__ == "__main__":`).
pub const SAFE_DUNDER_NAMES: &[&str] = &["__name__"];
