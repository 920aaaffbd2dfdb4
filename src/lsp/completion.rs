//! Completion candidates from the text before the cursor. Completion runs while a
//! payload is being typed and rarely parses, so the context is read lexically: where
//! a call may start, inside which JSON string or object the cursor is, how many SLIP
//! fields precede it.

use crate::ir::from_json::{
    ALTERNATIVE_FIELDS, CONSTRAINT_FIELDS, ENTITY_FIELDS, META_FIELDS, ROOT_FIELDS,
};
use crate::settings::Settings;
use crate::source::{FileKind, Span};
use crate::syntax::document::Block;
use crate::syntax::Document;
use crate::vocabulary;

/// What a candidate is, for the editor's icon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    Verb,
    Anchor,
    Frontend,
    Key,
    Keyword,
}

/// One completion candidate: `insert` replaces the bytes `replace`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub label: String,
    pub detail: String,
    pub insert: String,
    pub replace: Span,
    pub kind: ItemKind,
}

/// Candidates at byte `offset` of a document: in every payload region `check`
/// lints (Markdown fences and payloads carried in place in NLIP, MCP and A2A
/// messages included), from the text of the region before the cursor; in an MCP
/// file, the frontends for a `silp_encoding`.
pub fn complete(document: &Document, offset: usize, settings: &Settings) -> Vec<Item> {
    let text = document.text;
    let offset = crate::source::floor_char_boundary(text, offset);
    // The innermost block: a payload carried in a message, not the message.
    let Some(block) = document
        .all_blocks()
        .into_iter()
        .rev()
        .find(|b| b.region.span.start <= offset && offset <= b.region.span.end)
    else {
        return Vec::new();
    };
    let region = &block.region;
    if matches!(region.kind, FileKind::SilpJson | FileKind::McpCall) {
        // The whole document before the cursor, container prefixes and comment lines
        // of a fence read as spaces.
        let start = region.span.start;
        let masked = region.text();
        let items = json(&masked[..offset - start], start, settings);
        if region.kind == FileKind::McpCall {
            // Only a wrapper's `silp_encoding`: the other keys are the tool's.
            return items
                .into_iter()
                .filter(|item| item.kind == ItemKind::Frontend)
                .collect();
        }
        return items;
    }
    let Some(line_start) = line_start(block, offset) else {
        return Vec::new();
    };
    let before = &text[line_start..offset];
    match region.kind {
        FileKind::Silp => silp(before, offset, settings),
        FileKind::Slip => slip(before, offset, settings),
        FileKind::SilpJsonl => json(before, line_start, settings),
        FileKind::SilpJson
        | FileKind::McpCall
        | FileKind::Nlip
        | FileKind::A2a
        | FileKind::Markdown => Vec::new(),
    }
}

/// Where the line holding `offset` starts in a line-oriented block: after a fence
/// line's container prefix, or at the region's start.
fn line_start(block: &Block, offset: usize) -> Option<usize> {
    let region = &block.region;
    match region.fence_lines() {
        Some(lines) => lines
            .iter()
            .find(|line| line.start <= offset && offset <= line.end)
            .map(|line| line.start),
        None => {
            let head = &block.region.page().as_bytes()[region.span.start..offset];
            Some(
                memchr::memrchr2(b'\n', b'\r', head)
                    .map_or(region.span.start, |i| region.span.start + i + 1),
            )
        }
    }
}

/// The word being typed just before the cursor (letters, digits, `_`, `!`).
fn word_before(before: &str) -> &str {
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || *c == '_' || *c == '!')
        .last()
        .map_or(before.len(), |(i, _)| i);
    &before[start..]
}

fn verbs(replace: Span, lower: bool, settings: &Settings) -> Vec<Item> {
    vocabulary::VERBS
        .iter()
        .map(|v| v.to_string())
        .chain(settings.extend_verbs.iter().cloned())
        .map(|verb| {
            let insert = if lower {
                verb.to_lowercase()
            } else {
                format!("!{verb}")
            };
            Item {
                label: insert.clone(),
                detail: format!("!{verb}"),
                insert,
                replace: replace.clone(),
                kind: ItemKind::Verb,
            }
        })
        .collect()
}

