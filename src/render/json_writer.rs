//! JSON objects of a fixed shape written straight into the output bytes: the same
//! bytes serde_json writes for them, pretty-printed at a given depth or compact.
//! Through serde, each key, string and indentation level was its own call and
//! write, and that cost more than linting the payloads the diagnostics are about.

use crate::syntax::json::plain_run_end;

/// How the objects are laid out: as serde_json's `PrettyFormatter` does inside
/// `depth` open containers (two spaces per level), or as its compact formatter does.
#[derive(Clone, Copy)]
pub(super) enum Layout {
    Pretty { depth: usize },
    Compact,
}

/// Writes one JSON value at a time into `out`, opening and closing containers as
/// serde_json would.
pub(super) struct JsonWriter<'o> {
    out: &'o mut Vec<u8>,
    pretty: bool,
    /// Containers open, counting those the layout starts inside.
    depth: usize,
    /// Whether the innermost open container has an element yet.
    has_element: bool,
}

/// A line break and the indentation of up to 31 levels, cut to the level.
const NEW_LINE: &[u8] = b"\n                                                              ";

impl<'o> JsonWriter<'o> {
    pub(super) fn new(out: &'o mut Vec<u8>, layout: Layout) -> JsonWriter<'o> {
        let (pretty, depth) = match layout {
            Layout::Pretty { depth } => (true, depth),
            Layout::Compact => (false, 0),
        };
        JsonWriter {
            out,
            pretty,
            depth,
            has_element: false,
        }
    }

    fn new_line(&mut self) {
        if self.pretty {
            let width = 1 + 2 * self.depth;
            match NEW_LINE.get(..width) {
                Some(new_line) => self.out.extend_from_slice(new_line),
                None => {
                    self.out.push(b'\n');
                    self.out.resize(self.out.len() + width - 1, b' ');
                }
            }
        }
    }

    /// Opens an object (`{`) or array (`[`) as the next value.
    #[inline]
    pub(super) fn open(&mut self, bracket: u8) {
        self.out.push(bracket);
        self.depth += 1;
        self.has_element = false;
    }

    /// Closes the innermost container with `bracket`.
    #[inline]
    pub(super) fn close(&mut self, bracket: u8) {
        self.depth -= 1;
        if self.has_element {
            self.new_line();
        }
        self.out.push(bracket);
        // The container just closed is an element of the one around it.
        self.has_element = true;
    }

    /// Starts the next element of the innermost array.
    #[inline(always)]
    pub(super) fn element(&mut self) {
        if self.has_element {
            self.out.push(b',');
        }
        self.new_line();
        self.has_element = true;
    }

    /// Starts the member `key` (plain ASCII, nothing to escape) of the innermost
    /// object; its value comes next. Always inlined: each key is then a constant,
    /// copied by a few moves instead of a call (−0.7% of a JSON run).
    #[inline(always)]
    pub(super) fn key(&mut self, key: &str) {
        self.element();
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out
            .extend_from_slice(if self.pretty { b"\": " } else { b"\":" });
    }

    /// Starts the member `key` whose value is an array of one object (as SARIF
    /// has several), leaving the object open for its members.
    pub(super) fn open_array_of_one_object(&mut self, key: &str) {
        self.key(key);
        self.open(b'[');
        self.element();
        self.open(b'{');
    }

    pub(super) fn close_array_of_one_object(&mut self) {
        self.close(b'}');
        self.close(b']');
    }

    pub(super) fn string(&mut self, text: &str) {
        self.string_of(&[text]);
    }

    /// One string made of `parts`, as if joined first.
    pub(super) fn string_of(&mut self, parts: &[&str]) {
        self.out.push(b'"');
        for part in parts {
            push_json_escaped(self.out, part);
        }
        self.out.push(b'"');
    }

    #[inline]
    pub(super) fn null(&mut self) {
        self.out.extend_from_slice(b"null");
    }

    /// A member whose value is a string.
    #[inline]
    pub(super) fn string_member(&mut self, key: &str, text: &str) {
        self.key(key);
        self.string(text);
    }

    /// A member whose value is a number.
    #[inline]
    pub(super) fn number_member(&mut self, key: &str, number: usize) {
        self.key(key);
        self.out
            .extend_from_slice(itoa::Buffer::new().format(number).as_bytes());
    }
}

/// `text` escaped for a JSON string as serde_json escapes it: `"`, `\` and the
/// control characters (by their short escapes where JSON has one), nothing else.
fn push_json_escaped(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    let mut plain_from = 0;
    loop {
        let special = plain_run_end(bytes, plain_from);
        out.extend_from_slice(&bytes[plain_from..special]);
        let Some(&b) = bytes.get(special) else { break };
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0C => out.extend_from_slice(b"\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 0xF)]);
            }
        }
        plain_from = special + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every string, control characters and all, is escaped as serde_json does.
        #[test]
        fn strings_are_escaped_as_serde_json_escapes(text in "(\\PC|[\u{0}-\u{1f}\"\\\\\u{7f}])*") {
            let mut out = Vec::new();
            JsonWriter::new(&mut out, Layout::Compact).string(&text);
            prop_assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string(&text).unwrap());
        }
    }
}
