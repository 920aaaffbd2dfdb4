//! Compiling the IR to the frontends (languages.md §2–4), byte for byte as the
//! public reference implementation prints them: `code`, `json`, `natural`,
//! `nl_json`, and the canonical IR document that `silp-lint convert --to ir` prints.
//!
//! The reference tests optional strings for truth, so an empty `time`, `subject`,
//! `operator`, `target` or `location` is printed as if absent; these functions do
//! the same. [`code_losses`] lists what the code frontend cannot carry (SL502), and
//! [`Semantics`] is the part of an IR that `decode(compile(ir))` must preserve.

use crate::ir::{Alternative, Constraint, Entity, Extra, Ir, Origin, Text};
use crate::source::Span;
use crate::syntax::code::KEYWORDS;
use compact_str::CompactString;
use indexmap::IndexMap;

/// The frontends silp-lint compiles to (`llmlingua2` needs an ML model: it is not one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frontend {
    Code,
    Json,
    Natural,
    NlJson,
}

impl Frontend {
    pub const ALL: [Frontend; 4] = [
        Frontend::Code,
        Frontend::Json,
        Frontend::Natural,
        Frontend::NlJson,
    ];

    /// The frontend's name as `meta.out` and `//ping` probes write it.
    pub fn name(self) -> &'static str {
        match self {
            Frontend::Code => "code",
            Frontend::Json => "json",
            Frontend::Natural => "natural",
            Frontend::NlJson => "nl_json",
        }
    }
}

/// Why an IR could not be compiled, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    pub span: Span,
    pub message: String,
}

/// Compiles `ir` to `frontend`.
pub fn compile(ir: &Ir, frontend: Frontend) -> Result<String, CompileError> {
    match frontend {
        Frontend::Code => code(ir),
        Frontend::Json => json(ir),
        Frontend::Natural => natural(ir),
        Frontend::NlJson => nl_json(ir),
    }
}

fn intent(ir: &Ir) -> Result<&str, CompileError> {
    ir.intent
        .as_ref()
        .map(|i| i.as_str())
        .ok_or_else(|| CompileError {
            span: ir.span.clone(),
            message: "the payload has no `intent`, so there is no action to compile".to_string(),
        })
}

/// An optional string as the reference tests it: present and non-empty.
fn truthy(value: &Option<Text>) -> Option<&str> {
    value.as_ref().map(|v| v.as_str()).filter(|v| !v.is_empty())
}

/// An action code without its first character (the `!`), as the reference slices it.
fn verb_of(code: &str) -> &str {
    let mut chars = code.chars();
    chars.next();
    chars.as_str()
}

/// The code-frontend function name of an action code: `!CANCEL` -> `cancel`.
pub fn function_name(code: &str) -> String {
    verb_of(code).to_lowercase()
}

/// Whether an entity belongs to the primary action: no `action`, or the intent's.
fn is_primary(entity: &Entity, intent: &str) -> bool {
    entity.action.as_ref().is_none_or(|a| a.as_str() == intent)
}

/// Secondary entities' values grouped by action, in first-appearance order.
fn secondary_groups<'a>(ir: &'a Ir, intent: &str) -> Vec<(&'a Text, Vec<&'a Text>)> {
    let mut groups: IndexMap<&str, (&Text, Vec<&Text>)> = IndexMap::new();
    for entity in &ir.entities {
        let Some(action) = entity
            .action
            .as_ref()
            .filter(|_| !is_primary(entity, intent))
        else {
            continue;
        };
        groups
            .entry(action.node.as_str())
            .or_insert_with(|| (action, Vec::new()))
            .1
            .push(&entity.value);
    }
    groups.into_values().collect()
}

// ---------------------------------------------------------------------------
// code

