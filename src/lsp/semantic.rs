//! What each part of a document is, from the syntax trees: semantic tokens (for
//! highlighting and hover) and one symbol per payload (for the outline). Independent
//! of the protocol; the server converts spans to LSP positions.

use crate::source::{FileKind, Span};
use crate::syntax::code::{self, Arg, Call, ConditionEnd, Constraint, Separator, Word};
use crate::syntax::document::{line_item, Block, Carried, Carrier, Item, SilpBody, SilpLine};
use crate::syntax::json::{JsonMember, JsonNode, JsonValue};
use crate::syntax::lines::Line;
use crate::syntax::ping::Probe;
use crate::syntax::region::regions;
use crate::syntax::slip::{Message, SlipParse};
use crate::syntax::Document;
use crate::vocabulary;

/// Token types, in legend order (the VS Code extension maps the same list).
pub const TOKEN_TYPES: [&str; 11] = [
    "keyword",
    "function",
    "parameter",
    "variable",
    "string",
    "number",
    "operator",
    "comment",
    "enumMember",
    "namespace",
    "property",
];

/// Token modifiers, in legend order: `defaultLibrary` marks whitelisted verbs,
/// `deprecated` excluded ones.
pub const TOKEN_MODIFIERS: [&str; 2] = ["defaultLibrary", "deprecated"];

/// A token type; the discriminant is its index in [`TOKEN_TYPES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenType {
    Keyword = 0,
    Function = 1,
    Parameter = 2,
    Variable = 3,
    String = 4,
    Number = 5,
    Operator = 6,
    Comment = 7,
    EnumMember = 8,
    Namespace = 9,
    Property = 10,
}

/// Bit of the `defaultLibrary` modifier.
pub const DEFAULT_LIBRARY: u32 = 1;
/// Bit of the `deprecated` modifier.
pub const DEPRECATED: u32 = 2;

/// What a token names, for hover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Meaning {
    None,
    /// A verb as written (`start`, `!START`, `Cancel`).
    Verb(String),
    /// A SLIP anchor mnemonic.
    Anchor(String),
    /// A frontend name (`meta.out`, a `//ping` list).
    Frontend(String),
    /// A JSON key, as a path from the payload object (`meta.req_id`, `entities[].id`).
    Key(String),
}

/// One classified piece of a document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub span: Span,
    pub kind: TokenType,
    pub modifiers: u32,
    pub meaning: Meaning,
}

/// The tokens of a document, sorted and non-overlapping: every payload `check`
/// lints (Markdown fences and payloads carried in NLIP messages included). With
/// `within`, only the lines and JSON texts that touch that byte range.
pub fn tokens(document: &Document, within: Option<Span>) -> Vec<Token> {
    let mut out = Tokens::new(document.text, within);
    for block in &document.blocks {
        out.block(block);
    }
    sorted_apart(out.tokens, document.text)
}

/// The token at byte `offset` of `document`, as [`token_at`] finds it in
/// [`tokens`] within the offset, from a [`Tokens::streamed`] walk that keeps only
/// the tokens touching it: the line there may have millions.
pub fn token_at_offset(document: &Document, offset: usize) -> Option<Token> {
    let within = Some(offset..offset);
    let mut near = Tokens::streamed(document.text, usize::MAX, within.clone());
    for block in &document.blocks {
        near.block(block);
    }
    let tokens = match near.into_streamed() {
        Some(touching) => touching,
        None => tokens(document, within),
    };
    token_at(&tokens, offset).cloned()
}

/// The first `limit` of [`tokens`] of a line-oriented file's text (all of them
/// when it has fewer), read a line at a time as `check` reads it, and no more lines
/// than it takes. A line's tokens lie on it, so each line's are sorted and kept
/// apart on their own, and only as many of them as are wanted are kept: one line
/// of a million calls has 3 million.
pub fn line_tokens(text: &str, kind: FileKind, limit: usize) -> Vec<Token> {
    let mut tokens = Vec::new();
    for region in regions(text, kind) {
        for line in region.lines() {
            if tokens.len() >= limit {
                return tokens;
            }
            let item = line_item(kind, line, text);
            tokens.extend(first_tokens(item, text, limit - tokens.len()));
        }
    }
    tokens
}

/// The first `wanted` of a line's tokens, sorted and apart, as [`tokens`] gives
/// them, from a [`Tokens::streamed`] walk: one line of a million calls has 3
/// million tokens, and a request wants 200,000. When the walk finds them out of
/// order, it walks the tree again keeping every token.
fn first_tokens(item: Item, text: &str, wanted: usize) -> Vec<Token> {
    let mut first = Tokens::streamed(text, wanted, None);
    first.item(&item);
    if let Some(kept) = first.into_streamed() {
        return kept;
    }
    let mut all = Tokens::new(text, None);
    all.item(&item);
    drop(item); // the tree, before the tokens are sorted and copied
    sorted_apart(all.tokens, text)
        .into_iter()
        .take(wanted)
        .collect()
}

