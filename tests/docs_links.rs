//! Every relative link and image of the documentation resolves: README.md and
//! every `.md` file under `docs/`. A link's path must name a file or folder of
//! the checkout, relative to the page that holds it; a `#anchor` (alone, or
//! after a `.md` path) must name a heading of that page, its anchor computed
//! as GitHub and mdBook compute it. Links to http(s) and mailto are skipped,
//! and so is everything inside code blocks and code spans.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::util::repo_path;

/// A link found on a page: its 1-based line and its target as written.
#[derive(Debug, PartialEq)]
struct Link {
    line: usize,
    target: String,
}

/// `text` with fenced code blocks and code spans blanked out (newlines kept,
/// so offsets still give line numbers).
fn without_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // The open fence: its character and length.
    let mut fence: Option<(char, usize)> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        let run = marker.map_or(0, |c| trimmed.chars().take_while(|x| *x == c).count());
        match fence {
            Some((c, n)) => {
                let closes =
                    marker == Some(c) && run >= n && indent < 4 && trimmed[run..].trim().is_empty();
                if closes {
                    fence = None;
                }
                out.push_str(&blank(line));
            }
            None if indent < 4 && run >= 3 => {
                fence = marker.map(|c| (c, run));
                out.push_str(&blank(line));
            }
            None => out.push_str(line),
        }
    }
    without_code_spans(&out)
}

/// `text` with every code span (a run of backticks up to the next run of the
/// same length) blanked out.
fn without_code_spans(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let run = chars[i..].iter().take_while(|c| **c == '`').count();
        let mut j = i + run;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let other = chars[j..].iter().take_while(|c| **c == '`').count();
                if other == run {
                    close = Some(j);
                    break;
                }
                j += other;
            } else {
                j += 1;
            }
        }
        match close {
            Some(j) => {
                out.push_str(&blank(&chars[i..j + run].iter().collect::<String>()));
                i = j + run;
            }
            None => {
                // No closing run: the backticks are literal.
                out.extend(&chars[i..i + run]);
                i += run;
            }
        }
    }
    out
}

/// Spaces in place of every character but newlines.
fn blank(text: &str) -> String {
    text.chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect()
}

/// The inline links and images (`[text](target)`, `![alt](target)`) and the
/// link definitions (`[label]: target`) of a page.
fn links(page: &str) -> Vec<Link> {
    let text = without_code(page);
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("](") {
        let start = from + at + 2;
        // The target ends at the parenthesis that closes this one.
        let mut depth = 0usize;
        let mut end = None;
        for (k, c) in text[start..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = Some(start + k);
                    break;
                }
                ')' => depth -= 1,
                '\n' => break,
                _ => {}
            }
        }
        if let Some(end) = end {
            // A title may follow the target after a space.
            let target = text[start..end].split_whitespace().next().unwrap_or("");
            let target = target.trim_start_matches('<').trim_end_matches('>');
            found.push(Link {
                line: line_of(start),
                target: target.to_string(),
            });
        }
        from = start;
    }
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix('[') {
            if let Some(close) = rest.find("]:") {
                if let Some(target) = rest[close + 2..].split_whitespace().next() {
                    found.push(Link {
                        line: line_of(offset),
                        target: target.to_string(),
                    });
                }
            }
        }
        offset += line.len();
    }
    found
}

/// A heading's anchor as GitHub and mdBook make it: lowercase, spaces to
/// `-`, and every character but letters, digits, `-` and `_` removed.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings (`#` to `######`, outside code blocks);
/// a repeated anchor gets `-1`, `-2`, … as on GitHub and in mdBook.
fn anchors(page: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut all = Vec::new();
    for line in without_code(page).lines() {
        let trimmed = line.trim_start();
        let hashes = trimmed.chars().take_while(|c| *c == '#').count();
        if !(1..=6).contains(&hashes) || line.len() - trimmed.len() > 3 {
            continue;
        }
        let rest = &trimmed[hashes..];
        if !rest.is_empty() && !rest.starts_with(' ') {
            continue;
        }
        let base = anchor(rest.trim().trim_end_matches('#'));
        let count = seen.entry(base.clone()).or_insert(0);
        all.push(if *count == 0 {
            base.clone()
        } else {
            format!("{base}-{count}")
        });
        *count += 1;
    }
    all
}