/// The code frontend: `if !rain(t+1): start(hike) else: start(cards@indoor)`.
pub fn code(ir: &Ir) -> Result<String, CompileError> {
    let intent = intent(ir)?;
    let condition: Vec<String> = ir.constraints.iter().map(code_constraint).collect();
    let primary: Vec<String> = ir
        .entities
        .iter()
        .filter(|e| is_primary(e, intent))
        .map(|e| {
            if e.id.as_str() == "act" {
                e.value.node.to_string()
            } else {
                format!("{}={}", e.id.node, e.value.node)
            }
        })
        .collect();
    let mut calls = vec![format!("{}({})", function_name(intent), primary.join(","))];
    for (action, values) in secondary_groups(ir, intent) {
        let values: Vec<&str> = values.iter().map(|v| v.as_str()).collect();
        calls.push(format!("{}({})", function_name(action), values.join(",")));
    }
    let actions = calls.join("; ");
    let mut out = if condition.is_empty() {
        actions
    } else {
        format!("if {}: {actions}", condition.join(" and "))
    };
    if !ir.alternatives.is_empty() {
        let alternatives: Vec<String> = ir.alternatives.iter().map(code_alternative).collect();
        out.push_str(" else: ");
        out.push_str(&alternatives.join("; "));
    }
    Ok(out)
}

fn code_constraint(c: &Constraint) -> String {
    let kind = c.kind.as_str();
    if let Some(op) = truthy(&c.operator) {
        return match truthy(&c.time) {
            Some(time) => format!("{kind}{op}{}, {time}", c.value.node),
            None => format!("{kind}{op}{}", c.value.node),
        };
    }
    if kind.starts_with('!') {
        return match truthy(&c.time) {
            Some(time) => format!("{kind}({time})"),
            None => kind.to_string(),
        };
    }
    let mut args: Vec<&str> = Vec::with_capacity(3);
    args.extend(truthy(&c.subject));
    args.push(c.value.as_str());
    args.extend(truthy(&c.time));
    format!("{kind}({})", args.join(","))
}

fn code_alternative(a: &Alternative) -> String {
    let arg = match (truthy(&a.target), truthy(&a.location)) {
        (Some(target), Some(location)) => format!("{target}@{location}"),
        (Some(target), None) => target.to_string(),
        (None, Some(location)) => format!("loc={location}"),
        (None, None) => String::new(),
    };
    format!("{}({arg})", function_name(&a.action))
}

// ---------------------------------------------------------------------------
// json

/// A JSON string literal as Python's `json.dumps(ensure_ascii=False)` writes it.
pub fn json_string(value: &str) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "\"\"".to_string())
}

enum Slot<'a> {
    Value(&'a str),
    Values(Vec<&'a str>),
    Raw(String),
}

/// The JSON frontend: a flat object with compact separators and non-ASCII
/// unescaped. Slots behave as a Python dict: a repeated id keeps its first place
/// and its last value.
pub fn json(ir: &Ir) -> Result<String, CompileError> {
    let intent = intent(ir)?;
    // A dict in insertion order: a repeated key keeps its place, takes the new value.
    let mut slots: IndexMap<String, Slot> = IndexMap::new();
    slots.insert("intent".to_string(), Slot::Value(intent));
    for entity in &ir.entities {
        match entity
            .action
            .as_ref()
            .filter(|_| !is_primary(entity, intent))
        {
            None => {
                slots.insert(entity.id.node.to_string(), Slot::Value(&entity.value));
            }
            Some(action) => {
                let key = format!("action_{}", function_name(action));
                match slots.get_mut(&key) {
                    Some(Slot::Values(values)) => values.push(&entity.value),
                    Some(_) => {
                        return Err(CompileError {
                            span: entity.value.span.clone(),
                            message: format!(
                                "the JSON frontend keeps `{}` values in the slot `{key}`, which a primary entity id or a reserved key already uses",
                                action.node
                            ),
                        })
                    }
                    None => {
                        slots.insert(key, Slot::Values(vec![&entity.value]));
                    }
                }
            }
        }
    }
    if !ir.constraints.is_empty() {
        let items: Vec<String> = ir.constraints.iter().map(constraint_object).collect();
        slots.insert(
            "constraints".to_string(),
            Slot::Raw(format!("[{}]", items.join(","))),
        );
    }
    if !ir.alternatives.is_empty() {
        let items: Vec<String> = ir.alternatives.iter().map(alternative_object).collect();
        slots.insert(
            "alternatives".to_string(),
            Slot::Raw(format!("[{}]", items.join(","))),
        );
    }
    let mut out = String::from("{");
    for (i, (key, slot)) in slots.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&json_string(key));
        out.push(':');
        match slot {
            Slot::Value(value) => out.push_str(&json_string(value)),
            Slot::Values(values) => out.push_str(&string_array(values)),
            Slot::Raw(raw) => out.push_str(raw),
        }
    }
    out.push('}');
    Ok(out)
}