/// `tokens` sorted, without empty ones and without any that overlaps the one
/// before. The walk mostly finds them in order; then sorting is only the check.
fn sorted_apart(mut tokens: Vec<Token>, text: &str) -> Vec<Token> {
    tokens.retain(|t| is_token_span(text, &t.span));
    if !tokens.is_sorted_by_key(|t| (t.span.start, t.span.end)) {
        tokens.sort_by_key(|t| (t.span.start, t.span.end));
    }
    let mut end = 0;
    tokens.retain(|t| {
        let keep = t.span.start >= end;
        if keep {
            end = t.span.end;
        }
        keep
    });
    tokens
}

/// Whether `span` can be a token of `text`: not empty, and on its characters.
fn is_token_span(text: &str, span: &Span) -> bool {
    span.start < span.end && text.get(span.clone()).is_some()
}

/// The token covering byte `offset` (a cursor just after a token counts as on it).
pub fn token_at(tokens: &[Token], offset: usize) -> Option<&Token> {
    tokens
        .iter()
        .find(|t| t.span.start <= offset && offset < t.span.end)
        .or_else(|| tokens.iter().find(|t| t.span.end == offset))
}

/// The modifiers of a verb as written: whitelisted or excluded.
pub fn verb_modifiers(verb: &str) -> u32 {
    let upper = verb.trim_start_matches('!').to_uppercase();
    if vocabulary::VERBS.contains(&upper.as_str()) {
        DEFAULT_LIBRARY
    } else if vocabulary::excluded_verb(&upper).is_some() {
        DEPRECATED
    } else {
        0
    }
}

struct Tokens<'t> {
    text: &'t str,
    within: Option<Span>,
    tokens: Vec<Token>,
    /// Whether the walk sorts its tokens and keeps them apart as it finds them,
    /// keeping only `room` of them and only those touching `within` (see
    /// [`Tokens::streamed`]).
    streamed: bool,
    room: usize,
    /// Whether every token found so far came at or after the one before.
    in_order: bool,
    /// The (start, end) of the last token found.
    last: (usize, usize),
    /// The end of the last token apart from those before it.
    apart_end: usize,
}

impl<'t> Tokens<'t> {
    fn new(text: &'t str, within: Option<Span>) -> Self {
        Tokens {
            text,
            within,
            tokens: Vec::new(),
            streamed: false,
            room: usize::MAX,
            in_order: true,
            last: (0, 0),
            apart_end: 0,
        }
    }

    /// A walk that keeps, of what [`sorted_apart`] would keep, only the first
    /// `room` tokens and, with `within`, only those touching it, and decides as it
    /// finds each token: exact while the walk finds them in source order, as it
    /// does (each part of a payload after the one before). Its
    /// [`Tokens::into_streamed`] says when they came out of order.
    fn streamed(text: &'t str, room: usize, within: Option<Span>) -> Self {
        Tokens {
            streamed: true,
            room,
            ..Tokens::new(text, within)
        }
    }

    /// The tokens a [`Tokens::streamed`] walk kept; `None` when it found one
    /// before the one it found last, and its choice may not be the right one.
    fn into_streamed(self) -> Option<Vec<Token>> {
        self.in_order.then_some(self.tokens)
    }

    /// Whether a streamed walk keeps a token at `span`: one [`sorted_apart`]
    /// keeps, while there is room, touching `within`.
    fn keeps(&mut self, span: &Span) -> bool {
        if !is_token_span(self.text, span) {
            return false;
        }
        let key = (span.start, span.end);
        self.in_order &= key >= self.last;
        self.last = key;
        if !self.in_order || span.start < self.apart_end {
            return false;
        }
        self.apart_end = span.end;
        self.tokens.len() < self.room && self.wanted(span)
    }

    fn wanted(&self, span: &Span) -> bool {
        match &self.within {
            Some(w) => span.start <= w.end && w.start <= span.end,
            None => true,
        }
    }