/// README.md and every `.md` file under `docs/`, sorted.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, into: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, into);
            } else if path.extension().is_some_and(|e| e == "md") {
                into.push(path);
            }
        }
    }
    let mut all = vec![repo_path("README.md")];
    walk(&repo_path("docs"), &mut all);
    all.sort();
    all
}

/// What is wrong with `link` on the page at `page`, if anything.
fn check(page: &Path, text: &str, link: &Link) -> Option<String> {
    let target = link.target.as_str();
    if target.is_empty() {
        return Some("an empty link".to_string());
    }
    let lower = target.to_ascii_lowercase();
    if ["http://", "https://", "mailto:"]
        .iter()
        .any(|p| lower.starts_with(p))
    {
        return None;
    }
    let (path, fragment) = match target.split_once('#') {
        Some((path, fragment)) => (path, Some(fragment)),
        None => (target, None),
    };
    let file = if path.is_empty() {
        page.to_path_buf()
    } else {
        page.parent().unwrap().join(path)
    };
    if !file.exists() {
        return Some(format!("`{target}`: no file {}", file.display()));
    }
    let fragment = fragment?;
    if file.extension().is_none_or(|e| e != "md") {
        return Some(format!(
            "`{target}`: an anchor into a file that is not Markdown"
        ));
    }
    let linked = if path.is_empty() {
        text.to_string()
    } else {
        std::fs::read_to_string(&file).unwrap()
    };
    if anchors(&linked).iter().any(|a| a == fragment) {
        None
    } else {
        Some(format!(
            "`{target}`: no heading of {} has the anchor `{fragment}`",
            file.display()
        ))
    }
}

#[test]
fn every_relative_link_of_the_docs_resolves() {
    let pages = pages();
    assert!(pages.len() > 10, "too few pages found: {pages:?}");
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for link in links(&text) {
            checked += 1;
            if let Some(why) = check(page, &text, &link) {
                broken.push(format!("{}:{}: {why}", page.display(), link.line));
            }
        }
    }
    assert!(checked > 100, "only {checked} links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_are_computed_as_github_does() {
    assert_eq!(
        anchor("Tuning across machines (MPI)"),
        "tuning-across-machines-mpi"
    );
    assert_eq!(anchor("Set-up: two commands"), "set-up-two-commands");
    assert_eq!(
        anchor("The winner's curse, and reselection"),
        "the-winners-curse-and-reselection"
    );
    assert_eq!(anchor("`snake_power` and **more**"), "snake_power-and-more");
    let page = "# A\n\n## Twice\n\n```\n# not a heading\n```\n\n## Twice\n#not either\n";
    assert_eq!(anchors(page), ["a", "twice", "twice-1"]);
}

#[test]
fn links_in_code_are_not_links() {
    let page = "See [a](a.md) and `[b](b.md)`.\n\n```md\n[c](c.md)\n```\n\
                ![d](img/d.png \"title\")\n[e]: e.md\n[f](g(h).md)\n";
    let found = links(page);
    let targets: Vec<(usize, &str)> = found.iter().map(|l| (l.line, l.target.as_str())).collect();
    assert_eq!(
        targets,
        [(1, "a.md"), (6, "img/d.png"), (8, "g(h).md"), (7, "e.md")]
    );
}

#[test]
fn a_broken_link_or_anchor_is_reported() {
    let page = repo_path("README.md");
    let text = "# Here\n";
    let link = |target: &str| Link {
        line: 1,
        target: target.to_string(),
    };
    assert_eq!(check(&page, text, &link("#here")), None);
    assert_eq!(check(&page, text, &link("https://example.org/x")), None);
    assert_eq!(check(&page, text, &link("docs/src/SUMMARY.md")), None);
    assert!(check(&page, text, &link("#there")).is_some());
    assert!(check(&page, text, &link("docs/no-such-page.md")).is_some());
    assert!(check(&page, text, &link("docs/src/SUMMARY.md#no-such-heading")).is_some());
    assert!(check(&page, text, &link("Cargo.toml#package")).is_some());
}
