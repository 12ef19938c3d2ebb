//! Path checks made before any bridge call (the bridge checks again, against the real
//! read roots): no `..`, no NUL, bounded length; output names are bare file names.

use capstan_sdk::prelude::*;

/// An input path the bridge may accept: absolute, or a bare file name; never `..`.
pub fn input(path: &str) -> PackResult<()> {
    if path.is_empty() || path.len() > 1024 || path.contains('\0') {
        return Err(PackError::invalid("a path must be 1..1024 characters"));
    }
    if path.replace('\\', "/").split('/').any(|p| p == "..") {
        return Err(PackError::invalid(format!(
            "{path:?} contains '..'; give an absolute path under a read root"
        )));
    }
    Ok(())
}

/// `library` joined with a `file` relative to it (as assets.search answers them).
pub fn join(library: &str, file: &str) -> PackResult<String> {
    if file.starts_with('/') || file.starts_with('\\') || file.is_empty() {
        return Err(PackError::invalid(format!(
            "file {file:?} must be relative to the library"
        )));
    }
    let joined = format!("{}/{}", library.trim_end_matches('/'), file);
    input(&joined)?;
    Ok(joined)
}

/// An output file name: a bare name with the expected extension.
pub fn output(filename: &str, extension: &str) -> PackResult<()> {
    let ok = !filename.is_empty()
        && filename.len() <= 128
        && filename
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_. -".contains(c));
    if !ok || filename == "." || filename == ".." {
        return Err(PackError::invalid(format!(
            "{filename:?} must be a bare file name (letters, digits, _ . - and spaces); files go to the session output folder"
        )));
    }
    if !filename
        .to_ascii_lowercase()
        .ends_with(&format!(".{extension}"))
    {
        return Err(PackError::invalid(format!(
            "{filename:?} must end in .{extension}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn climbing_and_directories_are_refused() {
        assert!(input("/srv/assets/../etc/passwd").is_err());
        assert!(input("/srv/assets/rock.glb").is_ok());
        assert!(join("/srv/assets", "../x.blend").is_err());
        assert!(join("/srv/assets", "/etc/x.blend").is_err());
        assert_eq!(
            join("/srv/assets/", "props/a.blend").unwrap(),
            "/srv/assets/props/a.blend"
        );
        assert!(output("a/b.glb", "glb").is_err());
        assert!(output("b.obj", "glb").is_err());
        assert!(output("hero shot.GLB", "glb").is_ok());
    }
}
