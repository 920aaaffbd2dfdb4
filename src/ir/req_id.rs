//! `meta.req_id` regeneration on decode (languages.md §2): the first N lower-case hex
//! characters of the SHA-256 of the payload text. The code frontend hashes the
//! trimmed text up to (excluding) its ` else:` branch, the JSON frontend the payload
//! text exactly. The draft's production default is N = 8; the reference
//! implementation uses N = 4.

use sha2::{Digest, Sha256};

/// The draft's production default length.
pub const DEFAULT_LENGTH: usize = 8;

/// The length the reference implementation uses.
pub const REFERENCE_LENGTH: usize = 4;

/// The shortest and longest lengths the normative schema accepts (`^[a-f0-9]{4,8}$`).
pub const LENGTHS: std::ops::RangeInclusive<usize> = 4..=8;

/// The first `length` lower-case hex characters of SHA-256 over `text` (at most 64).
pub fn hash(text: &str, length: usize) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digest = Sha256::digest(text.as_bytes());
    let mut out = String::with_capacity(64);
    for byte in digest.iter() {
        out.push(HEX[usize::from(byte >> 4)] as char);
        out.push(HEX[usize::from(byte & 0x0f)] as char);
    }
    out.truncate(length.min(64));
    out
}

/// The text a code-frontend payload's id is computed from: trimmed, and cut before
/// the first ` else:`.
pub fn code_hash_input(payload: &str) -> &str {
    let trimmed = payload.trim();
    match trimmed.find(" else:") {
        Some(at) => &trimmed[..at],
        None => trimmed,
    }
}

/// The regenerated id of a code-frontend payload.
pub fn for_code(payload: &str, length: usize) -> String {
    hash(code_hash_input(payload), length)
}

/// The regenerated id of a JSON-frontend payload (its exact text).
pub fn for_json(payload: &str, length: usize) -> String {
    hash(payload, length)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_known_sha256_prefixes() {
        // sha256("") = e3b0c442...
        assert_eq!(hash("", 8), "e3b0c442");
        assert_eq!(hash("abc", 64).len(), 64);
        assert!(hash("abc", 64).starts_with("ba7816bf"));
        assert_eq!(hash("abc", 100).len(), 64);
    }

    #[test]
    fn code_ids_ignore_the_else_branch_and_surrounding_space() {
        assert_eq!(
            code_hash_input("  if !rain(t+1): start(hike) else: start(cards@indoor) "),
            "if !rain(t+1): start(hike)"
        );
        assert_eq!(
            for_code("if !rain(t+1): start(hike) else: start(cards@indoor)", 4),
            for_code("if !rain(t+1): start(hike)", 4)
        );
        assert_eq!(code_hash_input("cancel(x)"), "cancel(x)");
    }
}