    fn block(&mut self, block: &Block) {
        for item in &block.items {
            self.item(item);
        }
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Blank(_) => {}
            Item::Comment { line, .. } => {
                if self.wanted(&line.span()) {
                    self.comment_line(line);
                }
            }
            Item::Silp(silp) => {
                if self.wanted(&silp.line.span()) {
                    self.silp_line(silp);
                }
            }
            Item::Slip { line, parse } => {
                if let Some(message) = parse.message.as_ref().filter(|_| self.wanted(&line.span()))
                {
                    self.slip_message(message);
                }
            }
            Item::Json(json) => {
                if !self.wanted(&json.span) {
                    return;
                }
                for (value, carrier) in json.values() {
                    match carrier {
                        Some(carrier) => self.carrier(carrier),
                        None => self.json(value, &mut Vec::new(), None),
                    }
                }
            }
            // The envelope's own keys are the JSON grammar's to colour.
            Item::Nlip(message) => {
                for carried in &message.carried {
                    self.carried(carried);
                }
                for carrier in &message.carriers {
                    self.carrier(carrier);
                }
            }
            Item::Carrier(text) => {
                for carrier in &text.carriers {
                    self.carrier(carrier);
                }
            }
        }
    }

    /// What an MCP wrapper or A2A message carries; a wrapper's `silp_encoding` is a
    /// frontend name.
    fn carrier(&mut self, carrier: &Carrier) {
        if let Carrier::Mcp(wrapper) = carrier {
            let encoding = wrapper.encoding.as_ref().map(|e| &e.value);
            if let Some((node, name)) = encoding.and_then(|n| Some((n, n.as_str()?))) {
                self.push_meaning(node.span.clone(), TokenType::EnumMember, || {
                    (0, Meaning::Frontend(name.to_string()))
                });
            }
        }
        if let Some(carried) = carrier.carried() {
            self.carried(carried);
        }
    }

    fn carried(&mut self, carried: &Carried) {
        match carried {
            Carried::InPlace { block, .. } => self.block(block),
            Carried::Object(content) => self.json(content, &mut Vec::new(), None),
            // Its positions are the decoded text's, not the file's.
            Carried::Escaped(_) => {}
        }
    }

    fn comment_line(&mut self, line: &Line) {
        let lead = line.text.len() - line.text.trim_start().len();
        self.push(
            line.start + lead..line.start + line.text.trim_end().len(),
            TokenType::Comment,
        );
    }

    fn push(&mut self, span: Span, kind: TokenType) {
        self.push_meaning(span, kind, || (0, Meaning::None));
    }

    /// Pushes a token whose modifiers and meaning `described` gives: worked out
    /// only for a token kept.
    fn push_meaning(
        &mut self,
        span: Span,
        kind: TokenType,
        described: impl FnOnce() -> (u32, Meaning),
    ) {
        if self.streamed && !self.keeps(&span) {
            return;
        }
        let (modifiers, meaning) = described();
        self.tokens.push(Token {
            span,
            kind,
            modifiers,
            meaning,
        });
    }

    fn silp_line(&mut self, silp: &SilpLine) {
        let line = &silp.line;
        match &silp.body {
            SilpBody::Probe {
                probe: Some(probe), ..
            } => self.probe(silp.payload, line.start, probe),
            SilpBody::Probe { probe: None, .. } => {}
            SilpBody::Code(parse) => {
                if let Some(tree) = &parse.payload {
                    self.code(tree);
                }
            }
        }
        // The trailing comment last, where it stands.
        if let Some(hash) = silp.comment {
            self.push(
                line.start + hash..line.start + line.text.trim_end().len(),
                TokenType::Comment,
            );
        }
    }

    fn probe(&mut self, payload: &str, start: usize, probe: &Probe) {
        let lead = payload.len() - payload.trim_start().len();
        self.push(
            start + lead..start + lead + "//ping".len(),
            TokenType::Keyword,
        );
        for frontend in &probe.frontends {
            self.push_meaning(frontend.span(), TokenType::EnumMember, || {
                (0, Meaning::Frontend(frontend.text.to_string()))
            });
        }
        for (key, value, kind) in [
            ("session=", &probe.session, TokenType::String),
            ("heartbeat=", &probe.heartbeat, TokenType::Number),
        ] {
            if let Some(value) = value {
                let key_start = value.span.0.saturating_sub(key.len());
                if self.text.get(key_start..value.span.0) == Some(key) {
                    self.push(key_start..value.span.0 - 1, TokenType::Parameter);
                    self.push(value.span.0 - 1..value.span.0, TokenType::Operator);
                }
                self.push(value.span(), kind);
            }
        }
    }

    fn code(&mut self, tree: &code::Payload) {
        if let Some(condition) = &tree.condition {
            self.push(condition.if_keyword.clone(), TokenType::Keyword);
            let mut previous_end = condition.if_keyword.end;
            for constraint in &condition.constraints {
                let span = constraint.span();
                self.keyword_between(previous_end, span.start, "and");
                previous_end = span.end;
                self.constraint(constraint);
            }
            match &condition.end {
                Some(ConditionEnd::Colon(span)) => self.push(span.clone(), TokenType::Operator),
                Some(ConditionEnd::Then(span)) => self.push(span.clone(), TokenType::Keyword),
                None => {}
            }
        }
        // In source order, as every walk here is: each separator stands before
        // the action after it (see `Tokens::streamed`).
        let mut separators = tree.separators.iter();
        for (i, call) in tree.actions.iter().enumerate() {
            if i > 0 {
                self.separator(separators.next());
            }
            self.call(call);
        }
        for separator in separators {
            self.separator(Some(separator));
        }
        if let Some(branch) = &tree.else_branch {
            self.push(branch.else_keyword.clone(), TokenType::Keyword);
            if let Some(colon) = &branch.colon {
                self.push(colon.clone(), TokenType::Operator);
            }
            let mut previous = None::<usize>;
            for call in &branch.alternatives {
                if let Some(end) = previous {
                    self.operator_between(end, call.span.start, ";");
                }
                self.call(call);
                previous = Some(call.span.end);
            }
        }
        if let Some((keyword, name)) = &tree.with {
            self.push(keyword.clone(), TokenType::Keyword);
            self.push(name.span(), TokenType::Variable);
        }
    }

    fn separator(&mut self, separator: Option<&Separator>) {
        if let Some(Separator::Semicolon(span) | Separator::Arrow(span)) = separator {
            self.push(span.clone(), TokenType::Operator);
        }
    }

    /// Marks the first `word` (as a whole word) between two offsets as a keyword.
    fn keyword_between(&mut self, from: usize, to: usize, word: &str) {
        if let Some(gap) = self.text.get(from..to) {
            if let Some(i) = gap.find(word) {
                self.push(from + i..from + i + word.len(), TokenType::Keyword);
            }
        }
    }

    fn operator_between(&mut self, from: usize, to: usize, op: &str) {
        if let Some(gap) = self.text.get(from..to) {
            if let Some(i) = gap.find(op) {
                self.push(from + i..from + i + op.len(), TokenType::Operator);
            }
        }
    }

    fn constraint(&mut self, constraint: &Constraint) {
        match constraint {
            Constraint::Negation {
                bang, name, time, ..
            } => {
                self.push(bang.clone(), TokenType::Operator);
                self.push(name.span(), TokenType::Variable);
                if let Some(time) = time {
                    self.push(time.span(), TokenType::Number);
                }
            }
            Constraint::Comparison {
                name,
                op,
                value,
                time,
                ..
            } => {
                self.push(name.span(), TokenType::Variable);
                self.push(op.span(), TokenType::Operator);
                self.value(value);
                if let Some(time) = time {
                    self.push(time.span(), TokenType::Number);
                }
            }
            Constraint::Predicate { name, args, .. } => {
                self.push(name.span(), TokenType::Variable);
                for arg in args {
                    self.value(arg);
                }
            }
        }
    }

    fn call(&mut self, call: &Call) {
        self.push_meaning(call.name.span(), TokenType::Function, || {
            (
                verb_modifiers(call.name.text),
                Meaning::Verb(call.name.text.to_string()),
            )
        });
        for arg in call.args.iter().flatten() {
            self.arg(arg);
        }
    }

    fn arg(&mut self, arg: &Arg) {
        if let Some(key) = &arg.key {
            self.push(key.span(), TokenType::Parameter);
            self.operator_between(key.span.1, arg.value.span.0, "=");
        }
        self.value(&arg.value);
        if let Some(location) = &arg.location {
            self.operator_between(arg.value.span.1, location.span.0, "@");
            self.push(location.span(), TokenType::String);
        }
    }

    fn value(&mut self, word: &Word) {
        let kind = if looks_numeric(word.text) || is_time(word.text) {
            TokenType::Number
        } else {
            TokenType::String
        };
        self.push(word.span(), kind);
    }

    fn slip_message(&mut self, message: &Message) {
        self.push(message.marker.span.clone(), TokenType::Keyword);
        if let Some(version) = &message.version {
            self.push(version.span.clone(), TokenType::Number);
        }
        for agent in [&message.src, &message.dst].into_iter().flatten() {
            self.push(agent.span.clone(), TokenType::Namespace);
        }
        if let Some(anchor) = &message.anchor {
            self.push_meaning(anchor.span.clone(), TokenType::EnumMember, || {
                (0, Meaning::Anchor(anchor.text.to_string()))
            });
        }
        for payload in &message.payload {
            self.push(payload.span.clone(), TokenType::String);
        }
    }

    /// Walks a JSON value; `path` holds the keys from the payload object down.
    fn json(&mut self, node: &JsonNode, path: &mut Vec<String>, key: Option<&str>) {
        match &node.value {
            JsonValue::Object(members) => {
                // An array of payloads at the root: each element is a payload object.
                for member in members {
                    path.push(member.key.to_string());
                    self.push_meaning(member.key_span.clone(), TokenType::Property, || {
                        (0, Meaning::Key(path.join(".")))
                    });
                    self.json(&member.value, path, Some(&member.key));
                    path.pop();
                }
            }
            JsonValue::Array(items) => {
                let element = match path.last_mut() {
                    Some(last) => {
                        let saved = last.clone();
                        last.push_str("[]");
                        Some(saved)
                    }
                    None => None,
                };
                for item in items {
                    self.json(item, path, key);
                }
                if let (Some(saved), Some(last)) = (element, path.last_mut()) {
                    *last = saved;
                }
            }
            JsonValue::String(value) => {
                let verb_slot = matches!(key, Some("intent" | "action" | "seq"));
                if verb_slot && value.starts_with('!') {
                    self.push_meaning(node.span.clone(), TokenType::Function, || {
                        (verb_modifiers(value), Meaning::Verb(value.to_string()))
                    });
                } else if key == Some("out") && path.len() == 2 && path[0] == "meta" {
                    self.push_meaning(node.span.clone(), TokenType::EnumMember, || {
                        (0, Meaning::Frontend(value.to_string()))
                    });
                } else {
                    self.push(node.span.clone(), TokenType::String);
                }
            }
            JsonValue::Number(_) => self.push(node.span.clone(), TokenType::Number),
            JsonValue::Bool(_) | JsonValue::Null => {
                self.push(node.span.clone(), TokenType::Keyword)
            }
        }
    }
}

