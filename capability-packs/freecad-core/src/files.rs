//! File arguments, checked before any bridge call (the bridge checks again against the
//! real read roots and output folder): CAD inputs never climb with `..`; outputs are bare
//! file names whose extension is the format's.

use capstan_freecad::ExportCadParamsFormat as Format;
use capstan_sdk::prelude::*;

/// Extensions FreeCAD reads as STEP or IGES.
pub const CAD_INPUTS: &[&str] = &["step", "stp", "iges", "igs"];

/// A pattern matching `name.<ext>` for any of `extensions`, in any letter case.
pub fn extension_pattern(extensions: &[&str]) -> String {
    let any_case = |ext: &str| ext.chars().map(|c| format!("[{}{}]", c.to_ascii_lowercase(), c.to_ascii_uppercase())).collect::<String>();
    let alternatives: Vec<String> = extensions.iter().map(|e| any_case(e)).collect();
    format!(r"\.({})$", alternatives.join("|"))
}

/// The extensions a file of `format` may end in.
pub fn extensions(format: Format) -> &'static [&'static str] {
    match format {
        Format::Step => &["step", "stp"],
        Format::Stl => &["stl"],
        Format::Obj => &["obj"],
    }
}

/// The file name (after the last `/`) is `<stem>.<ext>` with a stem.
fn has_extension(path: &str, extensions: &[&str]) -> bool {
    let lower = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    extensions.iter().any(|ext| lower.strip_suffix(ext).is_some_and(|stem| stem.len() > 1 && stem.ends_with('.')))
}

/// A STEP or IGES file to read: an absolute path (under a read root, which the bridge
/// checks), or the bare name of a file in the session output folder.
pub fn cad_input(path: &str) -> PackResult<()> {
    let unix = path.replace('\\', "/");
    if unix.split('/').any(|segment| segment == "..") {
        return Err(PackError::invalid(format!("{path:?} climbs with '..'; give an absolute path under a read root")));
    }
    if !unix.starts_with('/') && unix.contains('/') {
        return Err(PackError::invalid(format!("{path:?} is relative; give an absolute path under a read root, or a bare file name of the output folder")));
    }
    if !has_extension(&unix, CAD_INPUTS) {
        return Err(PackError::invalid(format!("{path:?} is not a STEP (.step, .stp) or IGES (.iges, .igs) file")));
    }
    Ok(())
}

/// A file to write into the session output folder: a bare name ending in the format's
/// extension.
pub fn output_name(name: &str, format: Format) -> PackResult<()> {
    let bare = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ' ')) && !name.starts_with('.');
    if !bare {
        return Err(PackError::invalid(format!("{name:?} is not a bare file name (letters, digits, _ - . and spaces); files go to the session output folder")));
    }
    let wanted = extensions(format);
    if !has_extension(name, wanted) {
        return Err(PackError::invalid(format!("{name:?} must end in .{}", wanted.join(" or ."))));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_cad_files_that_do_not_climb() {
        assert!(cad_input("/srv/parts/bracket.STEP").is_ok());
        assert!(cad_input("part.stp").is_ok());
        assert!(cad_input("/srv/parts/../../etc/x.step").is_err());
        assert!(cad_input("parts/x.step").is_err());
        assert!(cad_input("/srv/parts/notes.txt").is_err());
        assert!(cad_input("/srv/parts/.step").is_err());
    }

    #[test]
    fn outputs_are_bare_names_of_the_format() {
        assert!(output_name("bracket v2.step", Format::Step).is_ok());
        assert!(output_name("bracket.STP", Format::Step).is_ok());
        assert!(output_name("ball.stl", Format::Stl).is_ok());
        assert!(output_name("ball.stl", Format::Obj).is_err());
        assert!(output_name("/tmp/ball.stl", Format::Stl).is_err());
        assert!(output_name("../ball.stl", Format::Stl).is_err());
        assert!(output_name(".stl", Format::Stl).is_err());
    }

    #[test]
    fn the_pattern_matches_any_letter_case() {
        assert_eq!(extension_pattern(&["stl"]), r"\.([sS][tT][lL])$");
    }
}
