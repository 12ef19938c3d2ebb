//! The routing family this pack serves: product photography. Its cues are the words of
//! packshots and product presets; generic material, lighting and camera words stay with
//! their own families (blender-core's "material", "gold", "light", "camera", ...).

use capstan_sdk::Family;

pub fn families() -> Vec<Family> {
    vec![
        Family::new("product", "Product shots: product material presets, studio lighting rigs for products, packshots")
            .cues(5, &["product shot", "product photo", "packshot", "pack shot", "hero shot", "product render", "product lighting", "product material", "studio product", "ecommerce", "amazon listing", "catalog shot", "catalogue shot"])
            .cues(4, &["product", "jewelry", "jewellery", "cosmetics", "electronics", "automotive", "food product", "brushed aluminum", "brushed aluminium", "rose gold", "frosted glass", "tinted glass", "ceramic glaze", "silk satin", "shadow catcher", "soft touch", "everything except", "all but the"]),
    ]
}
