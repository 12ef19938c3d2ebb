//! The rule ids (stable: scripts and tests match on them) and the finding shape.

/// One reason a script is rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// The source does not parse as Python 3.11 (fail closed).
    ParseError,
    /// Syntax the checker does not analyse (async, 3.12 type parameters): rejected.
    UnsupportedSyntax,
    /// Brackets or expressions nested deeper than the checker follows.
    NestingTooDeep,
    ImportNotAllowed,
    ImportRelative,
    ImportStar,
    /// A private (`_name`) part in an import.
    ImportPrivate,
    /// `eval`, `exec`, `open`, `compile`, `globals`, ... wherever the name appears.
    DangerousBuiltin,
    /// A module name that reaches the OS or the interpreter (`os`, `sys`, `builtins`, ...).
    DangerousName,
    /// A name from the policy's extra denied names.
    DeniedName,
    /// A `__dunder__` name other than `__name__`.
    DunderName,
    /// Access to a `__dunder__` attribute (defining `__init__` is fine).
    DunderAttribute,
    /// Access to a `_private` attribute of anything but `self` / `cls`.
    PrivateAttribute,
    /// `getattr` / `setattr` / `delattr` / `hasattr` with a name that is not a literal.
    DynamicAttribute,
    /// `str.format` traversing attributes, or on a string that is not a literal.
    FormatTraversal,
    /// Frame, generator, coroutine, code and traceback internals.
    Introspection,
    /// Blender routes that run Python: `bpy.ops.wm|script|text|console`, `execfile`,
    /// text blocks as modules, drivers and their namespace.
    BlenderCodeExecution,
    /// Code that outlives the script: app handlers, timers, message bus, draw and modal
    /// handlers, add-on and preference operators, auto-run settings.
    BlenderPersistence,
    /// Files on disk: open/save/link .blend files, import/export, image and render
    /// writes, file paths set on datablocks, libraries.
    BlenderFileAccess,
    /// Blender's Python-defined classes reached through `bpy.types` (operators, menus,
    /// panels, ... and their Python bases), methods taken from a class (`bpy.types.X.m`,
    /// `type(x).m`), and subclasses of `bpy.types` classes: their methods evaluate
    /// strings, import modules and write files with any object as `self`.
    BlenderPythonClass,
    /// Code the interpreter runs on its own, later or implicitly, outside the script's
    /// own calls: dunder methods other than the few value-object ones (`__del__`,
    /// `__init_subclass__`, `__set_name__`, conversion and protocol hooks), generator
    /// cleanup code (`yield` inside `try`/`with`), subclasses of the builtin data types
    /// (whose overridden methods run inside whatever copies or serialises them).
    ImplicitCode,
    /// A Blender handle passed around as a value: `bpy.ops` categories and operators,
    /// `bpy.data` collections and node collections may only be used where written
    /// (`bpy.ops.mesh.primitive_cube_add(...)`, `bpy.data.objects["Cube"]`,
    /// `tree.nodes.new("ShaderNodeTexNoise")`), so the checker sees what they reach.
    BlenderValueEscape,
}

impl Rule {
    pub fn id(self) -> &'static str {
        match self {
            Rule::ParseError => "parse-error",
            Rule::UnsupportedSyntax => "unsupported-syntax",
            Rule::NestingTooDeep => "nesting-too-deep",
            Rule::ImportNotAllowed => "import-not-allowed",
            Rule::ImportRelative => "import-relative",
            Rule::ImportStar => "import-star",
            Rule::ImportPrivate => "import-private",
            Rule::DangerousBuiltin => "dangerous-builtin",
            Rule::DangerousName => "dangerous-name",
            Rule::DeniedName => "denied-name",
            Rule::DunderName => "dunder-name",
            Rule::DunderAttribute => "dunder-attribute",
            Rule::PrivateAttribute => "private-attribute",
            Rule::DynamicAttribute => "dynamic-attribute",
            Rule::FormatTraversal => "format-traversal",
            Rule::Introspection => "introspection",
            Rule::BlenderCodeExecution => "blender-code-execution",
            Rule::BlenderPersistence => "blender-persistence",
            Rule::BlenderFileAccess => "blender-file-access",
            Rule::BlenderPythonClass => "blender-python-class",
            Rule::ImplicitCode => "implicit-code",
            Rule::BlenderValueEscape => "blender-value-escape",
        }
    }

    pub const ALL: [Rule; 22] = [
        Rule::ParseError,
        Rule::UnsupportedSyntax,
        Rule::NestingTooDeep,
        Rule::ImportNotAllowed,
        Rule::ImportRelative,
        Rule::ImportStar,
        Rule::ImportPrivate,
        Rule::DangerousBuiltin,
        Rule::DangerousName,
        Rule::DeniedName,
        Rule::DunderName,
        Rule::DunderAttribute,
        Rule::PrivateAttribute,
        Rule::DynamicAttribute,
        Rule::FormatTraversal,
        Rule::Introspection,
        Rule::BlenderCodeExecution,
        Rule::BlenderPersistence,
        Rule::BlenderFileAccess,
        Rule::BlenderPythonClass,
        Rule::ImplicitCode,
        Rule::BlenderValueEscape,
    ];

    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.id() == id)
    }
}

/// A rejected node: the rule, what and why, and where (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: Rule,
    pub message: String,
    pub line: u32,
    pub column: u32,
}

/// The checker's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub allowed: bool,
    pub findings: Vec<Finding>,
}
