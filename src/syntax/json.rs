//! Span-preserving strict JSON (RFC 8259): objects, arrays and JSONL lines.
//!
//! One pass over the bytes builds [`JsonNode`]s with absolute file spans. It rejects
//! everything RFC 8259 rejects (comments, trailing commas, raw control characters in
//! strings, white space other than space, tab, CR and LF, unpaired surrogate escapes),
//! keeps duplicate keys for the rules to report, words each error as "expected X,
//! found Y", and keeps open containers on an explicit stack limited to [`MAX_DEPTH`],
//! so no input recurses unboundedly. Checking and building in one scan matters: JSON
//! is the largest share of a run over a prompt library.

use crate::source::Span;
use crate::syntax::{describe_found, SyntaxError};
use compact_str::CompactString;

/// A key, string or number as the tree holds it: inline up to 24 bytes, so the
/// short keys and values payloads are made of cost no allocation of their own.
pub type JsonText = CompactString;

/// The deepest nesting of arrays and objects accepted (serde_json's limit).
pub const MAX_DEPTH: usize = 128;

/// A JSON value and the bytes it spans (strings include their quotes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JsonNode {
    pub value: JsonValue,
    pub span: Span,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub enum JsonValue {
    #[default]
    Null,
    Bool(bool),
    /// The number as written (`4.0`, `1e3`).
    Number(JsonText),
    /// The decoded string.
    String(JsonText),
    Array(Vec<JsonNode>),
    /// Members in source order; duplicate keys are kept.
    Object(JsonObject),
}

/// An object's members in source order, duplicate keys kept, read as a slice.
/// Only the parser builds one: it notes whether a key repeats in the object or in
/// any object inside it, so a search for duplicate keys skips the objects where
/// none can be (nearly all).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JsonObject {
    members: Vec<JsonMember>,
    repeats_within: bool,
}

impl std::ops::Deref for JsonObject {
    type Target = [JsonMember];

    fn deref(&self) -> &[JsonMember] {
        &self.members
    }
}

impl<'a> IntoIterator for &'a JsonObject {
    type Item = &'a JsonMember;
    type IntoIter = std::slice::Iter<'a, JsonMember>;

