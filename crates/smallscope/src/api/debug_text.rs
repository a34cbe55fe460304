//! `Debug` output with a bound: the code under test's `Debug` may follow a
//! cycle or print gigabytes, and a report needs only its start.

use std::fmt::{self, Debug, Write};

/// Bytes of a rendered value kept in reports and tests.
pub const RENDER_LIMIT: usize = 64 << 10;

/// Bytes of `Debug` output after which the `debug-does-not-panic` contract
/// fails the value: no small structure's rendering comes near it.
pub const CONTRACT_LIMIT: usize = 16 << 20;

/// A writer that keeps (or, without `keep`, only counts) at most `limit`
/// bytes and then refuses more with an error, which derived `Debug`
/// passes up, so formatting stops there.
pub struct Bounded {
    pub text: String,
    keep: bool,
    written: usize,
    limit: usize,
    /// More was offered than `limit`.
    pub cut: bool,
}

impl Bounded {
    pub fn keeping(limit: usize) -> Self {
        Bounded { text: String::new(), keep: true, written: 0, limit, cut: false }
    }

    pub fn counting(limit: usize) -> Self {
        Bounded { keep: false, ..Bounded::keeping(limit) }
    }
}

impl Write for Bounded {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.cut {
            return Err(fmt::Error);
        }
        let room = self.limit - self.written;
        let (taken, cut) = match s.len() <= room {
            true => (s, false),
            false => (&s[..floor_char_boundary(s, room)], true),
        };
        self.written += taken.len();
        if self.keep {
            self.text.push_str(taken);
        }
        self.cut = cut;
        if cut {
            Err(fmt::Error)
        } else {
            Ok(())
        }
    }
}

/// The char boundary of `s` at or before `at` (`str::floor_char_boundary`
/// is newer than the crate's minimum Rust).
fn floor_char_boundary(s: &str, at: usize) -> usize {
    (0..=at.min(s.len())).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0)
}

/// How a text [`debug_text`] cut ends.
const CUT_NOTE: &str = " KiB)";

/// Whether `text` is a [`debug_text`] cut short: not the whole value, so
/// no test may assert it.
pub fn is_cut(text: &str) -> bool {
    text.ends_with(CUT_NOTE) && text.contains("… (Debug output cut at ")
}

/// `value`'s `Debug` text, cut after [`RENDER_LIMIT`] bytes with a note.
///
/// ```
/// let long = vec![7u8; 1 << 20];
/// let text = smallscope::api::debug_text(&long);
/// assert!(text.len() < 70_000 && text.ends_with("(Debug output cut at 64 KiB)"));
/// assert!(smallscope::api::is_cut(&text));
/// assert_eq!(smallscope::api::debug_text(&[1, 2]), "[1, 2]");
/// ```
pub fn debug_text<V: Debug + ?Sized>(value: &V) -> String {
    let mut out = Bounded::keeping(RENDER_LIMIT);
    let _ = write!(out, "{value:?}");
    if out.cut {
        out.text.push_str(&format!("… (Debug output cut at {}{CUT_NOTE}", RENDER_LIMIT >> 10));
    }
    out.text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_keeps_whole_characters() {
        let mut out = Bounded::keeping(5);
        assert!(out.write_str("ab€cd").is_err());
        assert_eq!((out.text.as_str(), out.cut), ("ab€", true));
        let mut counted = Bounded::counting(5);
        assert!(counted.write_str("abcde").is_ok() && counted.text.is_empty());
        assert!(counted.write_str("f").is_err() && counted.cut);
    }
}