fn looks_numeric(text: &str) -> bool {
    let body = text.strip_suffix('%').unwrap_or(text);
    let body = body.strip_prefix(['-', '+']).unwrap_or(body);
    !body.is_empty()
        && body.chars().any(|c| c.is_ascii_digit())
        && body.chars().all(|c| c.is_ascii_digit() || c == '.')
        && body.matches('.').count() <= 1
}

fn is_time(text: &str) -> bool {
    text.len() > 2 && (text.starts_with("t+") || text.starts_with("t-"))
}

/// What an outline entry stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// A code-frontend payload.
    Payload,
    /// A `//ping` probe.
    Probe,
    /// A SLIP message.
    Message,
    /// A JSON payload object.
    Object,
}

/// One payload, for the document outline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// Never empty.
    pub name: String,
    pub detail: Option<String>,
    pub kind: SymbolKind,
    pub span: Span,
}

const SYMBOL_NAME_CHARS: usize = 60;

fn shorten(text: &str) -> String {
    let text = text.trim();
    if text.chars().count() <= SYMBOL_NAME_CHARS {
        return text.to_string();
    }
    let mut short: String = text.chars().take(SYMBOL_NAME_CHARS - 1).collect();
    short.push('…');
    short
}

/// The outline of a document: its first symbols, and how many payloads it has.
#[derive(Debug, Default)]
pub struct Outline {
    pub symbols: Vec<Symbol>,
    pub total: usize,
}

