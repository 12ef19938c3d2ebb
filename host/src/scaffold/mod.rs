//! Pack authoring: `capstan packs new` (a working pack folder from templates) and
//! `capstan packs build` (compile, seal, validate; `build.rs`).
//!
//! One module per language (`rust`, `python`, `js`): its templates and how its
//! compiler is run. The language's generic files are under `scaffold/templates/<lang>/`;
//! the pack itself (manifest, capabilities, tests, README) is the app unit's
//! ([`crate::app_unit::PackTemplates`]); both are embedded with `include_str!`, with
//! `{{placeholders}}` filled in by [`render`]. Every language scaffolds the same two
//! capabilities (`<ns>.count_objects`, read-only; `<ns>.add_marker`, mutating) with the
//! same conformance cases, so one test proves each against the real app. Python and JavaScript compilers are pinned and installed
//! on first use (`toolchain.rs`).
//!
//! Nothing is written unless everything can be: the files go into a temporary folder
//! beside the target, which is renamed into place at the end, and an existing target
//! is refused before anything is created.

pub mod build;
pub mod build_code;
mod child;
mod js;
mod python;
mod rust;
/// The SDK version `packs new` asks for outside a checkout (the contract it builds).
pub use rust::SDK_VERSION;
pub mod toolchain;

use serde::Serialize;
use std::path::{Path, PathBuf};

/// The languages `packs new` knows (each has its module).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    Rust,
    Python,
    Js,
}

impl Lang {
    pub fn as_str(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::Python => "python",
            Lang::Js => "js",
        }
    }
}

/// Where the scaffold's `capstan-sdk` dependency comes from (and `capstan-blender`'s:
/// the SDK's `blender/` crate, or the published crate of the same version).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum SdkSource {
    /// A local `sdk/` folder (a capstan checkout): `capstan-sdk = { path = ... }`.
    Path(PathBuf),
    /// The published crate: `capstan-sdk = "<version>"`.
    Version(String),
}

/// What the user asked for about the SDK.
#[derive(Debug, Clone, Default)]
pub struct SdkChoice {
    pub path: Option<PathBuf>,
    pub version: Option<String>,
}

pub struct NewOptions {
    pub name: String,
    pub lang: Lang,
    /// The folder the pack folder is created in.
    pub parent: PathBuf,
    pub sdk: SdkChoice,
}

/// A scaffolded pack.
#[derive(Debug, Clone, Serialize)]
pub struct Scaffolded {
    pub name: String,
    pub lang: Lang,
    pub dir: PathBuf,
    /// Paths relative to `dir`.
    pub files: Vec<String>,
    /// Rust packs only: where `capstan-sdk` comes from.
    pub sdk: Option<SdkSource>,
    /// The capability keys the scaffold declares.
    pub capabilities: Vec<String>,
}

#[derive(Debug, Clone, thiserror::Error, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum ScaffoldError {
    #[error("invalid pack name: {reason}")]
    InvalidName { name: String, reason: String },
    #[error("{} already exists; nothing was written (choose another NAME or --dir)", path.display())]
    Exists { path: PathBuf },
    #[error("the parent folder {} does not exist; nothing was written", path.display())]
    NoParent { path: PathBuf },
    #[error("--sdk and --sdk-version choose the SDK of a Rust pack; a {lang} pack has none")]
    SdkForLang { lang: String },
    #[error("{}: not a capstan-sdk crate ({reason})", path.display())]
    SdkNotFound { path: PathBuf, reason: String },
    #[error("{}: {detail}; nothing was written", path.display())]
    Io { path: PathBuf, detail: String },
    #[error("no registered app has pack templates; nothing was written")]
    NoTemplates,
}

