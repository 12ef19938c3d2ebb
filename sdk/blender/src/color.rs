//! Colour normalisation: agents say "red", "#ff8800" or `[1, 0.5, 0, 1]`; Blender's
//! Principled BSDF wants linear RGBA in 0..1.
//!
//! Hex codes and names are sRGB (that is what a colour picker shows), so they are
//! converted to linear light. Arrays and `{r, g, b, a}` objects are taken as linear
//! already (Blender's own numbers), which is what a script author copying values from
//! Blender expects.

use capstan_sdk::prelude::*;

/// A colour as an agent may write it.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ColorInput {
    /// `#rrggbb`, `#rgb`, `#rrggbbaa` (sRGB), or a colour name such as `red`, `gold`.
    Text(#[schemars(length(min = 1, max = 32))] String),
    /// Linear RGB or RGBA, each channel 0..1.
    Channels(#[schemars(length(min = 3, max = 4), inner(range(min = 0.0, max = 1.0)))] Vec<f64>),
    /// Linear channels by name; `a` defaults to 1.
    Named(Rgba),
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rgba {
    #[schemars(range(min = 0.0, max = 1.0))]
    pub r: f64,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub g: f64,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub b: f64,
    #[schemars(range(min = 0.0, max = 1.0))]
    #[serde(default = "one")]
    pub a: f64,
}

fn one() -> f64 {
    1.0
}

/// sRGB names, as CSS defines them (a useful, predictable subset).
const NAMES: &[(&str, [u8; 3])] = &[
    ("black", [0, 0, 0]),
    ("white", [255, 255, 255]),
    ("red", [255, 0, 0]),
    ("green", [0, 128, 0]),
    ("lime", [0, 255, 0]),
    ("blue", [0, 0, 255]),
    ("yellow", [255, 255, 0]),
    ("cyan", [0, 255, 255]),
    ("magenta", [255, 0, 255]),
    ("orange", [255, 165, 0]),
    ("purple", [128, 0, 128]),
    ("pink", [255, 192, 203]),
    ("brown", [165, 42, 42]),
    ("gray", [128, 128, 128]),
    ("grey", [128, 128, 128]),
    ("silver", [192, 192, 192]),
    ("gold", [255, 215, 0]),
    ("navy", [0, 0, 128]),
    ("teal", [0, 128, 128]),
    ("olive", [128, 128, 0]),
    ("maroon", [128, 0, 0]),
    ("beige", [245, 245, 220]),
    ("ivory", [255, 255, 240]),
    ("coral", [255, 127, 80]),
    ("salmon", [250, 128, 114]),
    ("turquoise", [64, 224, 208]),
    ("violet", [238, 130, 238]),
    ("indigo", [75, 0, 130]),
    ("crimson", [220, 20, 60]),
    ("charcoal", [54, 69, 79]),
];

/// sRGB transfer function, decoded to linear light.
pub fn srgb_to_linear(c: f64) -> f64 {
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

fn linear_from_srgb8(rgb: [u8; 3], alpha: f64) -> [f64; 4] {
    let ch = |v: u8| round6(srgb_to_linear(f64::from(v) / 255.0));
    [ch(rgb[0]), ch(rgb[1]), ch(rgb[2]), alpha]
}

fn round6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

fn parse_hex(text: &str) -> Option<[f64; 4]> {
    let hex = text.strip_prefix('#').unwrap_or(text);
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let nibble = |i: usize| u8::from_str_radix(&hex[i..i + 1], 16).ok().map(|v| v * 17);
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    match hex.len() {
        3 => Some(linear_from_srgb8([nibble(0)?, nibble(1)?, nibble(2)?], 1.0)),
        6 => Some(linear_from_srgb8([byte(0)?, byte(2)?, byte(4)?], 1.0)),
        8 => {
            let alpha = round6(f64::from(byte(6)?) / 255.0);
            Some(linear_from_srgb8([byte(0)?, byte(2)?, byte(4)?], alpha))
        }
        _ => None,
    }
}

impl ColorInput {
    /// Linear RGBA in 0..1, or an explanation of what was wrong.
    pub fn to_linear_rgba(&self) -> PackResult<[f64; 4]> {
        let rgba = match self {
            ColorInput::Text(text) => {
                let lower = text.trim().to_ascii_lowercase();
                if let Some((_, rgb)) = NAMES.iter().find(|(n, _)| *n == lower) {
                    linear_from_srgb8(*rgb, 1.0)
                } else if let Some(rgba) = parse_hex(&lower) {
                    rgba
                } else {
                    return Err(PackError::invalid(format!(
                        "colour {text:?} is neither a hex code (#rrggbb, #rgb, #rrggbbaa) nor a known name ({})",
                        NAMES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                    )));
                }
            }
            ColorInput::Channels(ch) => match ch.as_slice() {
                [r, g, b] => [*r, *g, *b, 1.0],
                [r, g, b, a] => [*r, *g, *b, *a],
                _ => return Err(PackError::invalid("a colour array has 3 or 4 channels")),
            },
            ColorInput::Named(c) => [c.r, c.g, c.b, c.a],
        };
        if let Some(bad) = rgba.iter().find(|v| !(0.0..=1.0).contains(*v) || v.is_nan()) {
            return Err(PackError::invalid(format!("colour channel {bad} is outside 0..1")));
        }
        Ok(rgba)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> ColorInput {
        ColorInput::Text(s.into())
    }

    #[test]
    fn hex_is_decoded_from_srgb() {
        assert_eq!(text("#ffffff").to_linear_rgba().unwrap(), [1.0, 1.0, 1.0, 1.0]);
        assert_eq!(text("000").to_linear_rgba().unwrap(), [0.0, 0.0, 0.0, 1.0]);
        let mid = text("#808080").to_linear_rgba().unwrap();
        assert!((mid[0] - 0.215861).abs() < 1e-6, "{mid:?}");
        let with_alpha = text("#ff000080").to_linear_rgba().unwrap();
        assert_eq!(with_alpha[0], 1.0);
        assert!((with_alpha[3] - 0.501961).abs() < 1e-6);
    }

    #[test]
    fn names_are_case_insensitive() {
        assert_eq!(text("Red").to_linear_rgba().unwrap(), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(text(" BLUE ").to_linear_rgba().unwrap(), [0.0, 0.0, 1.0, 1.0]);
    }

    #[test]
    fn arrays_and_objects_are_linear() {
        let c = ColorInput::Channels(vec![0.5, 0.25, 0.0]);
        assert_eq!(c.to_linear_rgba().unwrap(), [0.5, 0.25, 0.0, 1.0]);
        let c: ColorInput = serde_json::from_str(r#"{"r":0.1,"g":0.2,"b":0.3}"#).unwrap();
        assert_eq!(c.to_linear_rgba().unwrap(), [0.1, 0.2, 0.3, 1.0]);
    }

    #[test]
    fn bad_colours_are_explained() {
        for bad in ["#12345", "chartreuse-ish", "#gg0000"] {
            let err = text(bad).to_linear_rgba().unwrap_err();
            assert!(matches!(err, PackError::InvalidArguments(ref m) if m.contains(bad)), "{err:?}");
        }
        let err = ColorInput::Channels(vec![2.0, 0.0, 0.0]).to_linear_rgba().unwrap_err();
        assert!(matches!(err, PackError::InvalidArguments(_)));
    }
}