impl Outline {
    /// Counts a payload, and makes its symbol while fewer than `limit` are made.
    fn add(&mut self, limit: usize, symbol: impl FnOnce() -> Symbol) {
        self.total += 1;
        if self.symbols.len() < limit {
            self.symbols.push(symbol());
        }
    }
}

/// One symbol per payload of a document, the first `limit` of them (the rest are
/// only counted): every payload `check` lints, Markdown fences and payloads carried
/// in NLIP messages included.
pub fn symbols(document: &Document, limit: usize) -> Outline {
    let mut out = Outline::default();
    for block in &document.blocks {
        block_symbols(block, limit, &mut out);
    }
    out
}

/// [`symbols`] of a line-oriented file's text, read a line at a time as `check`
/// reads it: the same outline without the file's tree.
pub fn line_symbols(text: &str, kind: FileKind, limit: usize) -> Outline {
    let mut out = Outline::default();
    for region in regions(text, kind) {
        for line in region.lines() {
            item_symbols(&line_item(kind, line, text), limit, &mut out);
        }
    }
    out
}

fn block_symbols(block: &Block, limit: usize, out: &mut Outline) {
    for item in &block.items {
        item_symbols(item, limit, out);
    }
}

fn item_symbols(item: &Item, limit: usize, out: &mut Outline) {
    match item {
        Item::Blank(_) | Item::Comment { .. } => {}
        Item::Silp(silp) => out.add(limit, || silp_symbol(silp)),
        Item::Slip { line, parse } => out.add(limit, || slip_symbol(line, parse)),
        Item::Json(json) => {
            for (value, carrier) in json.values() {
                match carrier {
                    Some(carrier) => {
                        if let Some(carried) = carrier.carried() {
                            carried_symbols(carried, limit, out);
                        }
                    }
                    None => json_symbol(value, limit, out),
                }
            }
        }
        Item::Nlip(_) | Item::Carrier(_) => {
            for carried in item.carried() {
                carried_symbols(carried, limit, out);
            }
        }
    }
}

