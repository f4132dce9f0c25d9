//! How clift reads a `CLIFT_*` environment variable: one rule for every
//! flag, every number and every text, so that `CLIFT_NO_SIMD=0` means what
//! `CLIFT_CACHE=0` means.
//!
//! - A variable that is unset or empty (white space only) has its default.
//! - A flag is `1`, `true`, `yes` or `on` (true) or `0`, `false`, `no` or
//!   `off` (false), in any case, white space around it ignored.
//! - A number is a decimal integer within the variable's range, white space
//!   around it ignored.
//! - Any other value is ignored: the variable has its default, and stderr
//!   gets one line saying so, once per variable and process.
//!
//! The runtime's configuration (`runtime/src/config.rs`) reads clift's own
//! variables through this crate, and so do the tests for theirs; the jit
//! and the built-ins read no environment, they receive what they need as
//! parameters. The README lists every variable.

use std::collections::HashSet;
use std::ffi::OsString;
use std::fmt::Display;
use std::ops::RangeInclusive;
use std::str::FromStr;
use std::sync::{Mutex, OnceLock};

/// A flag's value as written (`None`: not a flag value).
pub fn parse_flag(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// A number's value as written, if it lies in `range`.
pub fn parse_number<T: FromStr + PartialOrd>(text: &str, range: &RangeInclusive<T>) -> Option<T> {
    let t = text.trim();
    // Decimal digits only: no sign, no `0x`, nothing `FromStr` would also take.
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok().filter(|v| range.contains(v))
}

/// Variable `name`, `None` when it is unset or empty (white space only).
pub fn value(name: &str) -> Option<OsString> {
    std::env::var_os(name).filter(|v| !v.to_string_lossy().trim().is_empty())
}

/// Variable `name` as text (bytes that are not UTF-8 replaced), `None` when
/// it is unset or empty.
pub fn text(name: &str) -> Option<String> {
    value(name).map(|v| v.to_string_lossy().into_owned())
}

/// Flag `name`: `default` when unset, empty or not a flag value (with a
/// warning).
pub fn flag(name: &str, default: bool) -> bool {
    let Some(v) = text(name) else {
        return default;
    };
    parse_flag(&v).unwrap_or_else(|| {
        warn(name, &v, "1, true, yes, on, 0, false, no or off", &default);
        default
    })
}

/// Number `name` in `range`: `default` when unset, empty or not a number
/// in `range` (with a warning).
pub fn number<T>(name: &str, default: T, range: RangeInclusive<T>) -> T
where
    T: FromStr + PartialOrd + Display,
{
    let Some(v) = text(name) else {
        return default;
    };
    parse_number(&v, &range).unwrap_or_else(|| {
        let want = format!("a whole number from {} to {}", range.start(), range.end());
        warn(name, &v, &want, &default);
        default
    })
}

/// One line on stderr for a value that is ignored, once per variable.
fn warn(name: &str, value: &str, want: &str, default: &dyn Display) {
    static WARNED: OnceLock<Mutex<HashSet<String>>> = OnceLock::new();
    let warned = WARNED.get_or_init(|| Mutex::new(HashSet::new()));
    let first = warned
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(name.to_string());
    if first {
        eprintln!("clift: ignoring {name}={value:?}: not {want}; the default ({default}) applies");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags() {
        for t in ["1", "true", "TRUE", "Yes", "on", " on\n"] {
            assert_eq!(parse_flag(t), Some(true), "{t:?}");
        }
        for t in ["0", "false", "False", "NO", "off", "\t0 "] {
            assert_eq!(parse_flag(t), Some(false), "{t:?}");
        }
        for t in ["", " ", "2", "-1", "y", "n", "enabled", "00", "o n", "1 1"] {
            assert_eq!(parse_flag(t), None, "{t:?}");
        }
    }

    #[test]
    fn numbers() {
        let r = 1u64..=u64::MAX;
        assert_eq!(parse_number("120", &r), Some(120));
        assert_eq!(parse_number(" 7\n", &r), Some(7));
        assert_eq!(parse_number("007", &r), Some(7));
        assert_eq!(parse_number("18446744073709551615", &r), Some(u64::MAX));
        for t in [
            "",
            " ",
            "0",
            "-5",
            "+5",
            "1.5",
            "1e3",
            "0x10",
            "12 s",
            "18446744073709551616",
        ] {
            assert_eq!(parse_number(t, &r), None, "{t:?}");
        }
        assert_eq!(parse_number("64", &(1usize..=64)), Some(64));
        assert_eq!(parse_number("65", &(1usize..=64)), None);
    }

    #[test]
    fn variables_fall_back_to_their_defaults() {
        // Names no one else sets; this test alone writes them.
        let (f, n) = ("CLIFT_ENV_TEST_FLAG", "CLIFT_ENV_TEST_NUMBER");
        std::env::remove_var(f);
        std::env::remove_var(n);
        assert!(flag(f, true) && !flag(f, false));
        assert_eq!(number(n, 3u32, 1..=9), 3);
        for (v, want) in [("", true), ("0", false), ("off", false), ("1", true), ("maybe", true)] {
            std::env::set_var(f, v);
            assert_eq!(flag(f, true), want, "{v:?}");
        }
        for (v, want) in [("", 3), ("5", 5), ("10", 3), ("x", 3)] {
            std::env::set_var(n, v);
            assert_eq!(number(n, 3u32, 1..=9), want, "{v:?}");
        }
        std::env::set_var(n, " ");
        assert_eq!(text(n), None);
        std::env::set_var(n, "a b");
        assert_eq!(text(n).as_deref(), Some("a b"));
        std::env::remove_var(f);
        std::env::remove_var(n);
    }
}