fn string_array(values: &[&str]) -> String {
    let items: Vec<String> = values.iter().map(|v| json_string(v)).collect();
    format!("[{}]", items.join(","))
}

/// The members of a JSON object being written, each as `"key":value`.
#[derive(Default)]
struct Members(Vec<String>);

impl Members {
    fn string(&mut self, key: &str, value: Option<&str>) {
        if let Some(value) = value {
            self.0
                .push(format!("{}:{}", json_string(key), json_string(value)));
        }
    }

    /// An extra member; `null` is left out, as the reference leaves out `None`.
    fn extra(&mut self, extra: &Extra) {
        let (key, value) = &extra.node;
        if !value.is_null() {
            let value = serde_json::to_string(value).unwrap_or_else(|_| "null".to_string());
            self.0.push(format!("{}:{value}", json_string(key)));
        }
    }

    fn extras(&mut self, extras: &[Extra]) {
        for extra in extras {
            self.extra(extra);
        }
    }

    fn finish(self) -> String {
        format!("{{{}}}", self.0.join(","))
    }
}

fn optional(value: &Option<Text>) -> Option<&str> {
    value.as_ref().map(|v| v.as_str())
}

/// A constraint as the reference dumps it: `type`, `value`, `time`, then the fields
/// its model has no slot for (`subject`, `operator` and any other) in the order
/// they were written.
fn constraint_object(c: &Constraint) -> String {
    let mut out = Members::default();
    out.string("type", Some(c.kind.as_str()));
    out.string("value", Some(c.value.as_str()));
    out.string("time", optional(&c.time));
    enum Member<'a> {
        Named(&'static str, &'a Text),
        Extra(&'a Extra),
    }
    let mut rest: Vec<(usize, Member)> = Vec::new();
    if let Some(subject) = &c.subject {
        rest.push((subject.span.start, Member::Named("subject", subject)));
    }
    if let Some(operator) = &c.operator {
        rest.push((operator.span.start, Member::Named("operator", operator)));
    }
    rest.extend(c.extra.iter().map(|e| (e.span.start, Member::Extra(e))));
    rest.sort_by_key(|(at, _)| *at);
    for (_, member) in rest {
        match member {
            Member::Named(key, value) => out.string(key, Some(value.as_str())),
            Member::Extra(extra) => out.extra(extra),
        }
    }
    out.finish()
}

fn alternative_object(a: &Alternative) -> String {
    let mut out = Members::default();
    out.string("action", Some(a.action.as_str()));
    out.string("target", optional(&a.target));
    out.string("location", optional(&a.location));
    out.extras(&a.extra);
    out.finish()
}

// ---------------------------------------------------------------------------
// natural and nl_json

fn verb_phrase(code: &str) -> String {
    match verb_of(code) {
        "EMAIL" => "notify".to_string(),
        "SWITCH" | "SWITCH_TOOL" => "switch to".to_string(),
        verb => verb.to_lowercase(),
    }
}

fn operator_phrase(op: &str) -> &str {
    match op {
        "!=" => "is not",
        "==" => "is",
        "<=" => "is at most",
        ">=" => "is at least",
        "<" => "is less than",
        ">" => "is greater than",
        other => other,
    }
}