impl ScaffoldError {
    /// The stable snake_case code (`--json` prints it).
    pub fn code(&self) -> &'static str {
        match self {
            ScaffoldError::InvalidName { .. } => "invalid_name",
            ScaffoldError::Exists { .. } => "exists",
            ScaffoldError::NoParent { .. } => "no_parent",
            ScaffoldError::SdkForLang { .. } => "sdk_for_lang",
            ScaffoldError::SdkNotFound { .. } => "sdk_not_found",
            ScaffoldError::Io { .. } => "io",
            ScaffoldError::NoTemplates => "no_templates",
        }
    }
}

/// The names a template may use, in the order they are substituted.
pub(crate) struct Names {
    /// The pack name (`demo-pack`): the manifest's `name` and the crate's.
    pub name: String,
    /// The crate's library name (`demo_pack`), which names the component file.
    pub crate_name: String,
    /// The capability namespace (`demo_pack`: keys are `demo_pack.count_objects`).
    pub namespace: String,
}

impl Names {
    pub fn new(name: &str) -> Self {
        let crate_name = name.replace('-', "_");
        // Keys are at most 63 characters: `<namespace>.count_objects` must fit.
        let longest_verb = ".count_objects".len();
        let mut namespace: String = crate_name.chars().take(63 - longest_verb).collect();
        while namespace.ends_with('_') {
            namespace.pop();
        }
        Names { name: name.to_string(), crate_name, namespace }
    }
}

/// Fill `{{name}}`, `{{crate}}`, `{{ns}}` and the extra placeholders into a template.
pub(crate) fn render(template: &str, names: &Names, extra: &[(&str, &str)]) -> String {
    let mut out = template.replace("{{name}}", &names.name).replace("{{crate}}", &names.crate_name).replace("{{ns}}", &names.namespace);
    for (key, value) in extra {
        out = out.replace(&format!("{{{{{key}}}}}"), value);
    }
    debug_assert!(!out.contains("{{"), "a placeholder is left in a template");
    out
}

/// Render a language's template table: (path in the pack folder, template).
pub(crate) fn render_all(table: &[(&str, &str)], names: &Names) -> Vec<(String, String)> {
    table.iter().map(|(path, template)| (path.to_string(), render(template, names, &[]))).collect()
}

/// The scaffolded app's templates (its unit's), or why there are none.
pub(crate) fn app_templates() -> Result<crate::app_unit::PackTemplates, ScaffoldError> {
    crate::app_units::scaffold_unit().and_then(|u| u.pack_templates()).ok_or(ScaffoldError::NoTemplates)
}

/// Scaffold a pack folder `<parent>/<name>`.
pub fn new_pack(options: &NewOptions) -> Result<Scaffolded, ScaffoldError> {
    if let Some(reason) = crate::manifest::pack_name_problem(&options.name) {
        return Err(ScaffoldError::InvalidName { name: options.name.clone(), reason });
    }
    if !options.parent.is_dir() {
        return Err(ScaffoldError::NoParent { path: options.parent.clone() });
    }
    let dir = options.parent.join(&options.name);
    if std::fs::symlink_metadata(&dir).is_ok() {
        return Err(ScaffoldError::Exists { path: dir });
    }
    if options.lang != Lang::Rust && (options.sdk.path.is_some() || options.sdk.version.is_some()) {
        return Err(ScaffoldError::SdkForLang { lang: options.lang.as_str().into() });
    }
    let names = Names::new(&options.name);
    let (files, sdk) = match options.lang {
        Lang::Rust => rust::files(&names, &options.sdk).map(|(f, sdk)| (f, Some(sdk)))?,
        Lang::Python => (python::files(&names)?, None),
        Lang::Js => (js::files(&names)?, None),
    };
    write_all(&options.parent, &dir, &files)?;
    Ok(Scaffolded {
        name: options.name.clone(),
        lang: options.lang,
        dir,
        files: files.iter().map(|(p, _)| p.clone()).collect(),
        sdk,
        capabilities: vec![format!("{}.count_objects", names.namespace), format!("{}.add_marker", names.namespace)],
    })
}

