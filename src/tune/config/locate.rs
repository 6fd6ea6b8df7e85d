//! Finding a field in RON text, for error messages: a small scanner, not a
//! parser, so it works on any text serde has already accepted.

/// The 1-based line and column of a field path (`params[2].min`) in RON
/// text, best effort: comments and string contents are ignored, each key is
/// searched inside its parent's value, and a list index counts elements.
pub(super) fn locate(text: &str, field: &str) -> Option<(usize, usize)> {
    let masked = mask_comments_and_strings(text);
    let mut region = (0, masked.len());
    let mut found = None;
    for part in field.split('.') {
        let (key, index) = match part.split_once('[') {
            Some((key, rest)) => (key, Some(rest.strip_suffix(']')?.parse::<usize>().ok()?)),
            None => (part, None),
        };
        let (at, value) = find_key(&masked, region, key)?;
        found = Some(at);
        region = value;
        if let Some(i) = index {
            let (at, element) = find_element(&masked, region, i)?;
            found = Some(at);
            region = element;
        }
    }
    let at = found?;
    let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let line = text[..at].matches('\n').count() + 1;
    Some((line, text[line_start..at].chars().count() + 1))
}

/// The text's bytes with comments and string contents blanked (newlines and
/// byte offsets kept).
fn mask_comments_and_strings(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    fn blank(out: &mut [u8], i: usize) {
        if out[i] != b'\n' {
            out[i] = b' ';
        }
    }
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1)) {
            (b'/', Some(b'/')) => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    blank(&mut out, i);
                    i += 1;
                }
            }
            (b'/', Some(b'*')) => {
                let end = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |n| i + 2 + n + 2);
                while i < end {
                    blank(&mut out, i);
                    i += 1;
                }
            }
            (b'"', _) => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' && i + 1 < bytes.len() {
                        blank(&mut out, i);
                        i += 1;
                    }
                    blank(&mut out, i);
                    i += 1;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The shallowest `key:` in `region`: the key's offset and its value's region
/// (up to the next comma or closing bracket at the key's depth).
fn find_key(m: &[u8], (start, end): (usize, usize), key: &str) -> Option<(usize, (usize, usize))> {
    let mut depth = 0i32;
    let mut best: Option<(i32, usize, usize)> = None;
    let mut i = start;
    while i < end {
        match m[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ if m[i..end].starts_with(key.as_bytes())
                && (i == 0 || !is_ident(m[i - 1]))
                && !m.get(i + key.len()).is_some_and(|&b| is_ident(b)) =>
            {
                let after = i + key.len();
                let colon = after
                    + m[after..end]
                        .iter()
                        .take_while(|b| b.is_ascii_whitespace())
                        .count();
                if colon < end && m[colon] == b':' && best.is_none_or(|(d, _, _)| depth < d) {
                    best = Some((depth, i, colon + 1));
                }
            }
            _ => {}
        }
        i += 1;
    }
    let (_, at, value_start) = best?;
    Some((at, (value_start, value_end(m, value_start, end))))
}

/// Where a value starting at `start` ends: the first comma or unmatched
/// closing bracket at its own depth.
fn value_end(m: &[u8], start: usize, end: usize) -> usize {
    let mut depth = 0i32;
    for (i, &b) in m.iter().enumerate().take(end).skip(start) {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => return i,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => return i,
            _ => {}
        }
    }
    end
}

/// Element `index` of the first list in `region`: its offset and region.
fn find_element(
    m: &[u8],
    (start, end): (usize, usize),
    index: usize,
) -> Option<(usize, (usize, usize))> {
    let mut at = start + m[start..end].iter().position(|&b| b == b'[')? + 1;
    for i in 0..=index {
        at += m[at..end]
            .iter()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
        if at >= end || m[at] == b']' {
            return None;
        }
        let element_end = value_end(m, at, end);
        if i == index {
            return Some((at, (at, element_end)));
        }
        at = (element_end + 1).min(end);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_skips_comments_strings_and_other_entries() {
        let text = "// min: in a comment\n(\n  a: \"min: no\",\n  list: [ (min: 1), /* min: */ (x: 2,\n min: 3) ],\n  min: 4,\n)";
        assert_eq!(locate(text, "min"), Some((6, 3)));
        assert_eq!(locate(text, "list[0].min"), Some((4, 12)));
        assert_eq!(locate(text, "list[1].min"), Some((5, 2)));
        assert_eq!(locate(text, "list[1]"), Some((4, 32)));
        assert_eq!(locate(text, "list[2].min"), None);
        assert_eq!(locate(text, "nothing"), None);
    }

    #[test]
    fn locate_never_panics_on_truncated_or_odd_text() {
        let text = include_str!("../../../configs/default.ron").to_string() + "/* é \"\" unclosed";
        for end in (0..=text.len()).filter(|&n| text.is_char_boundary(n)) {
            for field in [
                "params[3].scale",
                "stop.wall_seconds",
                "seed",
                "x[99]",
                "a[b]",
            ] {
                let _ = locate(&text[..end], field);
            }
        }
        assert!(locate(&text, "params[3].scale").is_some());
    }
}