fn frontends(replace: Span, settings: &Settings) -> Vec<Item> {
    vocabulary::FRONTENDS
        .iter()
        .map(|f| f.to_string())
        .chain(settings.extend_frontends.iter().cloned())
        .map(|name| Item {
            label: name.clone(),
            detail: "frontend".to_string(),
            insert: name,
            replace: replace.clone(),
            kind: ItemKind::Frontend,
        })
        .collect()
}

fn silp(before: &str, offset: usize, settings: &Settings) -> Vec<Item> {
    let trimmed = before.trim_start();
    if trimmed.starts_with('#') || before.contains(" #") || before.contains("\t#") {
        return Vec::new();
    }
    let word = word_before(before);
    let replace = offset - word.len()..offset;
    if let Some(rest) = trimmed.strip_prefix("//ping") {
        // The frontend list is the first word after `//ping`.
        let rest = rest.trim_start();
        if rest.len() == rest.trim_end().len() && !rest.contains(' ') && !rest.contains('=') {
            return frontends(replace, settings);
        }
        return Vec::new();
    }
    let head = before[..before.len() - word.len()].trim_end();
    let depth = head.matches('(').count() as isize - head.matches(')').count() as isize;
    let call_may_start = depth <= 0
        && (head.is_empty()
            || head.ends_with(':')
            || head.ends_with(';')
            || head.ends_with("->")
            || ends_with_word(head, "else")
            || ends_with_word(head, "then"));
    if !call_may_start || word.starts_with('!') {
        return Vec::new();
    }
    let mut items = verbs(replace.clone(), true, settings);
    if head.is_empty() {
        items.push(Item {
            label: "if".to_string(),
            detail: "condition".to_string(),
            insert: "if ".to_string(),
            replace,
            kind: ItemKind::Keyword,
        });
    }
    items
}

fn ends_with_word(text: &str, word: &str) -> bool {
    text.strip_suffix(word).is_some_and(|head| {
        head.is_empty() || head.ends_with(|c: char| c.is_whitespace() || c == ')')
    })
}

fn slip(before: &str, offset: usize, settings: &Settings) -> Vec<Item> {
    let word = word_before(before);
    let head = &before[..before.len() - word.len()];
    if !head.is_empty() && !head.ends_with(char::is_whitespace) {
        return Vec::new();
    }
    let fields: Vec<&str> = head.split_whitespace().collect();
    let replace = offset - word.len()..offset;
    let item = |label: &str, detail: String, kind| Item {
        label: label.to_string(),
        detail,
        insert: label.to_string(),
        replace: replace.clone(),
        kind,
    };
    match fields.as_slice() {
        [] => vec![item(
            "SLIP",
            "Slipstream message".to_string(),
            ItemKind::Keyword,
        )],
        ["SLIP"] => vec![item("v1", "version".to_string(), ItemKind::Keyword)],
        ["SLIP", _, _, _] => vocabulary::core_anchors()
            .iter()
            .map(|a| {
                item(
                    &a.mnemonic,
                    format!("0x{:04X} {}", a.index, a.canonical),
                    ItemKind::Anchor,
                )
            })
            .chain(settings.extend_anchors.iter().map(|(m, index)| {
                item(
                    m,
                    format!("0x{index:04X} extension anchor"),
                    ItemKind::Anchor,
                )
            }))
            .collect(),
        _ => Vec::new(),
    }
}

/// Keys of each object of a payload, by the key path that leads to it.
fn keys_for(path: &[String]) -> &'static [&'static str] {
    let path: Vec<&str> = path.iter().map(String::as_str).collect();
    match path.as_slice() {
        [] => &ROOT_FIELDS,
        ["meta"] => &META_FIELDS,
        ["entities[]"] => &ENTITY_FIELDS,
        ["constraints[]"] => &CONSTRAINT_FIELDS,
        ["alternatives[]"] => &ALTERNATIVE_FIELDS,
        _ => &[],
    }
}

enum Frame {
    Object {
        /// Keys written so far in this object.
        seen: Vec<String>,
        /// The key whose value comes next (after its `:`).
        key: Option<String>,
        expect_key: bool,
    },
    Array,
}

