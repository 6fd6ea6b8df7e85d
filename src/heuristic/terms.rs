//! The one list of the heuristic's terms. `define_weights!` takes the terms,
//! each with its type, reference value, C name and valid range, and writes
//! from them the `Weights` struct, its reference values, [`TERMS`],
//! [`PARAM_NAMES`] and the per-field slices the accessors walk. What cannot
//! be generated (the term list in the comments of `configs/default.ron`, the
//! formula of `docs/src/guide/weights.md`) is checked against [`PARAM_NAMES`]
//! by the tests below.
//!
//! [`TERMS`]: super::weights::TERMS
//! [`PARAM_NAMES`]: super::weights::PARAM_NAMES

use std::ops::RangeInclusive;

/// One field of `Weights`: a scalar term or an array of cell weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    /// The field's name in Rust, RON and JSON.
    pub name: &'static str,
    /// The parameter name of each value: the field's own name for a scalar,
    /// `name[i]` for cell `i` of an array.
    pub params: &'static [&'static str],
    /// Name in the exported C header: a `#define` for a scalar, a
    /// `static const double` array otherwise.
    pub c_name: &'static str,
    /// The range each value must lie in besides being finite; `None` when
    /// any finite value goes.
    pub valid: Option<RangeInclusive<f64>>,
}

impl Term {
    /// A single number rather than an array.
    pub fn is_scalar(&self) -> bool {
        self.params == [self.name]
    }
}

/// The values of one field as a slice: one number, or every cell.
pub trait Cells {
    /// How many values: 1, or the array's length.
    const LEN: usize;
    fn cells(&self) -> &[f64];
    fn cells_mut(&mut self) -> &mut [f64];
}

impl Cells for f64 {
    const LEN: usize = 1;
    fn cells(&self) -> &[f64] {
        std::slice::from_ref(self)
    }
    fn cells_mut(&mut self) -> &mut [f64] {
        std::slice::from_mut(self)
    }
}

impl<const N: usize> Cells for [f64; N] {
    const LEN: usize = N;
    fn cells(&self) -> &[f64] {
        self
    }
    fn cells_mut(&mut self) -> &mut [f64] {
        self
    }
}

