//! Finds where things are in a level's text, so semantic errors (an unknown creature,
//! a unit on a wall) can point at a line and column like syntax errors do.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

/// 1-based line and column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rfind('\n').map_or(before.chars().count(), |i| before[i + 1..].chars().count()) + 1;
    (line, col)
}

/// Position of character `x` of map row `y` (its string literal's contents).
pub fn row_char(text: &str, y: usize, x: usize) -> (usize, usize) {
    let kinds = kinds(text);
    let Some(rows_at) = field_value(text, &kinds, 0, text.len(), "rows") else { return (1, 1) };
    // The string literals after `rows:`, comments skipped: the `y`th is the row.
    let starts = (rows_at..text.len()).filter(|&i| {
        kinds.get(i) == Some(&Kind::Str) && i.checked_sub(1).is_none_or(|p| kinds.get(p) != Some(&Kind::Str))
    });
    for (n, open) in starts.enumerate() {
        if n == y {
            let start = open + 1;
            let end = (start..text.len()).find(|&i| kinds.get(i) != Some(&Kind::Str)).map_or(text.len(), |e| e - 1);
            let row = text.get(start..end.max(start)).unwrap_or("");
            let offset = row.char_indices().nth(x).map_or(start, |(i, _)| start + i);
            return line_col(text, offset);
        }
    }
    line_col(text, rows_at)
}

/// Position of the value of the level's own `field` (`version: 2`): the first `field`
/// written as a field name outside any string or comment; (1, 1) when there is none.
pub fn top_field(text: &str, field: &str) -> (usize, usize) {
    field_value(text, &kinds(text), 0, text.len(), field).map_or((1, 1), |at| line_col(text, at))
}

/// What each byte of a level's text is part of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Code,
    /// A string literal, its quotes included.
    Str,
    /// A `//` or `/* */` comment.
    Comment,
}

/// Each byte's [`Kind`].
fn kinds(text: &str) -> Vec<Kind> {
    let bytes = text.as_bytes();
    let mut out = vec![Kind::Code; bytes.len()];
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let next = bytes.get(i + 1).copied();
        let (kind, end) = match (b, next) {
            (b'"', _) => {
                let mut j = i + 1;
                while let Some(&c) = bytes.get(j) {
                    j += if c == b'\\' { 2 } else { 1 };
                    if c == b'"' {
                        break;
                    }
                }
                (Kind::Str, j)
            }
            (b'/', Some(b'/')) => {
                (Kind::Comment, text.get(i..).and_then(|t| t.find('\n')).map_or(bytes.len(), |n| i + n))
            }
            (b'/', Some(b'*')) => {
                (Kind::Comment, text.get(i + 2..).and_then(|t| t.find("*/")).map_or(bytes.len(), |n| i + 2 + n + 2))
            }
            _ => (Kind::Code, i + 1),
        };
        let end = end.min(bytes.len());
        for k in out.get_mut(i..end).into_iter().flatten() {
            *k = kind;
        }
        i = end;
    }
    out
}

/// The byte offset of the value of the first `field: …` written as code in `from..to`.
fn field_value(text: &str, kinds: &[Kind], from: usize, to: usize, field: &str) -> Option<usize> {
    let is_code = |i: usize| kinds.get(i) == Some(&Kind::Code);
    let mut search = from;
    while let Some(rel) = text.get(search..to)?.find(field) {
        let at = search + rel;
        search = at + field.len();
        let before_ok = at
            .checked_sub(1)
            .and_then(|i| text.as_bytes().get(i))
            .is_none_or(|b| !b.is_ascii_alphanumeric() && *b != b'_');
        if !is_code(at) || !before_ok {
            continue;
        }
        let after = text.get(search..to)?;
        if let Some(value) = after.trim_start().strip_prefix(':') {
            return Some(to - value.trim_start().len());
        }
    }
    None
}

/// Position of `field`'s value in the unit entry whose id is `id` (the first such entry).
pub fn unit_field(text: &str, id: &str, field: &str) -> (usize, usize) {
    nth_unit_field(text, id, field, 0)
}

/// Like [`unit_field`], for the `nth` entry with that id (0-based), to point at duplicates.
pub fn nth_unit_field(text: &str, id: &str, field: &str, nth: usize) -> (usize, usize) {
    let kinds = kinds(text);
    let code = |i: usize| kinds.get(i) == Some(&Kind::Code);
    let units_at = field_value(text, &kinds, 0, text.len(), "units").unwrap_or(0);
    // The id as a string literal of its own: not inside a comment or another string.
    let needle = format!("\"{id}\"");
    let literal = |at: usize| {
        kinds.get(at) == Some(&Kind::Str) && at.checked_sub(1).is_none_or(|p| kinds.get(p) != Some(&Kind::Str))
    };
    let found = text.get(units_at..).into_iter().flat_map(|t| t.match_indices(&needle)).map(|(i, _)| units_at + i);
    let Some(id_at) = found.filter(|&at| literal(at)).nth(nth) else { return line_col(text, units_at) };
    // The entry spans from the '(' before the id to its matching ')'.
    let entry_start = (0..id_at).rev().find(|&i| code(i) && text.as_bytes().get(i) == Some(&b'(')).unwrap_or(id_at);
    let entry_end = matching_paren(text, &kinds, entry_start).unwrap_or(text.len());
    field_value(text, &kinds, entry_start, entry_end, field)
        .map_or_else(|| line_col(text, id_at), |at| line_col(text, at))
}

/// Byte offset just past the ')' that closes the '(' at `open`, string literals and
/// comments skipped.
fn matching_paren(text: &str, kinds: &[Kind], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in text.as_bytes().iter().enumerate().skip(open) {
        if kinds.get(i) != Some(&Kind::Code) {
            continue;
        }
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "(\n    name: \"x\",\n    map: (rows: [\n        \"###\",\n        \"#x#\",\n    ]),\n    units: [\n        (id: \"a\", side: \"blue\", at: (1, 1), creature: \"ogar\"),\n    ],\n)\n";

    #[test]
    fn finds_row_characters() {
        assert_eq!(row_char(TEXT, 1, 1), (5, 11));
        assert_eq!(row_char(TEXT, 0, 0), (4, 10));
    }

    #[test]
    fn finds_the_levels_own_fields() {
        let text = "(\n    name: \"version: 9\",\n    version: 2,\n)";
        assert_eq!(top_field(text, "version"), (3, 14));
        assert_eq!(top_field(text, "missing"), (1, 1));
    }

    #[test]
    fn comments_are_not_fields_or_rows() {
        let text = "(\n    // version: 7\n    /* rows: [\"!!\"] */\n    name: \"x\",\n    version: 2,\n    map: (rows: [\n        // \"skipped\",\n        \"#.\",\n    ]),\n)";
        assert_eq!(top_field(text, "version"), (5, 14));
        assert_eq!(row_char(text, 0, 1), (8, 11));
        let units = "(\n    units: [\n        // (id: \"a\", creature: \"x\"),\n        (id: \"a\", /* creature: 1 */ creature: \"ogar\"),\n    ],\n)";
        assert_eq!(unit_field(units, "a", "creature"), (4, 47));
        // Positive control: without the comments the same field is found where it is.
        assert_eq!(top_field("(version: 2)", "version"), (1, 11));
    }

    #[test]
    fn finds_unit_fields() {
        assert_eq!(unit_field(TEXT, "a", "creature"), (8, 55));
        assert_eq!(unit_field(TEXT, "a", "at"), (8, 37));
        assert_eq!(unit_field(TEXT, "a", "side"), (8, 25));
    }
}