/// The pack contract Python and JavaScript packs are compiled against: the WIT this
/// binary loads (`wit/pack@0.2.0`), so a pack cannot be built against another copy.
const PACK_WIT: &str = include_str!("../../../wit/pack@0.2.0/pack.wit");

/// Write the pack contract to `<work>/wit/pack.wit`; the folder's path.
pub(crate) fn write_pack_wit(work: &Path) -> Result<PathBuf, build::BuildError> {
    let wit = work.join("wit");
    let io = |e: std::io::Error| build::BuildError::Io { path: wit.clone(), detail: e.to_string() };
    std::fs::create_dir_all(&wit).map_err(io)?;
    std::fs::write(wit.join("pack.wit"), PACK_WIT).map_err(io)?;
    Ok(wit)
}

/// Write every file into a temporary folder in `parent`, then rename it to `dir`.
fn write_all(parent: &Path, dir: &Path, files: &[(String, String)]) -> Result<(), ScaffoldError> {
    let io = |path: &Path, e: std::io::Error| ScaffoldError::Io { path: path.to_path_buf(), detail: e.to_string() };
    let staging = tempfile::Builder::new().prefix(".capstan-new-").tempdir_in(parent).map_err(|e| io(parent, e))?;
    for (rel, text) in files {
        let path = staging.path().join(rel);
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).map_err(|e| io(folder, e))?;
        }
        std::fs::write(&path, text).map_err(|e| io(&dir.join(rel), e))?;
    }
    // Checked again just before the rename: a folder that appeared meanwhile wins.
    if std::fs::symlink_metadata(dir).is_ok() {
        return Err(ScaffoldError::Exists { path: dir.to_path_buf() });
    }
    let staged = staging.keep();
    std::fs::rename(&staged, dir).map_err(|e| {
        let _ = std::fs::remove_dir_all(&staged);
        io(dir, e)
    })
}

/// The `sdk/` folder of a capstan checkout, when this binary runs from or inside one:
/// `CAPSTAN_SDK_PATH`, then an ancestor of the binary or of the working folder with an
/// `sdk/` crate, then the checkout this binary was compiled from, if it is still there.
pub fn checkout_sdk() -> Result<Option<PathBuf>, ScaffoldError> {
    if let Some(path) = std::env::var_os("CAPSTAN_SDK_PATH").filter(|p| !p.is_empty()) {
        return sdk_dir(Path::new(&path)).map(Some);
    }
    let mut starts = Vec::new();
    if let Ok(exe) = std::env::current_exe() {
        starts.push(exe);
    }
    if let Ok(cwd) = std::env::current_dir() {
        starts.push(cwd);
    }
    for start in &starts {
        if let Some(found) = start.ancestors().map(|a| a.join("sdk")).find(|s| sdk_dir(s).is_ok()) {
            return Ok(Some(std::fs::canonicalize(&found).unwrap_or(found)));
        }
    }
    let built_from = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("sdk");
    Ok(sdk_dir(&built_from).ok())
}

/// The local SDK that `packs build` trusts as the SDK (`build_code`): `CAPSTAN_SDK_PATH`,
/// the checkout the binary sits in, or the one it was compiled from. Unlike
/// [`checkout_sdk`], never a folder found from the working folder: a pack someone else
/// wrote could bring an `sdk/` of its own, and the user may be standing in it.
pub fn installed_sdk() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CAPSTAN_SDK_PATH").filter(|p| !p.is_empty()) {
        return sdk_dir(Path::new(&path)).ok();
    }
    let exe = std::env::current_exe().ok();
    if let Some(found) = exe.iter().flat_map(|e| e.ancestors()).map(|a| a.join("sdk")).find(|s| sdk_dir(s).is_ok()) {
        return Some(std::fs::canonicalize(&found).unwrap_or(found));
    }
    sdk_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("sdk")).ok()
}

