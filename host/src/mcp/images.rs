//! Pictures in a capability's answer, handed to the client as MCP image content.
//!
//! The convention a capability follows: its result has a top-level `image` object
//! `{"mime_type": "image/png", "data": "<base64>", ...}` (`inspect.viewport`). The
//! client then shows the picture instead of a page of base64 in the text. The host
//! moves the bytes into one image content block and leaves a note in their place, so
//! the text and structured content stay small.
//!
//! Security reasoning: the answer comes from a pack. Only PNG is passed on, and only
//! when the data is valid base64 that decodes to a PNG signature and fits
//! `MAX_IMAGE_BYTES`; anything else stays in the text as the pack wrote it (the
//! answer's own size cap applies there), never labelled as an image it is not.

use base64::Engine as _;
use rmcp::model::ContentBlock;
use serde_json::Value;

/// The largest decoded image passed on as image content.
pub const MAX_IMAGE_BYTES: usize = 8 * 1024 * 1024;
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// The image blocks of `doc` (a `report::output_json` document), taken out of it.
pub fn take(doc: &mut Value) -> Vec<ContentBlock> {
    let Some(image) = doc.get_mut("result").and_then(|r| r.get_mut("image")).and_then(Value::as_object_mut) else {
        return Vec::new();
    };
    if image.get("mime_type").and_then(Value::as_str) != Some("image/png") {
        return Vec::new();
    }
    let Some(data) = image.get("data").and_then(Value::as_str) else { return Vec::new() };
    if data.len() > MAX_IMAGE_BYTES / 3 * 4 + 4 {
        return Vec::new();
    }
    let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(data) else { return Vec::new() };
    if !bytes.starts_with(PNG_SIGNATURE) {
        return Vec::new();
    }
    let block = ContentBlock::image(data.to_string(), "image/png");
    image.insert("data".into(), Value::String(format!("({} bytes of PNG, sent as the image content block)", bytes.len())));
    vec![block]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn b64(bytes: &[u8]) -> String {
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    #[test]
    fn a_png_moves_into_an_image_block_and_leaves_a_note() {
        let png = [PNG_SIGNATURE, b"rest of the file"].concat();
        let mut doc = json!({ "key": "inspect.viewport", "result": { "image": { "mime_type": "image/png", "data": b64(&png), "width": 16 } } });
        let blocks = take(&mut doc);
        assert_eq!(blocks.len(), 1);
        assert!(matches!(&blocks[0], ContentBlock::Image(_)));
        assert_eq!(doc["result"]["image"]["width"], 16);
        assert!(doc["result"]["image"]["data"].as_str().unwrap().contains("24 bytes of PNG"));
    }

    #[test]
    fn anything_that_is_not_a_png_stays_text() {
        for image in [
            json!({ "mime_type": "image/png", "data": b64(b"GIF89a not a png") }),
            json!({ "mime_type": "image/png", "data": "%%% not base64" }),
            json!({ "mime_type": "text/html", "data": b64(PNG_SIGNATURE) }),
            json!({ "mime_type": "image/png" }),
        ] {
            let mut doc = json!({ "result": { "image": image.clone() } });
            assert!(take(&mut doc).is_empty(), "{image}");
            assert_eq!(doc["result"]["image"], image, "left as it was");
        }
        assert!(take(&mut json!({ "result": { "objects": [] } })).is_empty());
    }
}