fn carried_symbols(carried: &Carried, limit: usize, out: &mut Outline) {
    match carried {
        Carried::InPlace { block, .. } => block_symbols(block, limit, out),
        Carried::Object(content) => json_symbol(content, limit, out),
        Carried::Escaped(_) => {}
    }
}

fn silp_symbol(silp: &SilpLine) -> Symbol {
    let payload = silp.payload;
    let lead = payload.len() - payload.trim_start().len();
    let span = silp.line.start + lead..silp.line.start + payload.len();
    match &silp.body {
        SilpBody::Probe { .. } => Symbol {
            name: shorten(payload),
            detail: Some("probe".to_string()),
            kind: SymbolKind::Probe,
            span,
        },
        SilpBody::Code(parse) => Symbol {
            name: shorten(payload),
            detail: parse
                .payload
                .as_ref()
                .and_then(|tree| tree.actions.first())
                .map(|call| format!("!{}", call.name.text.to_uppercase())),
            kind: SymbolKind::Payload,
            span,
        },
    }
}

fn slip_symbol(line: &Line, parse: &SlipParse) -> Symbol {
    let (name, detail) = match &parse.message {
        Some(message) => (
            message
                .anchor
                .as_ref()
                .map(|a| a.text.to_string())
                .filter(|a| !a.is_empty())
                .unwrap_or_else(|| shorten(line.text)),
            match (&message.src, &message.dst) {
                (Some(src), Some(dst)) => Some(format!("{} → {}", src.text, dst.text)),
                _ => None,
            },
        ),
        None => (shorten(line.text), None),
    };
    let lead = line.text.len() - line.text.trim_start().len();
    Symbol {
        name,
        detail,
        kind: SymbolKind::Message,
        span: line.start + lead..line.start + line.text.trim_end().len(),
    }
}

fn json_symbol(node: &JsonNode, limit: usize, out: &mut Outline) {
    let JsonValue::Object(members) = &node.value else {
        return;
    };
    out.add(limit, || object_symbol(node, members));
}