/// The natural frontend: English prose (one-way).
pub fn natural(ir: &Ir) -> Result<String, CompileError> {
    let intent = intent(ir)?;
    let mut clauses: Vec<String> = Vec::new();
    if !ir.constraints.is_empty() {
        let parts: Vec<String> = ir
            .constraints
            .iter()
            .map(|c| {
                let kind = c.kind.as_str();
                let mut part = if let Some(negated) = kind.strip_prefix('!') {
                    format!("not {negated}")
                } else if let Some(op) = truthy(&c.operator) {
                    format!("{kind} {} {}", operator_phrase(op), c.value.node)
                } else {
                    format!("{kind} is {}", c.value.node)
                };
                if let Some(time) = truthy(&c.time) {
                    part.push_str(" at ");
                    part.push_str(time);
                }
                part
            })
            .collect();
        clauses.push(format!("If {},", parts.join(" and ")));
    }
    let targets: Vec<&str> = ir
        .entities
        .iter()
        .filter(|e| is_primary(e, intent))
        .map(|e| e.value.as_str())
        .collect();
    let object = if targets.is_empty() {
        "the task".to_string()
    } else {
        targets.join(", ")
    };
    clauses.push(format!("{} {object}", verb_phrase(intent)));
    for entity in &ir.entities {
        if let Some(action) = truthy(&entity.action).filter(|a| *a != intent) {
            clauses.push(format!("and {} {}", verb_phrase(action), entity.value.node));
        }
    }
    if !ir.alternatives.is_empty() {
        let parts: Vec<String> = ir
            .alternatives
            .iter()
            .map(|a| {
                let verb = verb_phrase(&a.action);
                let target = truthy(&a.target).unwrap_or("the alternative");
                match truthy(&a.location) {
                    Some("indoor") => format!("{verb} {target} indoors"),
                    Some(location) => format!("{verb} {target} at {location}"),
                    None => format!("{verb} {target}"),
                }
            })
            .collect();
        clauses.push(format!("otherwise {}", parts.join(" and ")));
    }
    Ok(format!("{}.", clauses.join(" ")))
}

/// The nl_json frontend: the natural text as `{"task_description":"..."}`.
pub fn nl_json(ir: &Ir) -> Result<String, CompileError> {
    Ok(format!(
        "{{\"task_description\":{}}}",
        json_string(&natural(ir)?)
    ))
}

// ---------------------------------------------------------------------------
// canonical IR document

/// The canonical IR document, compact, with every root field and the defaults the
/// reference fills (`silp` v1, `version` ir-v0.1, `priority` 0, `confidence` 1.0,
/// `seq` [], `out` natural); meta fields in the reference's order. Absent optional
/// fields are omitted rather than written as `null`. For a payload decoded from
/// the code or JSON frontend, positional (`act`) primary entities carry the intent
/// as `action`, as the reference suite writes them.
pub fn ir_document(ir: &Ir) -> Result<String, CompileError> {
    let intent = intent(ir)?;
    let mark_act = ir.origin != Origin::IrDocument;
    let entities: Vec<String> = ir
        .entities
        .iter()
        .map(|e| {
            let action = match &e.action {
                Some(action) => Some(action.as_str()),
                None if mark_act && e.id.as_str() == "act" => Some(intent),
                None => None,
            };
            let mut out = Members::default();
            out.string("id", Some(e.id.as_str()));
            out.string("value", Some(e.value.as_str()));
            out.string("action", action);
            out.extras(&e.extra);
            out.finish()
        })
        .collect();
    let constraints: Vec<String> = ir.constraints.iter().map(constraint_object).collect();
    let alternatives: Vec<String> = ir.alternatives.iter().map(alternative_object).collect();
    let meta = &ir.meta;
    let seq: Vec<&str> = meta.seq.iter().map(|s| s.as_str()).collect();
    let confidence = meta.confidence.as_ref().map_or(1.0, |c| c.node);
    let confidence = serde_json::to_string(&confidence).unwrap_or_else(|_| "1.0".to_string());
    let mut meta_members = vec![
        format!(
            "\"priority\":{}",
            meta.priority.as_ref().map_or(0, |p| p.node)
        ),
        format!("\"confidence\":{confidence}"),
        format!("\"seq\":{}", string_array(&seq)),
        format!(
            "\"out\":{}",
            json_string(optional(&meta.out).unwrap_or("natural"))
        ),
    ];
    for (key, value) in [
        ("next_agent", &meta.next_agent),
        ("req_id", &meta.req_id),
        ("session_id", &meta.session_id),
    ] {
        if let Some(value) = value {
            meta_members.push(format!("{}:{}", json_string(key), json_string(value)));
        }
    }
    let mut extras = Members::default();
    extras.extras(&meta.extra);
    meta_members.extend(extras.0);
    Ok(format!(
        "{{\"silp\":{},\"version\":{},\"intent\":{},\"entities\":[{}],\"constraints\":[{}],\"alternatives\":[{}],\"meta\":{{{}}}}}",
        json_string(optional(&ir.silp).unwrap_or("v1")),
        json_string(optional(&ir.version).unwrap_or("ir-v0.1")),
        json_string(intent),
        entities.join(","),
        constraints.join(","),
        alternatives.join(","),
        meta_members.join(","),
    ))
}

