//! What the fast path (`simple`) and the event parser (`yaml`) share: the core schema's
//! reading of a plain scalar and the node bound, so neither depends on the other for them.

use crate::value::Value;

/// At most this many nodes, aliases expanded, before the document is refused.
pub(crate) const MAX_NODES: usize = 100_000;

/// A plain, untagged scalar as the core schema types it: null, a boolean or a number;
/// `None` for a string.
pub(crate) fn resolve_plain(text: &str) -> Option<Value> {
    // Most plain scalars are words: one that starts with a letter other than those of
    // `true`, `false` and `null` (in any of their spellings) is a string, without the
    // number checks.
    if text.as_bytes().first().is_some_and(|b| {
        b.is_ascii_alphabetic() && !matches!(b, b't' | b'T' | b'f' | b'F' | b'n' | b'N')
    }) {
        return None;
    }
    match text {
        "" | "~" | "null" | "Null" | "NULL" => Some(Value::Null),
        // YAML 1.2's core schema: exactly these spellings (so `tRUE` is a string).
        "true" | "True" | "TRUE" => Some(Value::Bool(true)),
        "false" | "False" | "FALSE" => Some(Value::Bool(false)),
        _ => resolve_number(text),
    }
}

fn resolve_number(text: &str) -> Option<Value> {
    let bytes = text.as_bytes();
    let (sign, digits) = match bytes.first()? {
        b'-' => (-1.0, &text[1..]),
        b'+' => (1.0, &text[1..]),
        _ => (1.0, text),
    };
    if let Some(oct) = text.strip_prefix("0o") {
        return i64::from_str_radix(oct, 8).ok().map(Value::Int);
    }
    if let Some(hex) = text.strip_prefix("0x") {
        return i64::from_str_radix(hex, 16).ok().map(Value::Int);
    }
    if matches!(digits, ".inf" | ".Inf" | ".INF") {
        return Some(Value::Float(sign * f64::INFINITY));
    }
    if matches!(text, ".nan" | ".NaN" | ".NAN") {
        return Some(Value::Float(f64::NAN));
    }
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return Some(text.parse::<i64>().map_or_else(
            |_| Value::Float(text.parse().unwrap_or(f64::NAN)),
            Value::Int,
        ));
    }
    is_core_float(digits)
        .then(|| text.parse::<f64>().ok().map(Value::Float))
        .flatten()
}

/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, the core schema's float without sign.
fn is_core_float(s: &str) -> bool {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some((int, frac)) => {
            int.bytes().all(|b| b.is_ascii_digit())
                && frac.bytes().all(|b| b.is_ascii_digit())
                && !(int.is_empty() && frac.is_empty())
        }
        None => !mantissa.is_empty() && mantissa.bytes().all(|b| b.is_ascii_digit()),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
    });
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut for words agrees with the full resolution: every first byte, with
    /// the endings of the special spellings and of numbers.
    #[test]
    fn words_resolve_as_the_full_check_resolves_them() {
        let full = |text: &str| match text {
            "" | "~" | "null" | "Null" | "NULL" => Some(Value::Null),
            "true" | "True" | "TRUE" => Some(Value::Bool(true)),
            "false" | "False" | "FALSE" => Some(Value::Bool(false)),
            _ => resolve_number(text),
        };
        let endings = [
            "", "rue", "RUE", "alse", "ALSE", "ull", "ULL", "1", "12", ".5", "e3", "x1f", "o17",
            "nf", "inf", "nan", "an", " word",
        ];
        for first in (0u8..0x80).map(char::from) {
            for ending in endings {
                let text = format!("{first}{ending}");
                assert_eq!(
                    format!("{:?}", resolve_plain(&text)),
                    format!("{:?}", full(&text)),
                    "{text:?}"
                );
            }
        }
        for special in [
            "true", "True", "FALSE", "null", "Null", "NULL", "~", "0x1f", ".inf",
        ] {
            assert!(resolve_plain(special).is_some(), "{special}");
        }
    }
}
