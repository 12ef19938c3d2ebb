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
}
