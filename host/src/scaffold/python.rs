//! Python packs (componentize-py): not scaffolded yet. The hook for `--lang python`:
//! its templates go under `templates/python/` and this module renders them.

use super::{Names, ScaffoldError};

pub fn files(_names: &Names) -> Result<(Vec<(String, String)>, super::SdkSource), ScaffoldError> {
    Err(ScaffoldError::LangNotAvailable { lang: super::Lang::Python.as_str().into() })
}