/// `path` if it is the capstan-sdk crate (its Cargo.toml names the package).
pub fn sdk_dir(path: &Path) -> Result<PathBuf, ScaffoldError> {
    let not = |reason: String| ScaffoldError::SdkNotFound { path: path.to_path_buf(), reason };
    let text = std::fs::read_to_string(path.join("Cargo.toml")).map_err(|e| not(format!("cannot read Cargo.toml: {e}")))?;
    if !text.lines().any(|l| l.trim() == "name = \"capstan-sdk\"") {
        return Err(not("its Cargo.toml does not declare the package capstan-sdk".into()));
    }
    std::fs::canonicalize(path).map_err(|e| not(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fit_the_key_grammar() {
        let n = Names::new("demo-pack");
        assert_eq!((n.crate_name.as_str(), n.namespace.as_str()), ("demo_pack", "demo_pack"));
        let long = format!("a{}", "-b".repeat(31));
        let n = Names::new(&long);
        let key = format!("{}.count_objects", n.namespace);
        assert!(crate::plugin::describe::is_canonical_key(&key), "{key}");
    }

    #[test]
    fn render_fills_every_placeholder() {
        let n = Names::new("x-1");
        assert_eq!(render("{{name}} {{crate}} {{ns}} {{v}}", &n, &[("v", "9")]), "x-1 x_1 x_1 9");
    }

    #[test]
    fn a_bad_name_or_an_existing_folder_writes_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let opts = |name: &str| NewOptions { name: name.into(), lang: Lang::Rust, parent: tmp.path().into(), sdk: SdkChoice { path: None, version: Some("0.1.0".into()) } };
        assert_eq!(new_pack(&opts("Bad_Name")).unwrap_err().code(), "invalid_name");
        std::fs::create_dir(tmp.path().join("taken")).unwrap();
        std::fs::write(tmp.path().join("taken/keep.txt"), "mine").unwrap();
        assert_eq!(new_pack(&opts("taken")).unwrap_err().code(), "exists");
        assert_eq!(std::fs::read_dir(tmp.path().join("taken")).unwrap().count(), 1);
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1, "no staging folder left behind");
        let made = new_pack(&opts("fresh-pack")).unwrap();
        assert!(made.dir.join("pack.json").is_file() && made.dir.join("src/capabilities/add_marker.rs").is_file());
        let manifest = crate::manifest::load(&made.dir).expect("the template manifest parses");
        assert_eq!(manifest.component, "fresh_pack.wasm");
    }

    #[test]
    fn python_and_js_scaffolds_are_complete_and_their_manifests_parse() {
        let tmp = tempfile::tempdir().unwrap();
        for (lang, entry) in [(Lang::Python, "src/app.py"), (Lang::Js, "src/pack.js")] {
            let name = format!("{}-pack", lang.as_str());
            let made = new_pack(&NewOptions { name: name.clone(), lang, parent: tmp.path().into(), sdk: SdkChoice::default() }).unwrap();
            assert!(made.sdk.is_none());
            assert_eq!(build::detect(&made.dir), Some(lang), "{name}");
            assert!(made.dir.join(entry).is_file(), "{name}: {entry}");
            let manifest = crate::manifest::load(&made.dir).expect("the template manifest parses");
            assert_eq!(manifest.component, format!("{}.wasm", name.replace('-', "_")));
            for file in &made.files {
                let text = std::fs::read_to_string(made.dir.join(file)).unwrap();
                assert!(!text.contains("{{"), "{name}/{file}: a placeholder is left");
            }
            let source = std::fs::read_to_string(made.dir.join(entry)).unwrap();
            let capabilities = if lang == Lang::Python { std::fs::read_to_string(made.dir.join("src/capabilities.py")).unwrap() } else { source };
            for key in &made.capabilities {
                assert!(capabilities.contains(&format!("'{key}'")) || capabilities.contains(&format!("\"{key}\"")), "{name} declares {key}");
            }
        }
    }
}