/// Candidates inside a JSON text (`text` ends at the cursor and starts at byte `base`).
fn json(text: &str, base: usize, settings: &Settings) -> Vec<Item> {
    let mut stack: Vec<Frame> = Vec::new();
    // The key path of each open container, from the payload object down.
    let mut path: Vec<String> = Vec::new();
    let mut last_string: Option<String> = None;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let start = i;
                let mut j = i + 1;
                let mut closed = false;
                while j < bytes.len() {
                    match bytes[j] {
                        b'\\' => j += 2,
                        b'"' => {
                            closed = true;
                            break;
                        }
                        _ => j += 1,
                    }
                }
                if !closed {
                    let typed = &text[start + 1..];
                    let replace = base + start + 1..base + text.len();
                    return in_string(&stack, &path, typed, replace, settings);
                }
                last_string = Some(text[start + 1..j].to_string());
                i = j + 1;
                continue;
            }
            b'{' => {
                let key = container_key(&mut stack, &path);
                stack.push(Frame::Object {
                    seen: Vec::new(),
                    key: None,
                    expect_key: true,
                });
                path.push(key);
            }
            b'[' => {
                let key = container_key(&mut stack, &path);
                stack.push(Frame::Array);
                path.push(format!("{key}[]"));
            }
            b'}' | b']' => {
                stack.pop();
                path.pop();
            }
            b':' => {
                if let Some(Frame::Object {
                    seen,
                    key,
                    expect_key,
                }) = stack.last_mut()
                {
                    if let Some(k) = last_string.take() {
                        seen.push(k.clone());
                        *key = Some(k);
                    }
                    *expect_key = false;
                }
            }
            b',' => {
                if let Some(Frame::Object {
                    key, expect_key, ..
                }) = stack.last_mut()
                {
                    *key = None;
                    *expect_key = true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    // Outside any string: a key may start here.
    let word = word_before(text);
    let replace = base + text.len() - word.len()..base + text.len();
    match stack.last() {
        Some(Frame::Object {
            seen,
            expect_key: true,
            ..
        }) => key_items(&object_path(&path), seen, replace, true),
        _ => Vec::new(),
    }
}

/// The key under which a new container opens, for the path; consumes nothing.
fn container_key(stack: &mut [Frame], path: &[String]) -> String {
    match stack.last() {
        Some(Frame::Object { key: Some(k), .. }) => k.clone(),
        Some(Frame::Array) => path
            .last()
            .map(|p| p.trim_end_matches("[]").to_string())
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// The path of the innermost object relative to the payload object: a root array of
/// payloads and the root object itself are dropped.
fn object_path(path: &[String]) -> Vec<String> {
    let mut rest: &[String] = path;
    if rest.first().is_some_and(|p| p == "[]") {
        rest = &rest[1..];
    }
    if let Some(first) = rest.first() {
        if first.is_empty() {
            rest = &rest[1..];
        }
    }
    // Arrays of objects: `entities[]` then the element object's own entry.
    let mut out = Vec::new();
    for part in rest {
        if part.is_empty() {
            continue;
        }
        if part.ends_with("[]") {
            out.push(part.clone());
        } else if out
            .last()
            .is_some_and(|p: &String| p == &format!("{part}[]"))
        {
            continue;
        } else {
            out.push(part.clone());
        }
    }
    out
}

fn key_items(path: &[String], seen: &[String], replace: Span, quote: bool) -> Vec<Item> {
    keys_for(path)
        .iter()
        .filter(|k| !seen.iter().any(|s| s == *k))
        .map(|k| Item {
            label: k.to_string(),
            detail: "IR key".to_string(),
            insert: if quote {
                format!("\"{k}\"")
            } else {
                k.to_string()
            },
            replace: replace.clone(),
            kind: ItemKind::Key,
        })
        .collect()
}

fn in_string(
    stack: &[Frame],
    path: &[String],
    typed: &str,
    replace: Span,
    settings: &Settings,
) -> Vec<Item> {
    match stack.last() {
        Some(Frame::Object {
            seen,
            expect_key: true,
            ..
        }) => key_items(&object_path(path), seen, replace, false),
        Some(Frame::Object {
            key: Some(key),
            expect_key: false,
            ..
        }) => {
            let object = object_path(path);
            match key.as_str() {
                "intent" | "action" => verbs(replace, false, settings),
                "out" if object == ["meta"] => frontends(replace, settings),
                crate::syntax::mcp::ENCODING => frontends(replace, settings),
                _ => Vec::new(),
            }
        }
        Some(Frame::Array) if path.last().is_some_and(|p| p == "seq[]") => {
            if typed.is_empty() || typed.starts_with('!') {
                verbs(replace, false, settings)
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse;

    /// Only the lines at the cursor parsed, a line-oriented file completes as
    /// the whole tree does, at every offset.
    #[test]
    fn the_lines_at_the_cursor_complete_as_the_whole_file() {
        let settings = Settings::default();
        for (text, kind) in [
            ("st\r\n# c\nif !rain(t+1): Can\rstop(y, ) # x\n\n//ping si", FileKind::Silp),
            (
                "{\"intent\":\"!ST\"}\n\n{\"format\":\"text\",\"subformat\":\"silp\",\"content\":\"sta\"}\n{\"in",
                FileKind::SilpJsonl,
            ),
            ("SLIP v1 a b Req\n# c\nSLIP v1 a b RequestTask x\nSLIP", FileKind::Slip),
        ] {
            let whole = parse(text, kind);
            let mut completed = 0;
            for offset in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                let lines = crate::syntax::document::parse_lines_at(text, kind, offset);
                let expected = complete(&whole, offset, &settings);
                completed += usize::from(!expected.is_empty());
                assert_eq!(complete(&lines, offset, &settings), expected, "{kind:?} at {offset}");
            }
            assert!(completed > 3, "{kind:?}");
        }
    }

    fn labels(text: &str, kind: FileKind) -> Vec<String> {
        complete(&parse(text, kind), text.len(), &Settings::default())
            .into_iter()
            .map(|i| i.label)
            .collect()
    }

    #[test]
    fn verbs_where_a_call_may_start() {
        assert!(labels("st", FileKind::Silp).contains(&"start".to_string()));
        assert!(labels("if !rain(t+1): ", FileKind::Silp).contains(&"cancel".to_string()));
        assert!(labels("start(hike); no", FileKind::Silp).contains(&"notify".to_string()));
        assert!(labels("start(hike) else: s", FileKind::Silp).contains(&"search".to_string()));
        assert!(labels("start(hi", FileKind::Silp).is_empty());
        assert!(labels("# comment ", FileKind::Silp).is_empty());
        assert!(labels("//ping co", FileKind::Silp).contains(&"code".to_string()));
    }

    #[test]
    fn anchors_after_four_slip_fields() {
        let got = labels("SLIP v1 a b Obs", FileKind::Slip);
        assert_eq!(got.len(), 46);
        assert!(labels("SLIP v1 a ", FileKind::Slip).is_empty());
        assert!(labels("SLIP v1 a b c ", FileKind::Slip).is_empty());
    }

    #[test]
    fn json_strings_and_keys() {
        let got = labels(r#"{"intent": "!ST"#, FileKind::SilpJson);
        assert!(got.contains(&"!START".to_string()), "{got:?}");
        let got = labels(
            r#"{"intent":"!START","meta":{"req_id":"ab12","out":""#,
            FileKind::SilpJson,
        );
        assert!(got.contains(&"nl_json".to_string()), "{got:?}");
        let got = labels(
            r#"{"intent":"!START","meta":{"req_id":"ab12","#,
            FileKind::SilpJsonl,
        );
        assert!(got.contains(&"session_id".to_string()), "{got:?}");
        assert!(!got.contains(&"req_id".to_string()), "{got:?}");
        let got = labels(r#"[{"entities":[{"id":"a","#, FileKind::SilpJson);
        assert_eq!(got, vec!["value", "action"]);
        let got = labels(r#"{"alternatives":[{"action":"!B"#, FileKind::SilpJson);
        assert!(got.contains(&"!BOOK".to_string()), "{got:?}");
        let got = labels(r#"{"intent":"!START", "#, FileKind::SilpJson);
        assert!(got.contains(&"meta".to_string()) && !got.contains(&"intent".to_string()));
        assert!(labels(r#"{"intent":"!START","hotel":"x"#, FileKind::SilpJson).is_empty());
    }

    #[test]
    fn replace_spans_cover_the_typed_word() {
        let text = "if x: sta";
        let items = complete(
            &parse(text, FileKind::Silp),
            text.len(),
            &Settings::default(),
        );
        assert_eq!(items[0].replace, 6..9);
        let text = "{\"intent\":\"!ST";
        let items = complete(
            &parse(text, FileKind::SilpJson),
            text.len(),
            &Settings::default(),
        );
        assert_eq!(&text[items[0].replace.clone()], "!ST");
    }
}