// ---------------------------------------------------------------------------
// what a round trip preserves, and what the code frontend loses

/// The part of an IR that `decode(compile(ir))` must preserve (the draft's §4.6 and
/// the conformance suite): intent, primary entities (id, value) in order, secondary
/// entities (value, action) grouped by action in first-appearance order (the order
/// both lossless frontends print them in), constraints (type, value, time,
/// operator, subject) and alternatives (action, target, location).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Semantics {
    pub intent: Option<CompactString>,
    pub primary: Vec<(CompactString, CompactString)>,
    pub secondary: Vec<(CompactString, CompactString)>,
    pub constraints: Vec<[Option<CompactString>; 5]>,
    pub alternatives: Vec<[Option<CompactString>; 3]>,
}

pub fn semantics(ir: &Ir) -> Semantics {
    let owned = |t: &Option<Text>| t.as_ref().map(|t| t.node.clone());
    Semantics {
        primary: ir
            .entities
            .iter()
            .filter(|e| ir.is_primary(e))
            .map(|e| (e.id.node.clone(), e.value.node.clone()))
            .collect(),
        secondary: {
            let mut groups: IndexMap<CompactString, Vec<CompactString>> = IndexMap::new();
            for entity in ir.entities.iter().filter(|e| !ir.is_primary(e)) {
                let action = owned(&entity.action).unwrap_or_default();
                groups
                    .entry(action)
                    .or_default()
                    .push(entity.value.node.clone());
            }
            groups
                .into_iter()
                .flat_map(|(action, values)| values.into_iter().map(move |v| (v, action.clone())))
                .collect()
        },
        constraints: ir
            .constraints
            .iter()
            .map(|c| {
                [
                    Some(c.kind.node.clone()),
                    Some(c.value.node.clone()),
                    owned(&c.time),
                    owned(&c.operator),
                    owned(&c.subject),
                ]
            })
            .collect(),
        alternatives: ir
            .alternatives
            .iter()
            .map(|a| {
                [
                    Some(a.action.node.clone()),
                    owned(&a.target),
                    owned(&a.location),
                ]
            })
            .collect(),
        intent: ir.intent.as_ref().map(|i| i.node.clone()),
    }
}

/// A value the code frontend cannot carry: where it is and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    pub span: Span,
    pub message: String,
}

/// The characters that end a code-frontend word: `( ) , ; : @ = < > !`.
pub const DELIMITERS: [char; 10] = ['(', ')', ',', ';', ':', '@', '=', '<', '>', '!'];