    fn into_iter(self) -> Self::IntoIter {
        self.members.iter()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct JsonMember {
    pub key: JsonText,
    /// The key's span, quotes included.
    pub key_span: Span,
    pub value: JsonNode,
}

impl JsonMember {
    /// The member's span: from the key's opening quote to the end of its value.
    pub fn span(&self) -> Span {
        self.key_span.start..self.value.span.end
    }

    /// Whether the key was written without escapes, so its decoded bytes are the
    /// bytes of the file (every JSON escape is longer than what it decodes to).
    pub fn key_is_verbatim(&self) -> bool {
        is_verbatim(&self.key, &self.key_span)
    }
}

/// Whether the string `decoded`, written at `span` (quotes included), was written
/// without escapes, so its decoded bytes are the file's: every JSON escape is longer
/// than what it decodes to.
pub fn is_verbatim(decoded: &str, span: &Span) -> bool {
    span.len() == decoded.len() + 2
}

/// The result of parsing one JSON text: the value when it parsed, and the errors.
#[derive(Clone, Debug, Default)]
pub struct JsonParse {
    pub value: Option<JsonNode>,
    pub errors: Vec<SyntaxError>,
}

impl JsonNode {
    /// The members of an object; empty for any other value.
    pub fn members(&self) -> &[JsonMember] {
        match &self.value {
            JsonValue::Object(members) => members,
            _ => &[],
        }
    }

    /// The member named `key` that JSON parsers keep: the last one written.
    pub fn get(&self, key: &str) -> Option<&JsonNode> {
        self.members()
            .iter()
            .rev()
            .find(|member| member.key == key)
            .map(|member| &member.value)
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            JsonValue::String(text) => Some(text),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[JsonNode]> {
        match &self.value {
            JsonValue::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn is_object(&self) -> bool {
        matches!(self.value, JsonValue::Object(_))
    }

    pub fn is_null(&self) -> bool {
        matches!(self.value, JsonValue::Null)
    }

    /// The JSON type, as messages name it: `a string`, `null`, `an object`...
    pub fn type_name(&self) -> &'static str {
        match self.value {
            JsonValue::Null => "null",
            JsonValue::Bool(_) => "a boolean",
            JsonValue::Number(_) => "a number",
            JsonValue::String(_) => "a string",
            JsonValue::Array(_) => "an array",
            JsonValue::Object(_) => "an object",
        }
    }

    /// The node a JSON pointer (RFC 6901: `/meta/seq/0`, `~1` for `/`, `~0` for `~`)
    /// names, the empty pointer naming the node itself. A duplicated key resolves to
    /// its last member, as JSON parsers do.
    pub fn pointer(&self, pointer: &str) -> Option<&JsonNode> {
        if pointer.is_empty() {
            return Some(self);
        }
        let rest = pointer.strip_prefix('/')?;
        let mut node = self;
        for token in rest.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            node = match &node.value {
                JsonValue::Object(_) => node.get(&token)?,
                JsonValue::Array(items) => {
                    if token.len() > 1 && token.starts_with('0') {
                        return None;
                    }
                    items.get(token.parse::<usize>().ok()?)?
                }
                _ => return None,
            };
        }
        Some(node)
    }

    /// A copy of this object whose members picked by `hollow` hold empty arrays
    /// spanning what their values spanned: the rest of a document, to validate apart
    /// from its long arrays without copying them.
    pub fn hollowed(&self, hollow: impl Fn(&JsonMember) -> bool) -> JsonNode {
        let JsonValue::Object(object) = &self.value else {
            return self.clone();
        };
        let members = object
            .members
            .iter()
            .map(|member| match hollow(member) {
                true => JsonMember {
                    key: member.key.clone(),
                    key_span: member.key_span.clone(),
                    value: JsonNode {
                        value: JsonValue::Array(Vec::new()),
                        span: member.value.span.clone(),
                    },
                },
                false => member.clone(),
            })
            .collect();
        JsonNode {
            value: JsonValue::Object(JsonObject {
                members,
                repeats_within: object.repeats_within,
            }),
            span: self.span.clone(),
        }
    }

    /// Every member whose key was already written earlier in the same object, in
    /// document order: what JSON parsers silently drop.
    pub fn duplicate_keys(&self) -> Vec<&JsonMember> {
        let mut duplicates = Vec::new();
        self.push_duplicate_keys(&mut duplicates);
        duplicates
    }

    /// Recursion follows the nesting, which [`parse_json`] bounds by [`MAX_DEPTH`].
    fn push_duplicate_keys<'a>(&'a self, duplicates: &mut Vec<&'a JsonMember>) {
        match &self.value {
            JsonValue::Object(members) if members.repeats_within => {
                let repeated = crate::repeats::repeats(members, |member| Some(member.key.as_str()));
                duplicates.extend(repeated.map(|(index, _)| &members[index]));
                for member in members {
                    member.value.push_duplicate_keys(duplicates);
                }
            }
            JsonValue::Array(items) => {
                for item in items {
                    item.push_duplicate_keys(duplicates);
                }
            }
            _ => {}
        }
    }

    /// The value as `serde_json` holds it, for schema validation. Duplicate keys keep
    /// the last value (as every JSON parser does); a number too large for a double
    /// becomes the largest finite double of its sign.
    ///
    /// Recursion follows the nesting, which [`parse_json`] bounds by [`MAX_DEPTH`].
    pub fn to_serde(&self) -> serde_json::Value {
        use serde_json::Value;
        match &self.value {
            JsonValue::Null => Value::Null,
            JsonValue::Bool(value) => Value::Bool(*value),
            JsonValue::Number(text) => Value::Number(serde_number(text)),
            JsonValue::String(text) => Value::String(text.to_string()),
            JsonValue::Array(items) => Value::Array(items.iter().map(JsonNode::to_serde).collect()),
            JsonValue::Object(members) => {
                let mut map = serde_json::Map::with_capacity(members.len());
                for member in members {
                    map.insert(member.key.to_string(), member.value.to_serde());
                }
                Value::Object(map)
            }
        }
    }
}

/// The number `text` as `serde_json` reads it; one too large for a double becomes the
/// largest finite double of its sign.
pub fn serde_number(text: &str) -> serde_json::Number {
    if let Ok(number) = text.parse::<serde_json::Number>() {
        return number;
    }
    let max = if text.starts_with('-') {
        f64::MIN
    } else {
        f64::MAX
    };
    let value = text
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .unwrap_or(max);
    serde_json::Number::from_f64(value).unwrap_or_else(|| serde_json::Number::from(0))
}

/// The bytes to delete to remove member `index` of `object` and one comma beside it,
/// so the object stays valid JSON: up to the next member's key, or (for the last
/// member) from the end of the previous member's value.
pub fn member_removal_span(object: &JsonNode, index: usize) -> Option<Span> {
    let members = object.members();
    let member = members.get(index)?;
    if let Some(next) = members.get(index + 1) {
        Some(member.key_span.start..next.key_span.start)
    } else if let Some(previous) = index.checked_sub(1).and_then(|i| members.get(i)) {
        Some(previous.value.span.end..member.value.span.end)
    } else {
        Some(member.span())
    }
}

/// Parses `text`, which starts at byte `base` of its file, as strict JSON: the value,
/// or the first error.
pub fn parse_json(text: &str, base: usize) -> JsonParse {
    let (value, errors) = Parser::new(text, base, false).run();
    JsonParse { value, errors }
}

/// Parses `text` like [`parse_json`], but when the top level is an array, an error
/// inside one element costs only that element: it is reported, the parse resumes at
/// the next element, and the array holds the elements that parsed. So one broken
/// payload of a `.silp.json` file does not hide the others' diagnostics.
pub fn parse_json_recovering(text: &str, base: usize) -> JsonParse {
    let (value, errors) = Parser::new(text, base, true).run();
    JsonParse { value, errors }
}

/// What the grammar allows at the current position.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// A value: at the start, after `:`, or after `,` in an array (`after_comma`).
    Value {
        after_comma: bool,
    },
    /// A value or `]`, just after `[`.
    ValueOrClose,
    /// A key or `}`, just after `{`.
    KeyOrClose,
    /// A key, after `,` in an object.
    Key,
    Colon,
    /// `,` or the close of the innermost container.
    CommaOrClose,
    /// Nothing more: the text holds one value.
    End,
}

/// A container being built: its opening byte and where what it holds so far
/// starts in the parser's [`Parser::items`] or [`Parser::members`].
enum Open {
    Array {
        start: usize,
        first_item: usize,
        /// Whether a key repeats in an object inside.
        repeats_within: bool,
    },
    Object {
        start: usize,
        first_member: usize,
        /// The key read, waiting for its value.
        key: Option<(JsonText, Span)>,
        /// Each key's [`key_bucket`], as a set: a key whose bucket is taken may
        /// repeat an earlier one, and only then are the keys compared.
        buckets: u64,
        /// Whether a key repeats in this object (once `buckets` collide and the
        /// keys compare equal) or in an object inside.
        repeats_within: bool,
        /// Whether two keys have shared a bucket, so the keys must be compared.
        bucket_collided: bool,
    },
}

/// One of 64 buckets for a key, from its length and its first, middle and last
/// bytes: equal keys share one, and the few keys of an object rarely do otherwise.
fn key_bucket(key: &str) -> u32 {
    let bytes = key.as_bytes();
    let at = |i: usize| bytes.get(i).copied().unwrap_or(0) as u32;
    let len = bytes.len();
    (len as u32)
        .wrapping_mul(31)
        .wrapping_add(at(0).wrapping_mul(7))
        .wrapping_add(at(len / 2).wrapping_mul(3))
        .wrapping_add(at(len.wrapping_sub(1)))
        % 64
}

/// Whether a key repeats among `members`: the exact test, for the objects whose
/// key buckets collide.
#[cold]
fn has_repeated_key(members: &[JsonMember]) -> bool {
    crate::repeats::repeats(members, |member| Some(member.key.as_str()))
        .next()
        .is_some()
}

/// The elements of `open` from `first` on, in a vector of their number, moved in
/// one copy. When they are all of them, and many (copying them would hold them
/// twice) or filling at least half the vector's room (a root object, mostly), the
/// vector itself.
fn take_from<T>(open: &mut Vec<T>, first: usize) -> Vec<T> {
    const LARGE: usize = 4096;
    let first = first.min(open.len());
    let count = open.len() - first;
    if first > 0 {
        return open.split_off(first);
    }
    if count >= LARGE || open.capacity() <= 2 * count {
        return std::mem::take(open);
    }
    let mut exact = Vec::with_capacity(count);
    exact.append(open);
    exact
}

/// A strict RFC 8259 parser with a stack of open containers (no recursion).
struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    /// Where `text` starts in its file: added to every node's span.
    base: usize,
    pos: usize,
    stack: Vec<Open>,
    /// The items of the open arrays, the innermost's last, and likewise the
    /// members of the open objects: a closed container takes its own in a vector
    /// of their number. Each container growing its own vector held up to four
    /// times the room of an object's one or two members (a vector's first room is
    /// for four), 70% of a line of 525,000 one-member objects.
    items: Vec<JsonNode>,
    members: Vec<JsonMember>,
    /// The top-level value, once complete.
    root: Option<JsonNode>,
    /// Whether an error inside an element of a top-level array skips that element.
    recover: bool,
    errors: Vec<SyntaxError>,
}

struct Error {
    span: Span,
    message: String,
}

type Step<T> = Result<T, Error>;

fn error<T>(span: Span, message: impl Into<String>) -> Step<T> {
    Err(Error {
        span,
        message: message.into(),
    })
}

