//! JavaScript packs (componentize-js / jco): not scaffolded yet. The hook for
//! `--lang js`: its templates go under `templates/js/` and this module renders them.

use super::{Names, ScaffoldError};

pub fn files(_names: &Names) -> Result<(Vec<(String, String)>, super::SdkSource), ScaffoldError> {
    Err(ScaffoldError::LangNotAvailable { lang: super::Lang::Js.as_str().into() })
}