/// Whether each byte can stand in a code-frontend word as it is: printable ASCII
/// other than the delimiters.
const PLAIN_WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = (byte as u8).is_ascii_graphic();
        byte += 1;
    }
    let mut delimiter = 0;
    while delimiter < DELIMITERS.len() {
        table[DELIMITERS[delimiter] as usize] = false;
        delimiter += 1;
    }
    table
};

/// The comparison operators the code frontend reads back as written.
const OPERATORS: [&str; 9] = ["==", "!=", "<=", ">=", "<", ">", "=>", "<>", "="];

/// Why `value` cannot be one code-frontend word, if it cannot.
fn word_problem(value: &str) -> Option<String> {
    if value.is_empty() {
        return Some("it is empty, and the code frontend prints nothing for it".to_string());
    }
    // Most values are printable ASCII without a delimiter: one table lookup a byte.
    if value.bytes().all(|b| PLAIN_WORD_BYTES[usize::from(b)]) {
        return None;
    }
    if let Some(c) = value.chars().find(|c| c.is_whitespace()) {
        return Some(format!(
            "it holds white space ({}), which ends a code-frontend word",
            describe_char(c)
        ));
    }
    if let Some(c) = value.chars().find(|c| DELIMITERS.contains(c)) {
        return Some(format!("it holds `{c}`, a code-frontend delimiter"));
    }
    None
}

/// Why a constraint type cannot be a condition's name in canonical code: what makes
/// it no word, or an upper-case letter (the grammar's names are lower case, and
/// SL104 reports a condition name that is not).
fn name_problem(name: &str) -> Option<String> {
    word_problem(name)
        .or_else(|| comment_problem(name))
        .or_else(|| {
            name.chars().find(|c| c.is_uppercase()).map(|c| {
                format!("it holds the upper-case `{c}`, and a condition's name in the code frontend is lower case")
            })
        })
}

/// Why a word printed right after a space (a condition's name, a comparison's
/// time) cannot start with `#`: in a `.silp` file ` #` starts a comment.
fn comment_problem(word: &str) -> Option<String> {
    word.starts_with('#').then(|| {
        "it starts with `#`, which after a space starts a comment in a `.silp` file".to_string()
    })
}

fn describe_char(c: char) -> String {
    if c == ' ' {
        "a space".to_string()
    } else {
        format!("U+{:04X}", c as u32)
    }
}

/// Whether an action code has the ABNF's shape, `"!" 1*UPPER *("_" 1*UPPER)` (the
/// schema's `^![A-Z][A-Z_]*$`, loosely): codes without it are SL103's to report.
fn well_formed_action(code: &str) -> bool {
    code.strip_prefix('!').is_some_and(|verb| {
        verb.starts_with(|c: char| c.is_ascii_uppercase())
            && verb.chars().all(|c| c.is_ascii_uppercase() || c == '_')
    })
}

/// Why a well-formed action code does not survive `!CODE` -> `code` -> `!CODE`, if
/// it does not (a malformed one is left to SL103, whose fix also mends this).
fn action_problem(code: &str) -> Option<String> {
    if !well_formed_action(code) {
        return None;
    }
    // A well-formed code is ASCII, so its function name is a keyword exactly when
    // the two agree but for ASCII case: no lower-cased copy is needed to tell.
    let verb = verb_of(code);
    KEYWORDS
        .iter()
        .find(|keyword| keyword.eq_ignore_ascii_case(verb))
        .map(|name| format!("its function name `{name}` is a code-frontend keyword"))
}