/// Characters that show as nothing: named by code point in messages.
fn is_invisible(ch: char) -> bool {
    matches!(ch,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{180E}'
        | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}'
        | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
        | '\u{E0000}'..='\u{E007F}' | '\u{E0100}'..='\u{E01EF}')
}

/// Eight copies of a byte in one word, for the comparisons below.
const fn broadcast(byte: u8) -> u64 {
    u64::from_ne_bytes([byte; 8])
}

/// The index after the white space that starts at `pos`. Most tokens are followed
/// by none or by one space (`": "`, `", "`), which are taken first; pretty-printed
/// JSON is otherwise mostly indentation, so spaces are counted eight bytes at a time.
fn skip_white_space(bytes: &[u8], mut pos: usize) -> usize {
    // Every byte above the space is a token's: white space is space, tab, LF and CR.
    match bytes.get(pos) {
        Some(&b) if b > b' ' => return pos,
        Some(b' ') if bytes.get(pos + 1).is_some_and(|&b| b > b' ') => return pos + 1,
        _ => {}
    }
    while let Some(chunk) = bytes.get(pos..pos + 8) {
        let not_spaces = u64::from_le_bytes(chunk.try_into().unwrap_or_default()) ^ broadcast(b' ');
        // The lowest nonzero byte is the first that is not a space.
        pos += (not_spaces.trailing_zeros() / 8) as usize;
        if not_spaces != 0 && !matches!(bytes[pos], b'\t' | b'\n' | b'\r') {
            return pos;
        }
        pos += usize::from(not_spaces != 0);
    }
    while matches!(bytes.get(pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        pos += 1;
    }
    pos
}

/// The index of the first quote, backslash or control character from `pos` on (or
/// the end): a string's plain run, checked eight bytes at a time. The bytes a JSON
/// string must escape are exactly these, so writing one finds them the same way.
pub(crate) fn plain_run_end(bytes: &[u8], mut pos: usize) -> usize {
    const ONES: u64 = broadcast(0x01);
    const HIGH_BITS: u64 = broadcast(0x80);
    while let Some(chunk) = bytes.get(pos..pos + 8) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        let quote = word ^ broadcast(b'"');
        let backslash = word ^ broadcast(b'\\');
        // The classic word tests: a byte's high bit is set in a term where that
        // byte is zero (below 0x20 for the last). A borrow only runs upwards from
        // such a byte, so the lowest flagged byte is exactly the first special one.
        let special = ((quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (word.wrapping_sub(broadcast(0x20)) & !word))
            & HIGH_BITS;
        if special != 0 {
            return pos + (special.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    while let Some(&b) = bytes.get(pos) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            break;
        }
        pos += 1;
    }
    pos
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'+' | b'-' | b'$')
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, base: usize, recover: bool) -> Parser<'a> {
        Parser {
            text,
            bytes: text.as_bytes(),
            base,
            pos: 0,
            stack: Vec::new(),
            items: Vec::new(),
            members: Vec::new(),
            root: None,
            recover,
            errors: Vec::new(),
        }
    }

    /// The value (complete, or in recovery the top-level array's elements that
    /// parsed) and the errors.
    fn run(mut self) -> (Option<JsonNode>, Vec<SyntaxError>) {
        let mut expect = Expect::Value { after_comma: false };
        loop {
            self.pos = skip_white_space(self.bytes, self.pos);
            let step = match self.bytes.get(self.pos) {
                None if expect == Expect::End => break,
                None => self.unexpected(expect),
                Some(&b) => self.step(expect, b),
            };
            match step {
                Ok(next) => expect = next,
                Err(error) => {
                    self.errors.push(SyntaxError::new(
                        self.base + error.span.start..self.base + error.span.end,
                        error.message,
                    ));
                    match self.resume_after(expect) {
                        Some(next) => expect = next,
                        None => break,
                    }
                }
            }
        }
        if self.root.is_none() && self.recover {
            if let Some(&Open::Array { start, .. }) = self.stack.first() {
                self.drop_open_within_top();
                let items = self.take_items(0);
                self.root = Some(JsonNode {
                    value: JsonValue::Array(items),
                    span: self.base + start..self.base + self.text.len(),
                });
            }
        }
        if self.text.len() >= crate::memory::LARGE_BUFFER_BYTES {
            // The shared lists doubled as they filled, and a long container took
            // the last of them whole: the blocks they left stay resident in
            // mimalloc (one object of 1.66M members, 10 MB: about 100 MiB) while
            // the document is decoded and linted, unless given back.
            drop(self.items);
            drop(self.members);
            crate::memory::return_freed_pages();
        }
        if !self.recover && !self.errors.is_empty() {
            return (None, self.errors);
        }
        (self.root, self.errors)
    }

    /// Where parsing goes on after an error: nowhere (`None`) unless recovering
    /// inside a top-level array, where the broken element is dropped and the parse
    /// resumes after the next `,` or at the `]` of the array; and after a complete
    /// top-level value, nowhere either (the error stands, the value is kept).
    fn resume_after(&mut self, expect: Expect) -> Option<Expect> {
        if !self.recover || expect == Expect::End {
            return None;
        }
        if !matches!(self.stack.first(), Some(Open::Array { .. })) {
            return None;
        }
        // Containers of the broken element still open at the error.
        let mut depth = self.stack.len() - 1;
        self.drop_open_within_top();
        while let Some(&b) = self.bytes.get(self.pos) {
            match b {
                b'"' => {
                    // A string left open reads best as if its quote were stray.
                    let quote = self.pos;
                    if !self.skip_string_on_line() {
                        self.pos = quote + 1;
                    }
                }
                b'{' | b'[' => {
                    depth += 1;
                    self.pos += 1;
                }
                b'}' | b']' if depth > 0 => {
                    depth -= 1;
                    self.pos += 1;
                }
                b']' => return Some(self.close()),
                b',' if depth == 0 => {
                    self.pos += 1;
                    return Some(Expect::Value { after_comma: true });
                }
                _ => self.pos += 1,
            }
        }
        None
    }

    /// Skips the string whose opening quote is at the position, while
    /// resynchronising; returns whether it closes on its line (a JSON string never
    /// spans lines).
    fn skip_string_on_line(&mut self) -> bool {
        self.pos += 1;
        while let Some(&b) = self.bytes.get(self.pos) {
            match b {
                b'"' => {
                    self.pos += 1;
                    return true;
                }
                b'\n' | b'\r' => return false,
                b'\\' if !matches!(self.bytes.get(self.pos + 1), None | Some(b'\n' | b'\r')) => {
                    self.pos += 2
                }
                _ => self.pos += 1,
            }
        }
        false
    }

    /// Takes one token, `b` at the position, where `expect` is wanted.
    fn step(&mut self, expect: Expect, b: u8) -> Step<Expect> {
        Ok(match expect {
            Expect::Value { .. } | Expect::ValueOrClose => match b {
                b'{' => {
                    self.open(Open::Object {
                        start: self.pos,
                        first_member: self.members.len(),
                        key: None,
                        buckets: 0,
                        repeats_within: false,
                        bucket_collided: false,
                    })?;
                    Expect::KeyOrClose
                }
                b'[' => {
                    self.open(Open::Array {
                        start: self.pos,
                        first_item: self.items.len(),
                        repeats_within: false,
                    })?;
                    Expect::ValueOrClose
                }
                b']' if expect == Expect::ValueOrClose => self.close(),
                b'"' => {
                    let start = self.pos;
                    let value = JsonValue::String(self.string()?);
                    self.complete(start, value)
                }
                b'-' | b'0'..=b'9' => {
                    let start = self.pos;
                    self.number()?;
                    let value = JsonValue::Number(JsonText::from(&self.text[start..self.pos]));
                    self.complete(start, value)
                }
                _ => {
                    let start = self.pos;
                    match self.literal() {
                        Some(value) => self.complete(start, value),
                        None => return self.unexpected(expect),
                    }
                }
            },
            Expect::KeyOrClose | Expect::Key => match b {
                b'"' => {
                    let start = self.pos;
                    let key = self.string()?;
                    let key_span = self.base + start..self.base + self.pos;
                    // Most members are `"key": "string"`: taken here in one step, as
                    // the loop would take them in three, and added to the object
                    // without waiting in its key slot. Anything else is left to the
                    // loop at the same place with the same state; an error abandons
                    // the object, key and all.
                    let colon = skip_white_space(self.bytes, self.pos);
                    if self.bytes.get(colon) != Some(&b':') {
                        self.await_value(key, key_span);
                        return Ok(Expect::Colon);
                    }
                    self.pos = skip_white_space(self.bytes, colon + 1);
                    if self.bytes.get(self.pos) != Some(&b'"') {
                        self.await_value(key, key_span);
                        return Ok(Expect::Value { after_comma: false });
                    }
                    let start = self.pos;
                    let value = JsonNode {
                        value: JsonValue::String(self.string()?),
                        span: self.base + start..self.base + self.pos,
                    };
                    self.push_member(key, key_span, value);
                    Expect::CommaOrClose
                }
                b'}' if expect == Expect::KeyOrClose => self.close(),
                _ => return self.unexpected(expect),
            },
            Expect::Colon if b == b':' => {
                self.pos += 1;
                Expect::Value { after_comma: false }
            }
            Expect::CommaOrClose => {
                let object = self.in_object();
                match b {
                    b',' => {
                        self.pos += 1;
                        if object {
                            Expect::Key
                        } else {
                            Expect::Value { after_comma: true }
                        }
                    }
                    b'}' if object => self.close(),
                    b']' if !object => self.close(),
                    _ => return self.unexpected(expect),
                }
            }
            Expect::Colon | Expect::End => return self.unexpected(expect),
        })
    }

    fn in_object(&self) -> bool {
        matches!(self.stack.last(), Some(Open::Object { .. }))
    }

    fn open(&mut self, container: Open) -> Step<()> {
        if self.stack.len() >= MAX_DEPTH {
            return error(
                self.pos..self.pos + 1,
                format!(
                    "expected at most {MAX_DEPTH} levels of nested arrays and objects, found deeper nesting"
                ),
            );
        }
        self.stack.push(container);
        self.pos += 1;
        Ok(())
    }

    /// Closes the innermost container at its closing bracket.
    fn close(&mut self) -> Expect {
        self.pos += 1;
        let (start, value, repeats_within) = match self.stack.pop() {
            Some(Open::Array {
                start,
                first_item,
                repeats_within,
            }) => (
                start,
                JsonValue::Array(self.take_items(first_item)),
                repeats_within,
            ),
            Some(Open::Object {
                start,
                first_member,
                repeats_within,
                bucket_collided,
                ..
            }) => {
                let members = take_from(&mut self.members, first_member);
                let repeats_within =
                    repeats_within || bucket_collided && has_repeated_key(&members);
                let object = JsonObject {
                    members,
                    repeats_within,
                };
                (start, JsonValue::Object(object), repeats_within)
            }
            None => (self.pos - 1, JsonValue::Null, false),
        };
        if repeats_within {
            match self.stack.last_mut() {
                Some(Open::Array { repeats_within, .. } | Open::Object { repeats_within, .. }) => {
                    *repeats_within = true
                }
                None => {}
            }
        }
        self.complete(start, value)
    }

    /// Adds the value that started at `start` and ends at the position to its
    /// container, or makes it the root.
    fn complete(&mut self, start: usize, value: JsonValue) -> Expect {
        let node = JsonNode {
            value,
            span: self.base + start..self.base + self.pos,
        };
        match self.stack.last_mut() {
            Some(Open::Array { .. }) => self.items.push(node),
            Some(Open::Object { key, .. }) => {
                let (key, key_span) = key.take().unwrap_or_default();
                self.push_member(key, key_span, node);
            }
            None => {
                self.root = Some(node);
                return Expect::End;
            }
        }
        Expect::CommaOrClose
    }

    /// The items of the array whose first is at `first`, the innermost open one.
    fn take_items(&mut self, first: usize) -> Vec<JsonNode> {
        take_from(&mut self.items, first)
    }

    /// Closes every container but the outermost, dropping what they hold: the
    /// broken element of a top-level array.
    fn drop_open_within_top(&mut self) {
        for open in self.stack.drain(1..) {
            match open {
                Open::Array { first_item, .. } => {
                    self.items.truncate(first_item.min(self.items.len()))
                }
                Open::Object { first_member, .. } => {
                    self.members.truncate(first_member.min(self.members.len()))
                }
            }
        }
    }

    /// Holds the key just read in the innermost object until its value completes.
    fn await_value(&mut self, key: JsonText, key_span: Span) {
        if let Some(Open::Object { key: slot, .. }) = self.stack.last_mut() {
            *slot = Some((key, key_span));
        }
    }

    /// Adds a member to the innermost object, noting its key's bucket.
    fn push_member(&mut self, key: JsonText, key_span: Span, value: JsonNode) {
        if let Some(Open::Object {
            buckets,
            bucket_collided,
            ..
        }) = self.stack.last_mut()
        {
            let bucket = 1u64 << key_bucket(&key);
            *bucket_collided |= *buckets & bucket != 0;
            *buckets |= bucket;
            self.members.push(JsonMember {
                key,
                key_span,
                value,
            });
        }
    }

    /// Consumes `true`, `false` or `null` when one stands at the position as a whole word.
    fn literal(&mut self) -> Option<JsonValue> {
        for (word, value) in [
            ("true", JsonValue::Bool(true)),
            ("false", JsonValue::Bool(false)),
            ("null", JsonValue::Null),
        ] {
            let end = self.pos + word.len();
            if self.bytes.get(self.pos..end) == Some(word.as_bytes())
                && !self
                    .bytes
                    .get(end)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
            {
                self.pos = end;
                return Some(value);
            }
        }
        None
    }

    /// Reports what was found at the position when `expect` was wanted.
    fn unexpected<T>(&self, expect: Expect) -> Step<T> {
        let wanted = match expect {
            Expect::Value { .. } => "a JSON value".to_string(),
            Expect::ValueOrClose => "a JSON value or `]`".to_string(),
            Expect::KeyOrClose => "a string key or `}`".to_string(),
            Expect::Key => "a string key".to_string(),
            Expect::Colon => "`:` after the key".to_string(),
            Expect::CommaOrClose => {
                if self.in_object() {
                    "`,` or `}`".to_string()
                } else {
                    "`,` or `]`".to_string()
                }
            }
            Expect::End => "the end of the JSON text (it holds one value)".to_string(),
        };
        let (span, found) = self.found();
        let note = match (expect, self.bytes.get(self.pos)) {
            (Expect::Key, Some(b'}')) | (Expect::Value { after_comma: true }, Some(b']')) => {
                " (JSON does not allow a trailing comma)"
            }
            (_, Some(b'/')) => " (JSON does not allow comments)",
            (_, Some(b'\'')) => " (JSON strings use double quotes)",
            (Expect::KeyOrClose | Expect::Key, Some(b))
                if b.is_ascii_alphabetic() || *b == b'_' =>
            {
                " (keys must be double-quoted strings)"
            }
            (_, Some(_)) if self.char_at(self.pos).is_some_and(char::is_whitespace) => {
                " (JSON white space is only space, tab, line feed and carriage return)"
            }
            _ => "",
        };
        error(span, format!("expected {wanted}, found {found}{note}"))
    }

    fn char_at(&self, pos: usize) -> Option<char> {
        self.text.get(pos..).and_then(|rest| rest.chars().next())
    }

    /// The token at the position, for messages: its span and description.
    fn found(&self) -> (Span, String) {
        let start = self.pos;
        let Some(&b) = self.bytes.get(start) else {
            return (start..start, "end of file".to_string());
        };
        if b == b'"' {
            let mut end = start + 1;
            while end < self.bytes.len() && end - start <= 40 {
                match self.bytes[end] {
                    b'"' => return (start..end + 1, format!("`{}`", &self.text[start..end + 1])),
                    b'\\' | 0..=0x1F => break,
                    _ => end += 1,
                }
            }
            return (start..start + 1, "a string".to_string());
        }
        if is_word_byte(b) {
            let mut end = start;
            while end < self.bytes.len() && is_word_byte(self.bytes[end]) {
                end += 1;
            }
            let shown_end = end.min(start + 40);
            return (start..end, format!("`{}`", &self.text[start..shown_end]));
        }
        let ch = self.char_at(start).unwrap_or('\u{FFFD}');
        let span = start..start + ch.len_utf8().min(self.bytes.len() - start);
        let found = if is_invisible(ch) {
            format!("U+{:04X}", ch as u32)
        } else {
            describe_found(&self.text[span.clone()])
        };
        (span, found)
    }

    /// Scans a string from its opening quote; returns it decoded. A string without
    /// escapes (nearly every key and value) is taken here, inlined where it is read.
    #[inline]
    fn string(&mut self) -> Step<JsonText> {
        let open = self.pos;
        let end = plain_run_end(self.bytes, open + 1);
        if self.bytes.get(end) == Some(&b'"') {
            self.pos = end + 1;
            return Ok(JsonText::from(&self.text[open + 1..end]));
        }
        self.string_from(open, end)
    }

    /// The rest of [`Parser::string`] for a string whose plain run from its quote
    /// at `open` stops at `i` on an escape, a control character or the end.
    #[inline(never)]
    fn string_from(&mut self, open: usize, mut i: usize) -> Step<JsonText> {
        let mut decoded = JsonText::from(&self.text[open + 1..i]);
        loop {
            match self.bytes.get(i) {
                None => {
                    return error(
                        open..open + 1,
                        "expected a closing `\"` for this string, found end of file",
                    )
                }
                Some(b'"') => {
                    self.pos = i + 1;
                    return Ok(decoded);
                }
                Some(b'\\') => {
                    let (next, ch) = self.escape(i)?;
                    decoded.push(ch);
                    i = plain_run_end(self.bytes, next);
                    decoded.push_str(&self.text[next..i]);
                }
                Some(&b) => {
                    let escape = match b {
                        b'\n' => "`\\n`".to_string(),
                        b'\r' => "`\\r`".to_string(),
                        b'\t' => "`\\t`".to_string(),
                        _ => format!("`\\u{:04X}`", b),
                    };
                    return error(
                        i..i + 1,
                        format!(
                            "expected a string character or a closing `\"`, found U+{:04X} (control characters must be escaped in JSON strings, as {escape})",
                            b
                        ),
                    );
                }
            }
        }
    }

    /// Checks the escape whose backslash is at `at`; returns the index after it and
    /// the character it stands for.
    fn escape(&self, at: usize) -> Step<(usize, char)> {
        let simple = |ch| Ok((at + 2, ch));
        match self.bytes.get(at + 1) {
            Some(b'"') => simple('"'),
            Some(b'\\') => simple('\\'),
            Some(b'/') => simple('/'),
            Some(b'b') => simple('\u{8}'),
            Some(b'f') => simple('\u{c}'),
            Some(b'n') => simple('\n'),
            Some(b'r') => simple('\r'),
            Some(b't') => simple('\t'),
            Some(b'u') => {
                let unit = self.hex4(at)?;
                if (0xDC00..=0xDFFF).contains(&unit) {
                    return error(
                        at..at + 6,
                        format!("expected a character escape, found `\\u{unit:04X}`, an unpaired low surrogate"),
                    );
                }
                if (0xD800..=0xDBFF).contains(&unit) {
                    let low = at + 6;
                    let low_unit = (self.bytes.get(low) == Some(&b'\\')
                        && self.bytes.get(low + 1) == Some(&b'u'))
                    .then(|| self.hex4(low).ok())
                    .flatten()
                    .filter(|unit| (0xDC00..=0xDFFF).contains(unit));
                    let Some(low_unit) = low_unit else {
                        return error(
                            at..at + 6,
                            format!("expected a low surrogate `\\uDC00`..`\\uDFFF` after `\\u{unit:04X}`, found none (an unpaired high surrogate)"),
                        );
                    };
                    let scalar = 0x10000 + ((unit - 0xD800) << 10) + (low_unit - 0xDC00);
                    return Ok((low + 6, char::from_u32(scalar).unwrap_or('\u{FFFD}')));
                }
                Ok((at + 6, char::from_u32(unit).unwrap_or('\u{FFFD}')))
            }
            Some(_) => {
                let width = self.char_at(at + 1).map_or(1, char::len_utf8);
                error(
                    at..at + 1 + width,
                    format!(
                        "expected an escape (`\\\"` `\\\\` `\\/` `\\b` `\\f` `\\n` `\\r` `\\t` `\\uXXXX`), found `{}`",
                        &self.text[at..at + 1 + width]
                    ),
                )
            }
            None => error(
                at..at + 1,
                "expected an escape after `\\`, found end of file",
            ),
        }
    }

    /// The code unit of the `\uXXXX` escape at `at`.
    fn hex4(&self, at: usize) -> Step<u32> {
        let mut unit = 0;
        for k in 0..4 {
            match self
                .bytes
                .get(at + 2 + k)
                .and_then(|b| (*b as char).to_digit(16))
            {
                Some(digit) => unit = unit * 16 + digit,
                None => {
                    let pos = at + 2 + k;
                    let width = self.char_at(pos).map_or(0, char::len_utf8);
                    let found = if width == 0 {
                        "end of file".to_string()
                    } else {
                        describe_found(&self.text[pos..pos + width])
                    };
                    return error(
                        at..pos + width,
                        format!("expected four hex digits after `\\u`, found {found}"),
                    );
                }
            }
        }
        Ok(unit)
    }

    /// Scans a number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    fn number(&mut self) -> Step<()> {
        let start = self.pos;
        let mut i = start;
        if self.bytes.get(i) == Some(&b'-') {
            i += 1;
        }
        match self.bytes.get(i) {
            Some(b'0') => {
                i += 1;
                if self.bytes.get(i).is_some_and(u8::is_ascii_digit) {
                    let mut end = i;
                    while self.bytes.get(end).is_some_and(u8::is_ascii_digit) {
                        end += 1;
                    }
                    return error(
                        start..end,
                        format!(
                            "expected a number without leading zeros, found `{}`",
                            &self.text[start..end]
                        ),
                    );
                }
            }
            Some(b'1'..=b'9') => i = self.digits(i),
            _ => return self.digit_expected(i, "after `-`"),
        }
        if self.bytes.get(i) == Some(&b'.') {
            i += 1;
            if !self.bytes.get(i).is_some_and(u8::is_ascii_digit) {
                return self.digit_expected(i, "after the decimal point");
            }
            i = self.digits(i);
        }
        if matches!(self.bytes.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(self.bytes.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if !self.bytes.get(i).is_some_and(u8::is_ascii_digit) {
                return self.digit_expected(i, "in the exponent");
            }
            i = self.digits(i);
        }
        self.pos = i;
        Ok(())
    }

    fn digits(&self, mut i: usize) -> usize {
        while self.bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    }

    fn digit_expected<T>(&self, at: usize, place: &str) -> Step<T> {
        let width = self.char_at(at).map_or(0, char::len_utf8);
        let found = if width == 0 {
            "end of file".to_string()
        } else {
            describe_found(&self.text[at..at + width])
        };
        error(
            at..at + width,
            format!("expected a digit {place}, found {found}"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> JsonNode {
        let parse = parse_json(text, 0);
        assert!(parse.errors.is_empty(), "{text}: {:?}", parse.errors);
        parse.value.expect("a value")
    }

    fn err(text: &str) -> (String, String) {
        let parse = parse_json(text, 0);
        assert!(parse.value.is_none(), "{text} parsed");
        assert_eq!(parse.errors.len(), 1, "{text}");
        let error = &parse.errors[0];
        (
            text.get(error.span.clone())
                .unwrap_or("<bad span>")
                .to_string(),
            error.message.clone(),
        )
    }

    #[test]
    fn spans_are_absolute_and_strings_include_quotes() {
        let text = r#"{"a": "x\"y", "b": [1, true, null], "a": 2.50}"#;
        let parse = parse_json(text, 100);
        let root = parse.value.unwrap();
        assert_eq!(root.span, 100..100 + text.len());
        let members = root.members();
        assert_eq!(members.len(), 3);
        let slice = |span: &Span| &text[span.start - 100..span.end - 100];
        assert_eq!(slice(&members[0].key_span), "\"a\"");
        assert_eq!(slice(&members[0].value.span), r#""x\"y""#);
        assert_eq!(members[0].value.as_str(), Some("x\"y"));
        assert_eq!(slice(&members[1].value.span), "[1, true, null]");
        assert_eq!(members[2].value.value, JsonValue::Number("2.50".into()));
        // the last duplicate wins for lookups and serde
        assert_eq!(
            root.get("a").unwrap().value,
            JsonValue::Number("2.50".into())
        );
        assert_eq!(
            root.to_serde(),
            serde_json::json!({"a": 2.5, "b": [1, true, null]})
        );
    }

    #[test]
    fn pointers_resolve() {
        let root = ok(r#"{"meta": {"seq": ["x", "y"]}, "a/b": {"~": 1}}"#);
        assert_eq!(
            root.pointer("/meta/seq/1").and_then(JsonNode::as_str),
            Some("y")
        );
        assert_eq!(
            root.pointer("/a~1b/~0").map(|n| n.value.clone()),
            Some(JsonValue::Number("1".into()))
        );
        assert!(root.pointer("").is_some());
        assert!(root.pointer("/meta/seq/01").is_none());
        assert!(root.pointer("/meta/seq/9").is_none());
        assert!(root.pointer("meta").is_none());
    }

    #[test]
    fn error_messages_say_what_was_expected() {
        assert_eq!(
            err(""),
            (
                String::new(),
                "expected a JSON value, found end of file".into()
            )
        );
        assert_eq!(
            err(r#"{"a": 1 "b": 2}"#),
            ("\"b\"".into(), "expected `,` or `}`, found `\"b\"`".into())
        );
        assert_eq!(
            err("[1, 2,]"),
            (
                "]".into(),
                "expected a JSON value, found `]` (JSON does not allow a trailing comma)".into()
            )
        );
        assert_eq!(
            err(r#"{"a": 1,}"#).1,
            "expected a string key, found `}` (JSON does not allow a trailing comma)"
        );
        assert_eq!(
            err("{a: 1}").1,
            "expected a string key or `}`, found `a` (keys must be double-quoted strings)"
        );
        assert_eq!(err(r#"{"a" 1}"#).1, "expected `:` after the key, found `1`");
        assert_eq!(err("[1 2]").1, "expected `,` or `]`, found `2`");
        assert_eq!(err(r#"{"a": 1]"#).1, "expected `,` or `}`, found `]`");
        assert_eq!(err("{} {}").0, "{");
        assert!(err("// c\n{}").1.contains("comments"));
        assert!(err("{'a': 1}").1.contains("double quotes"));
        assert_eq!(
            err("01").1,
            "expected a number without leading zeros, found `01`"
        );
        assert_eq!(err("-").1, "expected a digit after `-`, found end of file");
        assert_eq!(
            err("1.").1,
            "expected a digit after the decimal point, found end of file"
        );
        assert_eq!(err(".5").1, "expected a JSON value, found `.5`");
        assert_eq!(
            err("1e+").1,
            "expected a digit in the exponent, found end of file"
        );
        assert!(err("+1").1.starts_with("expected a JSON value, found `+1`"));
        assert_eq!(
            err("0x1F").1,
            "expected the end of the JSON text (it holds one value), found `x1F`"
        );
        assert_eq!(err("NaN").1, "expected a JSON value, found `NaN`");
        assert_eq!(err("truex").1, "expected a JSON value, found `truex`");
        assert_eq!(err("[1,2").1, "expected `,` or `]`, found end of file");
        assert_eq!(
            err("{\"a"),
            (
                "\"".into(),
                "expected a closing `\"` for this string, found end of file".into()
            )
        );
        assert_eq!(err("\"\\x\"").0, "\\x");
        assert!(err("\"\\u12G4\"").1.starts_with("expected four hex digits"));
        assert!(err("\"\\ud800\"").1.contains("unpaired high surrogate"));
        assert!(err("\"\\udc00\"").1.contains("unpaired low surrogate"));
        assert!(ok("\"\\ud83d\\ude00\"").as_str() == Some("😀"));
        assert_eq!(
            ok(r#""a\"\\\/\b\f\n\r\t\u00e9\u4e2d z""#).as_str(),
            Some("a\"\\/\u{8}\u{c}\n\r\té中 z")
        );
    }

    #[test]
    fn lenient_extras_are_rejected() {
        let (found, message) = err("\"a\nb\"");
        assert_eq!(found, "\n");
        assert!(message.contains("U+000A"), "{message}");
        assert!(err("[1,\u{0B}2]").1.contains("U+000B"));
        assert!(err("[1,\u{A0}2]").1.contains("white space"));
        assert_eq!(
            err("\u{FEFF}{}"),
            (
                "\u{FEFF}".into(),
                "expected a JSON value, found U+FEFF".into()
            )
        );
        assert!(err("{\u{200B}}").1.ends_with("found U+200B"));
        assert!(err("[1,é]").1.contains("`é`"));
        // multibyte characters inside strings are fine
        assert_eq!(ok("\"北京 😀\"").as_str(), Some("北京 😀"));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        let (found, message) = err(&deep);
        assert_eq!(found, "[");
        assert!(message.contains("128"), "{message}");
        let parse = parse_json(&deep, 7);
        assert_eq!(parse.errors[0].span, 7 + 128..7 + 129);
        let fine = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        ok(&fine);
        let objects = "{\"a\":".repeat(100_000);
        assert!(err(&objects).1.contains("128"));
        // brackets inside strings do not count
        ok(&format!("\"{}\"", "[".repeat(1000)));
    }

    /// `(covered text, message)` of each error, and the top-level array's elements
    /// as JSON text, of a recovering parse.
    fn recovered(text: &str) -> (Vec<String>, Vec<String>) {
        let parse = parse_json_recovering(text, 0);
        let errors = parse
            .errors
            .iter()
            .map(|e| text.get(e.span.clone()).unwrap_or("<bad span>").to_string())
            .collect();
        let elements = parse
            .value
            .as_ref()
            .and_then(JsonNode::as_array)
            .unwrap_or_default()
            .iter()
            .map(|node| text[node.span.clone()].to_string())
            .collect();
        (errors, elements)
    }

    #[test]
    fn a_broken_array_element_costs_only_that_element() {
        let text = "[\n {\"a\": 1},\n {\"b\": 2,},\n {\"c\": [1, 2}, \"x\"],\n {\"d\": \"open},\n {\"e\": 5}\n]";
        let (errors, elements) = recovered(text);
        assert_eq!(errors, ["}", "}", "\n"]);
        assert_eq!(elements, ["{\"a\": 1}", "{\"e\": 5}"]);
        // element-level errors: missing comma, trailing comma, bad token
        assert_eq!(
            recovered("[{\"a\":1} {\"b\":2}, {\"c\":3}]").1,
            ["{\"a\":1}", "{\"c\":3}"]
        );
        assert_eq!(
            recovered("[{\"a\":1},]"),
            (vec!["]".to_string()], vec!["{\"a\":1}".to_string()])
        );
        assert_eq!(recovered("[1,,2]").1, ["1", "2"]);
        // an unclosed array keeps what parsed; trailing text after a whole array too
        assert_eq!(recovered("[{\"a\":1}, {\"b\":").1, ["{\"a\":1}"]);
        assert_eq!(
            recovered("[{\"a\":1}] x"),
            (vec!["x".to_string()], vec!["{\"a\":1}".to_string()])
        );
        // too deep an element is skipped whole
        let deep = format!("[{}{}, 7]", "[".repeat(200), "]".repeat(200));
        assert_eq!(recovered(&deep).1, ["7"]);
        // an object at the top level is not recovered inside
        let parse = parse_json_recovering("{\"a\": 1,}", 0);
        assert!(parse.value.is_none());
        assert_eq!(parse.errors.len(), 1);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Recovery never panics, keeps spans on char boundaries inside the text,
        /// agrees with the strict parse on valid text, and reports an error whenever
        /// the strict parse does.
        #[test]
        fn recovery_is_safe(text in r#"\[[\{\}\[\]:, "\\0-2a\n\u{e9}]{0,30}"#) {
            let strict = parse_json(&text, 0);
            let recovering = parse_json_recovering(&text, 0);
            for error in &recovering.errors {
                proptest::prop_assert!(error.span.end <= text.len());
                proptest::prop_assert!(text.is_char_boundary(error.span.start));
                proptest::prop_assert!(text.is_char_boundary(error.span.end));
            }
            proptest::prop_assert_eq!(strict.errors.is_empty(), recovering.errors.is_empty());
            if strict.errors.is_empty() {
                proptest::prop_assert_eq!(strict.value, recovering.value);
            }
        }
    }

    proptest::proptest! {
        /// The word-at-a-time scans stop where a byte-at-a-time loop stops, at every
        /// offset into bytes full of quotes, backslashes, control characters, spaces
        /// and UTF-8 (whose bytes are all at or above 0x80).
        #[test]
        fn word_scans_agree_with_byte_loops(
            bytes in proptest::collection::vec(proptest::sample::select(
                vec![b'"', b'\\', 0x00, 0x1F, b'\n', b'\r', b'\t', b' ', b' ', b'a', b'!', 0x20, 0x7F, 0x80, 0xA0, 0xE9, 0xFF]
            ), 0..40),
        ) {
            for from in 0..=bytes.len() {
                let plain = (from..bytes.len())
                    .find(|&i| matches!(bytes[i], b'"' | b'\\' | 0..=0x1F))
                    .unwrap_or(bytes.len());
                proptest::prop_assert_eq!(plain_run_end(&bytes, from), plain);
                let white = (from..bytes.len())
                    .find(|&i| !matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r'))
                    .unwrap_or(bytes.len());
                proptest::prop_assert_eq!(skip_white_space(&bytes, from), white);
            }
        }
    }

    #[test]
    fn large_single_line_documents_parse() {
        let mut text = String::from("[");
        while text.len() < 10_000_000 {
            text.push_str(r#"{"id":"act","value":"a_long_value_here"},"#);
        }
        text.push_str("null]");
        let root = ok(&text);
        assert!(root.as_array().unwrap().len() > 200_000);
    }

    #[test]
    fn member_removal_keeps_the_json_valid() {
        let text = r#"{"a": 1, "b": null, "c": 3}"#;
        let root = ok(text);
        for index in 0..3 {
            let span = member_removal_span(&root, index).unwrap();
            let mut edited = text.to_string();
            edited.replace_range(span, "");
            let back = ok(&edited);
            assert_eq!(back.members().len(), 2, "{edited}");
        }
        let single = r#"{ "only": null }"#;
        let root = ok(single);
        let mut edited = single.to_string();
        edited.replace_range(member_removal_span(&root, 0).unwrap(), "");
        assert_eq!(edited, "{  }");
        ok(&edited);
    }

    #[test]
    fn big_numbers_still_convert() {
        assert_eq!(ok("1e400").to_serde(), serde_json::json!(f64::MAX));
        assert_eq!(ok("-1e400").to_serde(), serde_json::json!(f64::MIN));
        assert!(ok("123456789012345678901234567890").to_serde().is_number());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
        /// Never panics, accepts exactly what serde_json (a strict RFC 8259 parser)
        /// accepts, and gives values serde_json agrees with.
        #[test]
        fn agrees_with_serde_json(text in r#"[\{\}\[\]:, "\\0-2.eE+\-truefalsn\n\t\u{0B}/u\u{e9}\u{FEFF}d8c]{0,24}"#) {
            let parse = parse_json(&text, 3);
            let serde = serde_json::from_str::<serde_json::Value>(&text);
            // RFC 8259 allows any magnitude; serde_json refuses what overflows a double
            proptest::prop_assume!(!serde.as_ref().is_err_and(|e| e.to_string().contains("out of range")));
            proptest::prop_assert_eq!(parse.value.is_some(), serde.is_ok(), "{:?}: {:?}", text, parse.errors);
            proptest::prop_assert_eq!(parse.errors.len(), usize::from(parse.value.is_none()));
            for error in &parse.errors {
                proptest::prop_assert!(error.span.start >= 3 && error.span.end <= text.len() + 3);
                proptest::prop_assert!(text.is_char_boundary(error.span.start - 3));
                proptest::prop_assert!(text.is_char_boundary(error.span.end - 3));
            }
            if let (Some(value), Ok(serde)) = (parse.value, serde) {
                proptest::prop_assert_eq!(value.to_serde(), serde);
            }
        }

        /// Valid documents, and documents one edit away from valid.
        #[test]
        fn agrees_with_serde_json_near_valid_documents(
            value in json_values(),
            pretty in proptest::bool::ANY,
            edit in 0usize..64,
            insert in proptest::option::of(proptest::sample::select(vec!['"', ',', ':', '}', ']', '[', '{', '\\', '0', '-', '.', 'e', '\n', '\u{0B}', 'x', '\u{1}'])),
        ) {
            let text = if pretty {
                serde_json::to_string_pretty(&value).unwrap_or_default()
            } else {
                serde_json::to_string(&value).unwrap_or_default()
            };
            let chars: Vec<char> = text.chars().collect();
            let mut edited: Vec<char> = chars.clone();
            let at = edit % (chars.len() + 1);
            match insert {
                Some(ch) => edited.insert(at, ch),
                None if at < edited.len() => {
                    edited.remove(at);
                }
                None => {}
            }
            for candidate in [text, edited.into_iter().collect::<String>()] {
                let parse = parse_json(&candidate, 0);
                let serde = serde_json::from_str::<serde_json::Value>(&candidate);
                if serde.as_ref().is_err_and(|e| e.to_string().contains("out of range")) {
                    continue;
                }
                proptest::prop_assert_eq!(parse.value.is_some(), serde.is_ok(), "{:?}: {:?}", candidate, parse.errors);
                if let (Some(value), Ok(serde)) = (parse.value, serde) {
                    proptest::prop_assert_eq!(value.to_serde(), serde);
                }
            }
        }
    }

    /// Every key written earlier in its object, found by comparing every pair of
    /// keys of every object, in the order [`JsonNode::duplicate_keys`] gives them.
    fn duplicate_key_spans_found_slowly(node: &JsonNode, found: &mut Vec<Span>) {
        match &node.value {
            JsonValue::Object(members) => {
                for (i, member) in members.iter().enumerate() {
                    if members[..i].iter().any(|earlier| earlier.key == member.key) {
                        found.push(member.key_span.clone());
                    }
                }
                for member in members {
                    duplicate_key_spans_found_slowly(&member.value, found);
                }
            }
            JsonValue::Array(items) => {
                for item in items {
                    duplicate_key_spans_found_slowly(item, found);
                }
            }
            _ => {}
        }
    }

    /// JSON texts of nested objects whose keys come from a few letters, some
    /// written with escapes, so that keys often repeat and often share a bucket.
    fn texts_with_few_keys() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let key = prop_oneof![
            "[a-d]{0,3}",
            Just("\\u0061".to_string()),
            Just("a\\u0062".to_string()),
            Just("\u{e9}".to_string()),
        ];
        let leaf = prop_oneof![Just("1".to_string()), Just("\"x\"".to_string())];
        leaf.prop_recursive(4, 48, 8, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4)
                    .prop_map(|items| format!("[{}]", items.join(","))),
                proptest::collection::vec((key.clone(), inner), 0..8).prop_map(|members| {
                    let members: Vec<String> = members
                        .iter()
                        .map(|(k, v)| format!("\"{k}\": {v}"))
                        .collect();
                    format!("{{{}}}", members.join(", "))
                }),
            ]
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// The parser's note of which objects may hold a repeated key loses none:
        /// the search finds what comparing every pair finds, in a strict parse and
        /// in a recovering one that drops a broken element between two good ones.
        #[test]
        fn duplicate_keys_are_those_every_pair_of_keys_shows(text in texts_with_few_keys()) {
            let strict = parse_json(&text, 0).value.expect("the generated text is JSON");
            let mut slowly = Vec::new();
            duplicate_key_spans_found_slowly(&strict, &mut slowly);
            let found: Vec<Span> = strict.duplicate_keys().iter().map(|m| m.key_span.clone()).collect();
            proptest::prop_assert_eq!(found, slowly);

            let recovering = parse_json_recovering(&format!("[{text}, {{\"a\": [{text}, }}, {text}]"), 0);
            let root = recovering.value.expect("the good elements are kept");
            let mut slowly = Vec::new();
            duplicate_key_spans_found_slowly(&root, &mut slowly);
            let found: Vec<Span> = root.duplicate_keys().iter().map(|m| m.key_span.clone()).collect();
            proptest::prop_assert_eq!(found, slowly);
        }
    }

    fn json_values() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<i32>().prop_map(|n| serde_json::json!(n)),
            (-1.0e6f64..1.0e6).prop_map(|n| serde_json::json!(n)),
            "[a-z\"\\\u{1}é😀 ]{0,6}".prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(4, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
                proptest::collection::vec(("[a-z_]{1,4}", inner), 0..4)
                    .prop_map(|members| serde_json::Value::Object(members.into_iter().collect())),
            ]
        })
    }
}