fn object_symbol(node: &JsonNode, members: &[JsonMember]) -> Symbol {
    let string = |key: &str, members: &[JsonMember]| {
        members
            .iter()
            .rev()
            .find_map(|m| match (&m.value.value, m.key == key) {
                (JsonValue::String(s), true) => Some(s.clone()),
                _ => None,
            })
    };
    let name = string("intent", members)
        .filter(|s| !s.trim().is_empty())
        .map(|s| shorten(&s))
        .unwrap_or_else(|| "payload".to_string());
    let req_id = members.iter().rev().find_map(|m| match &m.value.value {
        JsonValue::Object(meta) if m.key == "meta" => string("req_id", meta),
        _ => None,
    });
    Symbol {
        name,
        detail: req_id.map(|id| format!("req_id {id}")),
        kind: SymbolKind::Object,
        span: node.span.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileKind;
    use crate::syntax::document::parse_lines_at;
    use crate::syntax::parse;

    fn tokens(text: &str, kind: FileKind, within: Option<Span>) -> Vec<Token> {
        super::tokens(&parse(text, kind), within)
    }

    fn symbols(text: &str, kind: FileKind) -> Vec<Symbol> {
        super::symbols(&parse(text, kind), usize::MAX).symbols
    }

    /// Line-oriented texts of each kind, with every kind of line (the probe's
    /// tokens are found out of order: `session=` before `heartbeat=`).
    const LINE_ORIENTED: [(&str, FileKind); 3] = [
            (
                "\u{feff}start(x)\r\n# c\n\nif !rain(t+1): Cancel(w)\rstop(y) # silp-lint: ignore[SL101]\n//ping code,json heartbeat=5 session=s1\n",
                FileKind::Silp,
            ),
            (
                "{\"intent\":\"!START\"}\nnot json\n\n{\"format\":\"text\",\"subformat\":\"silp\",\"content\":\"start(a)\",\"submessages\":[{\"format\":\"text\",\"subformat\":\"silp\",\"content\":\"stop(b)\"}]}\n",
                FileKind::SilpJsonl,
            ),
        ("SLIP v1 a b RequestTask x\n# c\nSLIP v2 a b c\nnot slip\n", FileKind::Slip),
    ];

    /// Read a line at a time, a line-oriented file has the outline of its tree.
    #[test]
    fn line_symbols_are_the_symbols_of_the_tree() {
        for (text, kind) in LINE_ORIENTED {
            let text = text.repeat(3);
            for limit in [usize::MAX, 4] {
                let whole = super::symbols(&parse(&text, kind), limit);
                let lines = line_symbols(&text, kind, limit);
                assert!(whole.total > 4, "{kind:?}");
                assert_eq!(
                    (lines.symbols, lines.total),
                    (whole.symbols, whole.total),
                    "{kind:?}"
                );
            }
        }
    }

    /// A line large enough to be read alone has the tokens of its tree too, all
    /// and the first.
    #[test]
    fn a_large_line_has_the_tokens_of_its_tree() {
        let text = format!("start(é){}\n", "; Start(y, k=v)".repeat(70_000));
        assert!(text.len() >= crate::memory::LARGE_BUFFER_BYTES);
        let whole = super::tokens(&parse(&text, FileKind::Silp), None);
        assert!(whole.len() > 200_000);
        assert_eq!(line_tokens(&text, FileKind::Silp, usize::MAX), whole);
        assert_eq!(line_tokens(&text, FileKind::Silp, 1000), whole[..1000]);
    }

    /// The walk finds a code payload's tokens in source order, so a request for
    /// the first of a line's tokens keeps no more than it wants.
    #[test]
    fn a_code_payload_is_walked_in_source_order() {
        let text = "if !rain(t+1) and budget<=500: start(hike); x(k=v) -> z(w@home) else: start(cards@indoor); stop(q) with plan # c\n";
        let document = parse(text, FileKind::Silp);
        let mut walk = Tokens::new(text, None);
        walk.block(&document.blocks[0]);
        assert!(walk.tokens.len() > 20);
        assert!(walk.tokens.is_sorted_by_key(|t| (t.span.start, t.span.end)));
    }

    /// However few are wanted, the first tokens of each line are those of the
    /// whole walk: kept as found, or, when the walk finds them out of order (a
    /// probe's `session=` after its `heartbeat=`), from a walk that keeps all.
    #[test]
    fn every_number_of_first_tokens_is_a_prefix_of_all() {
        for (text, kind) in LINE_ORIENTED {
            let whole = super::tokens(&parse(text, kind), None);
            for limit in 0..=whole.len() + 1 {
                let first = line_tokens(text, kind, limit);
                assert_eq!(first, whole[..limit.min(whole.len())], "{kind:?} {limit}");
            }
        }
    }

    /// A streamed walk keeps what sorting and keeping apart every token would keep,
    /// within its room and its range, and gives up when a token comes out of order.
    #[test]
    fn a_streamed_walk_keeps_what_sorting_all_would_keep() {
        let text = "abcdefgh";
        let walk = |room: usize, within: Option<Span>, spans: &[(usize, usize)]| {
            let mut walk = Tokens::streamed(text, room, within);
            for &(start, end) in spans {
                walk.push(start..end, TokenType::String);
            }
            let kept = walk.into_streamed()?;
            Some(
                kept.into_iter()
                    .map(|t| (t.span.start, t.span.end))
                    .collect::<Vec<_>>(),
            )
        };
        let in_order = [(0, 1), (2, 3), (4, 5)];
        assert_eq!(walk(2, None, &in_order), Some(vec![(0, 1), (2, 3)]));
        assert_eq!(walk(9, None, &in_order), Some(in_order.to_vec()));
        assert_eq!(walk(9, Some(3..4), &in_order), Some(vec![(2, 3), (4, 5)]));
        assert_eq!(walk(2, None, &[(2, 3), (0, 1), (4, 5)]), None);
        assert_eq!(walk(9, Some(4..4), &[(4, 5), (0, 1)]), None);
        // An empty token, one past the text and one overlapping the one before are
        // not kept, and do not count as out of order.
        let odd = [(3, 3), (0, 4), (1, 2), (5, 6), (7, 12)];
        assert_eq!(walk(2, None, &odd), Some(vec![(0, 4), (5, 6)]));
    }

    /// Read a line at a time, a line-oriented file has the tokens of its tree: all
    /// of them and the first of them; and with only the line at an offset parsed,
    /// the token at each offset.
    #[test]
    fn line_tokens_are_the_tokens_of_the_tree() {
        for (text, kind) in LINE_ORIENTED {
            let text = text.repeat(3);
            let whole = super::tokens(&parse(&text, kind), None);
            assert!(whole.len() > 10, "{kind:?}");
            assert_eq!(line_tokens(&text, kind, usize::MAX), whole, "{kind:?}");
            let first = line_tokens(&text, kind, 10);
            assert_eq!(first, whole[..10], "{kind:?}");
            for offset in 0..=text.len() {
                let within = Some(offset..offset);
                let lines = super::tokens(&parse_lines_at(&text, kind, offset), within.clone());
                let tree = super::tokens(&parse(&text, kind), within);
                let expected = token_at(&tree, offset);
                assert_eq!(token_at(&lines, offset), expected, "{kind:?} at {offset}");
                let line = token_at_offset(&parse_lines_at(&text, kind, offset), offset);
                assert_eq!(line.as_ref(), expected, "{kind:?} at {offset}");
            }
        }
    }

    #[test]
    fn comments_are_tokens_and_probe_words_are_classified() {
        let text = "# note\n//ping code,json heartbeat=5 # trailing\n";
        let got: Vec<(&str, TokenType)> = tokens(text, FileKind::Silp, None)
            .iter()
            .map(|t| (&text[t.span.clone()], t.kind))
            .collect();
        assert_eq!(
            got,
            vec![
                ("# note", TokenType::Comment),
                ("//ping", TokenType::Keyword),
                ("code", TokenType::EnumMember),
                ("json", TokenType::EnumMember),
                ("heartbeat", TokenType::Parameter),
                ("=", TokenType::Operator),
                ("5", TokenType::Number),
                ("# trailing", TokenType::Comment),
            ]
        );
    }

    fn classified(text: &str, kind: FileKind) -> Vec<(&str, TokenType, u32)> {
        tokens(text, kind, None)
            .iter()
            .map(|t| (&text[t.span.clone()], t.kind, t.modifiers))
            .collect()
    }

    #[test]
    fn code_payload_parts_are_classified_from_the_tree() {
        use TokenType::*;
        let got = classified(
            "if !rain(t+1) and b<=5: start(id=x) -> switch_tool else: start(cards@in)",
            FileKind::Silp,
        );
        assert_eq!(
            got,
            vec![
                ("if", Keyword, 0),
                ("!", Operator, 0),
                ("rain", Variable, 0),
                ("t+1", Number, 0),
                ("and", Keyword, 0),
                ("b", Variable, 0),
                ("<=", Operator, 0),
                ("5", Number, 0),
                (":", Operator, 0),
                ("start", Function, DEFAULT_LIBRARY),
                ("id", Parameter, 0),
                ("=", Operator, 0),
                ("x", String, 0),
                ("->", Operator, 0),
                ("switch_tool", Function, DEPRECATED),
                ("else", Keyword, 0),
                (":", Operator, 0),
                ("start", Function, DEFAULT_LIBRARY),
                ("cards", String, 0),
                ("@", Operator, 0),
                ("in", String, 0),
            ]
        );
    }

    #[test]
    fn slip_and_json_parts_are_classified_from_the_tree() {
        use TokenType::*;
        let got = classified("SLIP v1 a b Fallback \"hi\"", FileKind::Slip);
        assert_eq!(
            got,
            vec![
                ("SLIP", Keyword, 0),
                ("v1", Number, 0),
                ("a", Namespace, 0),
                ("b", Namespace, 0),
                ("Fallback", EnumMember, 0),
                ("\"hi\"", String, 0),
            ]
        );
        let text = r#"{"intent":"!START","meta":{"out":"code","seq":["!BOOK"],"confidence":1}}"#;
        let tokens = tokens(text, FileKind::SilpJson, None);
        let meanings: Vec<&Meaning> = tokens.iter().map(|t| &t.meaning).collect();
        assert_eq!(
            meanings,
            vec![
                &Meaning::Key("intent".into()),
                &Meaning::Verb("!START".into()),
                &Meaning::Key("meta".into()),
                &Meaning::Key("meta.out".into()),
                &Meaning::Frontend("code".into()),
                &Meaning::Key("meta.seq".into()),
                &Meaning::Verb("!BOOK".into()),
                &Meaning::Key("meta.confidence".into()),
                &Meaning::None,
            ]
        );
        let symbols = symbols(&format!("[{text}]"), FileKind::SilpJson);
        assert_eq!(symbols.len(), 1);
        assert_eq!(symbols[0].name, "!START");
    }

    #[test]
    fn within_limits_line_kinds_to_the_touched_lines() {
        let text = "# a\n# b\n# c";
        let got = tokens(text, FileKind::Silp, Some(4..5));
        assert_eq!(got.len(), 1);
        assert_eq!(&text[got[0].span.clone()], "# b");
    }

    #[test]
    fn verbs_get_library_or_deprecated_modifiers() {
        assert_eq!(verb_modifiers("start"), DEFAULT_LIBRARY);
        assert_eq!(verb_modifiers("!CANCEL"), DEFAULT_LIBRARY);
        assert_eq!(verb_modifiers("switch_tool"), DEPRECATED);
        assert_eq!(verb_modifiers("begin"), 0);
    }

    #[test]
    fn every_payload_line_is_one_symbol_with_a_name() {
        let text = "# c\nstart(hike)\n\n//ping code\n";
        let got = symbols(text, FileKind::Silp);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].name, "start(hike)");
        assert_eq!(&text[got[0].span.clone()], "start(hike)");
        assert_eq!(got[1].kind, SymbolKind::Probe);
        let long = "x".repeat(200);
        let got = symbols(&long, FileKind::Slip);
        assert_eq!(got[0].name.chars().count(), SYMBOL_NAME_CHARS);
    }
}