/// Everything in `ir` that the code frontend cannot carry, so that
/// `decode(compile(ir))` would differ from `ir` on [`Semantics`]. Empty exactly when
/// the round trip holds, for IRs whose action codes are well formed (a malformed
/// one, such as `!cancel`, is SL103's); nothing when the IR has no intent.
pub fn code_losses(ir: &Ir) -> Vec<Loss> {
    let mut losses = Vec::new();
    let Some(intent) = &ir.intent else {
        return losses;
    };
    let mut lose = |text: &Text, what: &str, problem: String| {
        // A required field left out or mistyped is SL401's, not a loss.
        if text.span.is_empty() {
            return;
        }
        losses.push(Loss {
            span: text.span.clone(),
            message: format!(
                "{what} `{}` cannot be carried by the code frontend: {problem}",
                text.node
            ),
        });
    };
    if let Some(problem) = action_problem(intent) {
        lose(intent, "the intent", problem);
    }
    for entity in &ir.entities {
        match &entity.action {
            Some(action) if action.node != intent.node => {
                if let Some(problem) = action_problem(action) {
                    lose(action, "the action", problem);
                }
                if let Some(problem) = word_problem(&entity.value) {
                    lose(&entity.value, "the value", problem);
                }
            }
            _ => {
                if entity.id.as_str() != "act" {
                    if let Some(problem) = word_problem(&entity.id) {
                        lose(&entity.id, "the entity id", problem);
                    }
                }
                if let Some(problem) = word_problem(&entity.value) {
                    lose(&entity.value, "the value", problem);
                }
            }
        }
    }
    for c in &ir.constraints {
        constraint_losses(c, &mut lose);
    }
    for a in &ir.alternatives {
        if let Some(problem) = action_problem(&a.action) {
            lose(&a.action, "the alternative's action", problem);
        }
        // `name(target@location)`, `name(target)` or `name(loc=location)`.
        if let Some(target) = &a.target {
            if let Some(problem) = word_problem(target) {
                lose(target, "the target", problem);
            }
        }
        if let Some(location) = &a.location {
            if let Some(problem) = word_problem(location) {
                lose(location, "the location", problem);
            }
        }
    }
    losses
}

