//! Expanding the locations a manifest names: `~`, `$VAR` / `${VAR}`, `%VAR%`.
//!
//! `$CAPSTAN_HOME` always means the host's effective home, set or not, so the host and
//! the add-on agree on a runtime file's path without anyone writing it down. Any other
//! variable comes from the environment; an unset one makes the location unusable
//! (`None`) rather than silently becoming a different path. Expansion happens once,
//! at the start: a variable's value is never expanded again.

use crate::home::CapstanHome;
use std::path::PathBuf;

/// Where the variables come from (the environment, or a fixed map in tests).
pub trait Vars {
    fn var(&self, name: &str) -> Option<String>;
}

/// The process environment.
pub struct Env;

impl Vars for Env {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok().filter(|v| !v.is_empty())
    }
}

/// `location` with its leading `~`, `$VAR`, `${VAR}` or `%VAR%` replaced.
pub fn expand(location: &str, home: &CapstanHome, vars: &dyn Vars) -> Option<PathBuf> {
    let lookup = |name: &str| if name == crate::home::HOME_ENV { Some(home.root().display().to_string()) } else { vars.var(name) };
    let (value, rest) = if let Some(rest) = location.strip_prefix('~') {
        (vars.var("HOME").or_else(|| vars.var("USERPROFILE"))?, rest)
    } else if let Some(after) = location.strip_prefix("${") {
        let (name, rest) = after.split_once('}')?;
        (lookup(name)?, rest)
    } else if let Some(after) = location.strip_prefix('$') {
        let end = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len());
        (lookup(&after[..end])?, &after[end..])
    } else if let Some(after) = location.strip_prefix('%') {
        let (name, rest) = after.split_once('%')?;
        (lookup(name)?, rest)
    } else {
        return Some(PathBuf::from(location));
    };
    Some(PathBuf::from(format!("{value}{rest}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct Fixed(HashMap<&'static str, &'static str>);
    impl Vars for Fixed {
        fn var(&self, name: &str) -> Option<String> {
            self.0.get(name).map(|v| v.to_string())
        }
    }

    fn vars() -> Fixed {
        Fixed(HashMap::from([("HOME", "/home/ada"), ("ProgramFiles", "C:\\Program Files"), ("LOCALAPPDATA", "C:\\Users\\ada\\AppData\\Local")]))
    }

    #[test]
    fn every_form_expands() {
        let home = CapstanHome::at("/srv/capstan");
        let v = vars();
        let e = |s| expand(s, &home, &v).map(|p| p.display().to_string());
        assert_eq!(e("/usr/bin/sculptor").as_deref(), Some("/usr/bin/sculptor"));
        assert_eq!(e("~/sculptor/sculptor").as_deref(), Some("/home/ada/sculptor/sculptor"));
        assert_eq!(e("$HOME/bin/sculptor").as_deref(), Some("/home/ada/bin/sculptor"));
        assert_eq!(e("${HOME}/bin/sculptor").as_deref(), Some("/home/ada/bin/sculptor"));
        assert_eq!(e("%ProgramFiles%/Sculptor Foundation/sculptor.exe").as_deref(), Some("C:\\Program Files/Sculptor Foundation/sculptor.exe"));
        assert_eq!(e("$CAPSTAN_HOME/run/sculptor/server.json").as_deref(), Some("/srv/capstan/run/sculptor/server.json"));
    }

    #[test]
    fn an_unset_variable_makes_the_location_unusable() {
        let home = CapstanHome::at("/srv/capstan");
        assert_eq!(expand("$NOPE/sculptor", &home, &vars()), None);
        assert_eq!(expand("%NOPE%/sculptor.exe", &home, &vars()), None);
        assert_eq!(expand("~/x", &home, &Fixed(HashMap::new())), None);
    }

    #[test]
    fn values_are_not_expanded_twice() {
        let home = CapstanHome::at("/srv/capstan");
        let v = Fixed(HashMap::from([("A", "$HOME")]));
        assert_eq!(expand("$A/x", &home, &v).unwrap().display().to_string(), "$HOME/x");
    }
}
