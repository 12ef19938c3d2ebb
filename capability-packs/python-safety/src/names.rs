//! Names the checker treats as dangerous wherever they appear, compared after NFKC
//! normalisation (Python normalises identifiers the same way, so `ｅｖａｌ` *is* `eval`).

use unicode_normalization::UnicodeNormalization;

pub fn nfkc(s: &str) -> String {
    if s.is_ascii() { s.to_string() } else { s.nfkc().collect() }
}

pub fn is_dunder(name: &str) -> bool {
    name.len() > 4 && name.starts_with("__") && name.ends_with("__")
}

/// Builtins that execute code, open files, import, or expose namespaces.
pub const DANGEROUS_BUILTINS: &[&str] = &[
    "eval", "exec", "compile", "open", "__import__", "globals", "locals", "vars", "input", "breakpoint", "help", "exit",
    "quit", "execfile", "reload", "memoryview", "__build_class__", "__loader__", "__spec__", "__builtins__",
];

/// Builtins that take an attribute name: allowed only as a direct call with a string
/// literal name, which is then checked like `obj.name`.
pub const ATTRIBUTE_BUILTINS: &[&str] = &["getattr", "setattr", "delattr", "hasattr"];

/// Modules (and module-like names) that reach the OS, the interpreter or native code.
/// Allowed modules re-export several of them as plain attributes (`json.codecs`,
/// `dataclasses.sys`), so the names are rejected as attributes too.
pub const DANGEROUS_MODULES: &[&str] = &[
    "os", "sys", "posix", "nt", "builtins", "subprocess", "shutil", "importlib", "imp", "socket", "ctypes", "io", "codecs",
    "pathlib", "tempfile", "pickle", "marshal", "shelve", "runpy", "inspect", "gc", "threading", "multiprocessing",
    "concurrent", "pty", "urllib", "http", "ssl", "glob", "zipfile", "tarfile", "sqlite3", "webbrowser", "codeop",
    "linecache", "asyncio", "fcntl", "mmap", "selectors", "faulthandler", "tracemalloc", "zipimport", "pkgutil",
    "sysconfig", "getpass", "ftplib", "smtplib", "telnetlib", "xmlrpc", "weakref", "copyreg", "dis", "opcode", "atexit",
    "_io", "_os", "_sys", "_thread", "_posixsubprocess", "_imp", "_frozen_importlib",
];

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
pub const SAFE_DUNDER_ATTRIBUTES: &[&str] = &["__init__", "__name__", "__doc__", "__qualname__"];

/// Dunder names allowed as plain names (`if __name__ == "__main__":`).
pub const SAFE_DUNDER_NAMES: &[&str] = &["__name__"];
