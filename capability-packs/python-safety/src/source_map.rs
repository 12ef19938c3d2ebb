//! Byte offsets to 1-based line and column (columns count characters, as editors do).

pub struct SourceMap {
    line_starts: Vec<usize>,
}

impl SourceMap {
    pub fn new(source: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(source.match_indices('\n').map(|(i, _)| i + 1));
        SourceMap { line_starts }
    }

    pub fn locate(&self, source: &str, offset: usize) -> (u32, u32) {
        let offset = offset.min(source.len());
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let start = self.line_starts[line - 1];
        let column = source.get(start..offset).map_or(offset - start, |s| s.chars().count()) + 1;
        (line as u32, column as u32)
    }
}

/// The deepest bracket nesting in `source` and where it first passes `limit`.
/// Brackets inside strings and comments are counted too: a false alarm needs a string
/// with more than `limit` unclosed brackets, and the cheap scan runs before the parser
/// ever sees a pathological input.
pub fn first_too_deep(source: &str, limit: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in source.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(i);
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_are_one_based_and_count_characters() {
        let src = "a = 1\nπ = ab\n";
        let map = SourceMap::new(src);
        assert_eq!(map.locate(src, 0), (1, 1));
        assert_eq!(map.locate(src, 6), (2, 1));
        let b = src.find("ab").unwrap();
        assert_eq!(map.locate(src, b), (2, 5));
    }

    #[test]
    fn nesting_is_found_before_parsing() {
        assert_eq!(first_too_deep("f((1))", 2), None);
        assert_eq!(first_too_deep("f(((1)))", 2), Some(3));
    }
}