/// Writes the weights struct and every list derived from its terms. Each
/// term reads
///
/// ```text
/// /// doc, and any field attributes (serde)
/// name: type = reference value, c "C_NAME" [, params ["name[0]", ...]] [, valid lo..=hi];
/// ```
///
/// `params` names the cells of an array (a scalar's only parameter is its
/// own name); `valid` bounds every value of the term. Fields keep the order
/// written, and so do [`TERMS`](super::weights::TERMS) and
/// [`PARAM_NAMES`](super::weights::PARAM_NAMES).
macro_rules! define_weights {
    (
        $(#[$struct_attr:meta])*
        pub struct Weights {
            $(
                $(#[$attr:meta])*
                $name:ident: $ty:ty = $reference:expr,
                    c $c_name:literal
                    $(, params [$($param:literal),+ $(,)?])?
                    $(, valid $valid:expr)?;
            )+
        }
    ) => {
        $(#[$struct_attr])*
        pub struct Weights {
            $(
                $(#[$attr])*
                pub $name: $ty,
            )+
        }

        /// Number of fields of [`Weights`].
        const TERM_COUNT: usize = [$(stringify!($name)),+].len();

        /// Every field of [`Weights`], in the struct's order.
        pub const TERMS: [$crate::heuristic::terms::Term; TERM_COUNT] = [$(
            $crate::heuristic::terms::Term {
                name: stringify!($name),
                params: define_weights!(@params $name $([$($param),+])?),
                c_name: $c_name,
                valid: define_weights!(@valid $($valid)?),
            }
        ),+];

        // Each field has one parameter name per value.
        const _: () = {$(
            assert!(
                <$ty as $crate::heuristic::terms::Cells>::LEN
                    == define_weights!(@params $name $([$($param),+])?).len(),
                concat!("`", stringify!($name), "` needs one parameter name per cell"),
            );
        )+};

        /// Number of tunable parameters: one per scalar, one per cell.
        pub const PARAM_COUNT: usize = {
            let mut count = 0;
            let mut t = 0;
            while t < TERM_COUNT {
                count += TERMS[t].params.len();
                t += 1;
            }
            count
        };

        /// Names of every tunable parameter, in a fixed order: the fields'
        /// order, with an array's cells in place.
        pub const PARAM_NAMES: [&str; PARAM_COUNT] = {
            let mut names = [""; PARAM_COUNT];
            let mut n = 0;
            let mut t = 0;
            while t < TERM_COUNT {
                let mut i = 0;
                while i < TERMS[t].params.len() {
                    names[n] = TERMS[t].params[i];
                    n += 1;
                    i += 1;
                }
                t += 1;
            }
            names
        };

        /// The reference heuristic, every term at the value the table gives.
        const REFERENCE: Weights = Weights {
            $($name: $reference,)+
        };

        impl Weights {
            /// Each field's values, in [`TERMS`] order.
            fn fields(&self) -> [&[f64]; TERM_COUNT] {
                [$($crate::heuristic::terms::Cells::cells(&self.$name)),+]
            }

            /// Each field's values, in [`TERMS`] order, for writing.
            fn fields_mut(&mut self) -> [&mut [f64]; TERM_COUNT] {
                [$($crate::heuristic::terms::Cells::cells_mut(&mut self.$name)),+]
            }
        }
    };
    (@params $name:ident) => {
        &[stringify!($name)]
    };
    (@params $name:ident [$($param:literal),+]) => {
        &[$($param),+]
    };
    (@valid) => {
        None
    };
    (@valid $valid:expr) => {
        Some($valid)
    };
}

pub(crate) use define_weights;

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::heuristic::weights::{PARAM_NAMES, TERMS};

    /// The parameter names of `text`, a comma-separated list in which
    /// `a[0]..a[15]` stands for every cell from the first to the last.
    fn expand(text: &str) -> Vec<String> {
        let mut names = Vec::new();
        for item in text.split(',').map(str::trim) {
            let Some((first, last)) = item.split_once("..") else {
                names.push(item.to_string());
                continue;
            };
            let cell = |s: &str| -> (String, usize) {
                let (array, index) = s.strip_suffix(']').unwrap().split_once('[').unwrap();
                (array.to_string(), index.parse().unwrap())
            };
            let ((array, from), (other, to)) = (cell(first), cell(last));
            assert_eq!(array, other, "{item}");
            names.extend((from..=to).map(|i| format!("{array}[{i}]")));
        }
        names
    }

    /// The list after "a heuristic term:" in a config's comments, up to the
    /// full stop; `None` if the file has no such list.
    fn documented_terms(config: &str) -> Option<Vec<String>> {
        let start = config.find("a heuristic term:")? + "a heuristic term:".len();
        let mut list = String::new();
        for line in config[start..].lines() {
            let text = line.trim_start().trim_start_matches("//").trim();
            list.push(' ');
            list.push_str(text);
            if text.ends_with('.') {
                return Some(expand(list.trim().trim_end_matches('.')));
            }
        }
        panic!("the term list does not end with a full stop");
    }

    #[test]
    fn every_config_that_lists_the_terms_lists_them_all() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
        let mut listed = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "ron") {
                let text = std::fs::read_to_string(&path).unwrap();
                if let Some(names) = documented_terms(&text) {
                    assert_eq!(names, PARAM_NAMES, "{}", path.display());
                    listed.push(path.file_name().unwrap().to_owned());
                }
            }
        }
        assert!(listed.iter().any(|f| f == "default.ron"), "{listed:?}");
    }

    #[test]
    fn the_weights_page_formula_names_every_term_and_no_other() {
        // The section runs from its heading to the next heading of level 2
        // (or the end of the page).
        let page = include_str!("../../docs/src/guide/weights.md");
        let start = page.find("\n## Weights files\n").unwrap() + 1;
        let end = page[start + 1..]
            .find("\n## ")
            .map_or(page.len(), |i| start + 1 + i);
        let section = &page[start..end];
        let words: Vec<&str> = section
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        for term in &TERMS {
            assert!(
                words.contains(&term.name),
                "docs/src/guide/weights.md lacks `{}`",
                term.name
            );
        }
        // Snake-case words are term names; English has none.
        for word in words.iter().filter(|w| w.contains('_')) {
            assert!(
                TERMS.iter().any(|t| t.name == *word),
                "docs/src/guide/weights.md names `{word}`, which is no term"
            );
        }
    }

    #[test]
    fn names_are_unique_in_rust_and_in_c() {
        for (i, a) in TERMS.iter().enumerate() {
            for b in &TERMS[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.c_name, b.c_name);
            }
        }
        for (i, a) in PARAM_NAMES.iter().enumerate() {
            assert!(!PARAM_NAMES[i + 1..].contains(a), "{a}");
        }
    }
}
