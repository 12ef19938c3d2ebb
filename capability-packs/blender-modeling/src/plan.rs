//! Pure helpers of the generation capabilities, tested without Blender.
