//! Where a manifest may point: app locations, runtime-file paths, endpoint paths.
//!
//! Security reasoning: a manifest comes from a pack author, and these strings decide
//! which file capstan runs to read a version, which file it trusts as the bridge's
//! address and token, and which path it POSTs to. So a location must be rooted
//! (absolute, or `~`, `%VAR%`, `$VAR` that capstan expands itself), never relative
//! (it would depend on the working directory), never contain `..` (no climbing out of
//! the place it names), and never be a URL (`file://`, `https://`): capstan reads local
//! files, it does not fetch. An endpoint path is a plain absolute path on the bridge's
//! own loopback address: anything that could change the host (`@`, `//host`, a
//! scheme) or escape the path (`..`, a query) is refused.

/// Why a location or endpoint path was refused.
pub fn location_error(s: &str) -> Option<String> {
    if s.is_empty() {
        return Some("must not be empty".into());
    }
    if s.chars().any(char::is_control) {
        return Some("must not contain control characters".into());
    }
    if has_scheme(s) {
        return Some(format!("{s:?} is a URL; a location is a local path (absolute, or starting with ~, %VAR% or $VAR)"));
    }
    if s.split(['/', '\\']).any(|part| part == "..") {
        return Some(format!("{s:?} contains '..'; a location must not climb out of the folder it names"));
    }
    if !is_rooted(s) {
        return Some(format!("{s:?} is relative; a location must be absolute or start with ~, %VAR% or $VAR"));
    }
    None
}

/// `scheme:` at the start (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`),
/// except a single-letter Windows drive (`C:`).
fn has_scheme(s: &str) -> bool {
    let Some((scheme, _)) = s.split_once(':') else { return false };
    scheme.len() > 1
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

fn is_rooted(s: &str) -> bool {
    let bytes = s.as_bytes();
    let drive = bytes.len() >= 3 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' && matches!(bytes[2], b'/' | b'\\');
    s.starts_with('/')
        || drive
        || s == "~"
        || s.starts_with("~/")
        || s.starts_with("~\\")
        || env_prefix(s, '%').is_some()
        || env_prefix(s, '$').is_some()
}

/// The variable name when `s` starts with `%NAME%` (sigil `%`) or `$NAME` / `${NAME}`
/// (sigil `$`), followed by the end or a separator.
fn env_prefix(s: &str, sigil: char) -> Option<&str> {
    let rest = s.strip_prefix(sigil)?;
    let (name, after) = match sigil {
        '%' => rest.split_once('%')?,
        _ if rest.starts_with('{') => rest[1..].split_once('}')?,
        _ => {
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
            (&rest[..end], &rest[end..])
        }
    };
    let valid = !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (valid && (after.is_empty() || after.starts_with(['/', '\\']))).then_some(name)
}

/// Why an endpoint path was refused: it must be a plain absolute path.
pub fn endpoint_path_error(s: &str) -> Option<String> {
    let plain = s.starts_with('/')
        && !s.starts_with("//")
        && s.len() <= 256
        && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_' | '.' | '~'))
        && !s.split('/').any(|part| part == ".." || part == ".");
    if plain {
        None
    } else {
        Some(format!(
            "{s:?} must be a plain absolute path on the bridge's own address (like \"/bridge\"): no scheme, host, '@', '//', '..', query or fragment"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rooted_locations_are_accepted() {
        for ok in [
            "/usr/bin/sculptor",
            "~/Applications/Sculptor.app",
            "~",
            "%ProgramFiles%/Sculptor Foundation/Sculptor 4.5/sculptor.exe",
            "%LOCALAPPDATA%\\Programs\\Sculptor\\sculptor.exe",
            "$CAPSTAN_HOME/run/sculptor/server.json",
            "${HOME}/sculptor/sculptor",
            "C:\\Program Files\\Sculptor Foundation\\sculptor.exe",
            "D:/Sculptor/sculptor.exe",
        ] {
            assert_eq!(location_error(ok), None, "{ok}");
        }
    }

    #[test]
    fn relative_climbing_and_url_locations_are_refused() {
        for (bad, why) in [
            ("", "empty"),
            ("sculptor", "relative"),
            ("./sculptor", "relative"),
            ("bin/sculptor", "relative"),
            ("/opt/../etc/passwd", ".."),
            ("$HOME/../root/x", ".."),
            ("C:\\Sculptor\\..\\Windows\\x.exe", ".."),
            ("file:///usr/bin/sculptor", "URL"),
            ("https://example.com/sculptor", "URL"),
            ("smb://share/sculptor.exe", "URL"),
            ("%%/x", "relative"),
            ("$1/x", "relative"),
            ("$HOME-x/y", "relative"),
            ("/usr/bin/sculp\ntor", "control"),
        ] {
            let e = location_error(bad).unwrap_or_else(|| panic!("{bad:?} was accepted"));
            assert!(e.contains(why), "{bad:?}: {e}");
        }
    }

    #[test]
    fn endpoint_paths_must_be_plain() {
        for ok in ["/bridge", "/mcp", "/api/v1/bridge", "/a_b-c.d~e"] {
            assert_eq!(endpoint_path_error(ok), None, "{ok}");
        }
        for bad in [
            "@169.254.169.254/latest",
            "//host/x",
            "http://127.0.0.1/bridge",
            "/../x",
            "/a/./b",
            "bridge",
            "",
            "/bridge?x=1",
            "/bridge#frag",
            "/user@host",
            "/a b",
            "/%2e%2e/x",
        ] {
            assert!(endpoint_path_error(bad).is_some(), "{bad:?} was accepted");
        }
    }
}