fn constraint_losses(c: &Constraint, lose: &mut impl FnMut(&Text, &str, String)) {
    let empty_time = |lose: &mut dyn FnMut(&Text, &str, String)| {
        if let Some(time) = &c.time {
            if let Some(problem) = word_problem(time) {
                lose(time, "the time", problem);
            }
        }
    };
    if let Some(op) = truthy(&c.operator) {
        // `type op value[, time]`; a subject has no place in a comparison.
        if c.kind.starts_with('!') {
            lose(
                &c.kind,
                "the constraint type",
                format!(
                    "a negated type cannot take an operator: `{}{op}{}` does not read back",
                    c.kind.node, c.value.node
                ),
            );
        } else if let Some(problem) = name_problem(&c.kind) {
            lose(&c.kind, "the constraint type", problem);
        } else if c.kind.as_str() == "-" && op.starts_with('>') {
            lose(
                &c.kind,
                "the constraint type",
                "`->` before the operator reads as a sequencing arrow".to_string(),
            );
        }
        if let Some(time) = truthy(&c.time).and(c.time.as_ref()) {
            // `type op value, time`: the time follows a space.
            if let Some(problem) = comment_problem(time) {
                lose(time, "the time", problem);
            }
        }
        if let Some(operator) = &c.operator {
            if !OPERATORS.contains(&op) {
                lose(
                    operator,
                    "the operator",
                    "the code frontend reads back only `==`, `!=`, `<=`, `>=`, `<`, `>` (and the invalid `=>`, `<>`, `=`)".to_string(),
                );
            }
        }
        if let Some(problem) = word_problem(&c.value) {
            lose(&c.value, "the value", problem);
        }
        empty_time(lose);
        if let Some(subject) = &c.subject {
            lose(
                subject,
                "the subject",
                "a comparison (a constraint with an `operator`) has no place for a subject"
                    .to_string(),
            );
        }
        return;
    }
    if let Some(operator) = &c.operator {
        lose(
            operator,
            "the operator",
            "it is empty, and the code frontend prints nothing for it".to_string(),
        );
    }
    if let Some(name) = c.kind.strip_prefix('!') {
        // `!type` or `!type(time)`: the value is implied (`true`), a subject has no place.
        if let Some(problem) = name_problem(name) {
            lose(&c.kind, "the constraint type", problem);
        }
        if c.value.as_str() != "true" {
            lose(
                &c.value,
                "the value",
                "a negated constraint (`!type`) always reads back with the value `true`"
                    .to_string(),
            );
        }
        empty_time(lose);
        if let Some(subject) = &c.subject {
            lose(
                subject,
                "the subject",
                "a negated constraint has no place for a subject".to_string(),
            );
        }
        return;
    }
    // `type([subject,]value[,time])`, read back by arity.
    if let Some(problem) = name_problem(&c.kind) {
        lose(&c.kind, "the constraint type", problem);
    }
    if let Some(problem) = word_problem(&c.value) {
        lose(&c.value, "the value", problem);
    }
    empty_time(lose);
    if let Some(subject) = &c.subject {
        if let Some(problem) = word_problem(subject) {
            lose(subject, "the subject", problem);
        }
    }
    let is_time = |v: &str| v.starts_with("t+") || v.starts_with("t-");
    match (truthy(&c.subject), truthy(&c.time)) {
        (Some(_), None) if is_time(&c.value) => lose(
            &c.value,
            "the value",
            "after a subject, a second argument starting with `t+`/`t-` reads back as a time"
                .to_string(),
        ),
        (None, Some(time)) if !is_time(time) => {
            if let Some(time_text) = &c.time {
                lose(
                    time_text,
                    "the time",
                    "without a subject, a second argument reads back as a time only when it starts with `t+` or `t-`".to_string(),
                );
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Spanned;

    /// Text as if written as a JSON string at the start of a file.
    fn t(s: &str) -> Text {
        Spanned::new(s.into(), 0..s.len() + 2)
    }

    proptest::proptest! {
        /// A value is no word exactly when it is empty or holds white space or a
        /// delimiter, whichever path (ASCII or not) checks it.
        #[test]
        fn word_problems_are_white_space_and_delimiters(
            value in "[a-z_%\\x01\\x7F \t\u{A0}\u{3000}\u{e9}北(),;:@=<>!#]{0,8}"
        ) {
            let expected = value.is_empty()
                || value.chars().any(|c| c.is_whitespace() || DELIMITERS.contains(&c));
            proptest::prop_assert_eq!(word_problem(&value).is_some(), expected);
        }
    }

    #[test]
    fn words_and_arguments() {
        assert!(word_problem("5_Tianfu_Ave").is_none());
        assert!(word_problem("90%").is_none());
        assert!(word_problem("北京").is_none());
        assert!(word_problem("a b").is_some());
        assert!(word_problem("").is_some());
        assert!(word_problem("a=b").is_some());
        assert!(word_problem("cards@indoor").is_some());
        assert!(action_problem("!CANCEL").is_none());
        assert_eq!(
            action_problem("!WITH").as_deref(),
            Some("its function name `with` is a code-frontend keyword")
        );
        assert!(action_problem("!WITHIN").is_none());
        assert!(action_problem("!IF_").is_none());
        assert!(action_problem("!cancel").is_none(), "SL103's to report");
    }

    #[test]
    fn empty_strings_print_as_absent() {
        let ir = Ir {
            intent: Some(t("!START")),
            entities: vec![Entity {
                id: t("act"),
                value: t("hike"),
                ..Entity::default()
            }],
            constraints: vec![Constraint {
                kind: t("rain"),
                value: t("x"),
                time: Some(t("")),
                subject: Some(t("")),
                operator: Some(t("")),
                ..Constraint::default()
            }],
            alternatives: vec![Alternative {
                action: t("!START"),
                target: Some(t("")),
                location: Some(t("home")),
                ..Alternative::default()
            }],
            ..Ir::default()
        };
        assert_eq!(
            code(&ir).unwrap(),
            "if rain(x): start(hike) else: start(loc=home)"
        );
        assert_eq!(
            natural(&ir).unwrap(),
            "If rain is x, start hike otherwise start the alternative at home."
        );
        assert_eq!(code_losses(&ir).len(), 4);
    }
}
