//! Decoding code-frontend syntax trees to the IR (languages.md §2, "Decode").

use crate::ir::{Alternative, Constraint, Entity, Ir, Origin, Spanned, Text, VerbForm, VerbUse};
use crate::syntax::code::{self, Arg, Call, Payload, Word};
use compact_str::{format_compact, CompactString};

fn text(word: &Word) -> Text {
    Spanned::new(word.text.into(), word.span())
}

/// The action code a function name stands for (`cancel` -> `!CANCEL`).
pub fn action_code(name: &Word) -> Text {
    Spanned::new(super::upper_case_after(name.text, "!"), name.span())
}

/// Whether a predicate's second of two arguments is a time (`t+1`, `t-2`).
fn is_time(value: &str) -> bool {
    value.starts_with("t+") || value.starts_with("t-")
}

/// An argument's value as the IR holds it: `target@location` outside an else-branch
/// has no slot for the location, so it stays part of the value.
fn arg_value(arg: &Arg) -> Text {
    match &arg.location {
        None => text(&arg.value),
        Some(location) => Spanned::new(
            format_compact!("{}@{}", arg.value.text, location.text),
            arg.value.span.0..location.span.1,
        ),
    }
}

/// Decodes a payload's syntax tree to the IR. A trailing `with NAME` has no IR
/// counterpart and is dropped (SL505 reports it).
pub fn decode(payload: &Payload) -> Ir {
    let mut ir = decode_all_but_entities(payload);
    for (index, call) in payload.actions.iter().enumerate() {
        let action = (index > 0).then(|| action_code(&call.name));
        let entities = call.args.iter().flatten().map(|arg| entity(arg, &action));
        ir.entities.extend(entities);
    }
    ir
}

/// [`decode`], consuming the tree: each call's arguments are freed once their
/// entities are written, and a large payload's freed pages are given back every
/// [`CALLS_BETWEEN_RETURNS`] calls, so that a line of a million calls holds its
/// entities or its arguments, not both (their memory is about the same).
pub fn decode_consuming(payload: Payload) -> Ir {
    let mut ir = decode_all_but_entities(&payload);
    write_entities_consuming(&mut ir, payload);
    ir
}

/// The second step of [`decode_consuming`], after [`decode_all_but_entities`]:
/// writes the entities of `payload` into `ir`, freeing each call's arguments as
/// it goes.
pub fn write_entities_consuming(ir: &mut Ir, mut payload: Payload) {
    let large = payload.span.len() >= crate::memory::LARGE_BUFFER_BYTES;
    let mut actions = std::mem::take(&mut payload.actions);
    // The separators and the rest, before any entity is written.
    drop(payload);
    for (index, call) in actions.iter_mut().enumerate() {
        let action = (index > 0).then(|| action_code(&call.name));
        // A long call's arguments shrink as its entities grow.
        let args = crate::memory::into_iter_releasing(call.args.take().unwrap_or_default());
        ir.entities.extend(args.map(|arg| entity(&arg, &action)));
        if large && index % CALLS_BETWEEN_RETURNS == CALLS_BETWEEN_RETURNS - 1 {
            crate::memory::return_freed_pages();
        }
    }
}

/// How many calls of a large payload [`decode_consuming`] frees between giving
/// pages back: about 7 MiB of arguments, and 16 returns on a line of a million
/// calls.
const CALLS_BETWEEN_RETURNS: usize = 1 << 16;

/// The IR of `payload` with its intent and room for its entities, none written yet.
pub fn decode_all_but_entities(payload: &Payload) -> Ir {
    let mut ir = Ir {
        origin: Origin::Code,
        span: payload.span.clone(),
        intent: payload
            .actions
            .first()
            .map(|primary| action_code(&primary.name)),
        ..Ir::default()
    };
    let calls = payload.actions.iter().chain(
        payload
            .else_branch
            .iter()
            .flat_map(|b| b.alternatives.iter()),
    );
    ir.verbs = calls
        .map(|call| {
            VerbUse::new(
                call.name.text.into(),
                call.name.span(),
                VerbForm::FunctionName,
            )
        })
        .collect();
    if let Some(condition) = &payload.condition {
        ir.constraints = condition
            .constraints
            .iter()
            .map(decode_constraint)
            .collect();
    }
    if let Some(branch) = &payload.else_branch {
        ir.alternatives = branch.alternatives.iter().map(decode_alternative).collect();
    }
    // One entity per argument: reserved at once, as a line of many calls has as
    // many entities, and a growing vector would hold up to twice the room.
    let arguments = payload
        .actions
        .iter()
        .flat_map(|call| call.args.iter().flatten());
    ir.entities.reserve_exact(arguments.count());
    ir
}

/// The entity of an argument of a call whose `action` is `None` for the primary
/// action (the first call) and the call's action code for the others.
fn entity(arg: &Arg, action: &Option<Text>) -> Entity {
    Entity {
        id: match &arg.key {
            Some(key) => text(key),
            None => Spanned::new("act".into(), arg.value.span()),
        },
        value: arg_value(arg),
        action: action.clone(),
        span: arg.span.clone(),
        extra: Vec::new(),
    }
}

fn decode_constraint(constraint: &code::Constraint) -> Constraint {
    match constraint {
        code::Constraint::Negation {
            bang,
            name,
            time,
            span,
        } => Constraint {
            kind: Spanned::new(format_compact!("!{}", name.text), bang.start..name.span.1),
            value: Spanned::new("true".into(), span.clone()),
            time: time.as_ref().map(text),
            span: span.clone(),
            ..Constraint::default()
        },
        code::Constraint::Comparison {
            name,
            op,
            value,
            time,
            span,
        } => Constraint {
            kind: text(name),
            value: text(value),
            time: time.as_ref().map(text),
            operator: Some(text(op)),
            span: span.clone(),
            ..Constraint::default()
        },
        code::Constraint::Predicate { name, args, span } => {
            let (subject, value, time) = match args.as_slice() {
                [value] => (None, text(value), None),
                [first, second] if is_time(second.text) => (None, text(first), Some(text(second))),
                [subject, value] => (Some(text(subject)), text(value), None),
                [subject, value, time, ..] => (Some(text(subject)), text(value), Some(text(time))),
                [] => (
                    None,
                    Spanned::new(CompactString::default(), span.clone()),
                    None,
                ),
            };
            Constraint {
                kind: text(name),
                value,
                time,
                subject,
                span: span.clone(),
                ..Constraint::default()
            }
        }
    }
}

fn decode_alternative(call: &Call) -> Alternative {
    let mut alternative = Alternative {
        action: action_code(&call.name),
        span: call.span.clone(),
        ..Alternative::default()
    };
    if let Some(arg) = call.args.iter().flatten().next() {
        match &arg.key {
            Some(key) if key.text == "loc" => alternative.location = Some(text(&arg.value)),
            _ => {
                alternative.target = Some(text(&arg.value));
                alternative.location = arg.location.as_ref().map(text);
            }
        }
    }
    alternative
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::code::parse_payload;

    #[test]
    fn decodes_constraints_entities_and_alternatives() {
        let text = "if !rain(t+1) and loc(me,Beijing,t+1am) and x!=3: cancel(flight,when=t+1pm); email(zhangsan) else: start(cards@indoor); route(loc=home)";
        let parse = parse_payload(text, 0);
        assert!(parse.errors.is_empty(), "{:?}", parse.errors);
        let ir = decode(&parse.payload.unwrap());
        assert_eq!(
            ir.intent.as_deref().map(CompactString::as_str),
            Some("!CANCEL")
        );
        let c = &ir.constraints;
        assert_eq!(
            (
                c[0].kind.as_str(),
                c[0].value.as_str(),
                c[0].time.as_deref().map(CompactString::as_str)
            ),
            ("!rain", "true", Some("t+1"))
        );
        assert_eq!(
            c[1].subject.as_deref().map(CompactString::as_str),
            Some("me")
        );
        assert_eq!(
            c[2].operator.as_deref().map(CompactString::as_str),
            Some("!=")
        );
        let e: Vec<(&str, &str, Option<&str>)> = ir
            .entities
            .iter()
            .map(|e| {
                (
                    e.id.as_str(),
                    e.value.as_str(),
                    e.action.as_deref().map(CompactString::as_str),
                )
            })
            .collect();
        assert_eq!(
            e,
            [
                ("act", "flight", None),
                ("when", "t+1pm", None),
                ("act", "zhangsan", Some("!EMAIL"))
            ]
        );
        assert_eq!(
            ir.alternatives[0]
                .location
                .as_deref()
                .map(CompactString::as_str),
            Some("indoor")
        );
        assert_eq!(
            ir.alternatives[1]
                .location
                .as_deref()
                .map(CompactString::as_str),
            Some("home")
        );
        assert_eq!(ir.verbs.len(), 4);
        assert_eq!(&text[ir.verbs[1].span.clone()], "email");
    }

    /// The lint's consuming decoding reads every payload as the borrowing one does,
    /// a large payload's (which gives pages back as it goes) included.
    #[test]
    fn consuming_and_borrowing_decodings_agree() {
        let large = "start(é); Start(y, k=v)".repeat(70_000);
        assert!(large.len() >= crate::memory::LARGE_BUFFER_BYTES);
        for text in [
            "if !rain(t+1) and x!=3: cancel(flight,when=t+1pm); email(a@b) else: start(cards@indoor)",
            "ping()",
            "book(a,b) -> send(x) with fast",
            large.as_str(),
        ] {
            let tree = *parse_payload(text, 3).payload.unwrap();
            let borrowed = decode(&tree);
            assert!(!borrowed.entities.is_empty() || text == "ping()");
            let start: String = text.chars().take(40).collect();
            assert_eq!(decode_consuming(tree), borrowed, "{start}");
        }
    }

    #[test]
    fn two_argument_predicates_split_on_time() {
        let ir = decode(
            &parse_payload("if due(report,t+2): start(x)", 0)
                .payload
                .unwrap(),
        );
        assert_eq!(
            ir.constraints[0].time.as_deref().map(CompactString::as_str),
            Some("t+2")
        );
        let ir = decode(
            &parse_payload("if auth(user,verified): start(x)", 0)
                .payload
                .unwrap(),
        );
        assert_eq!(
            ir.constraints[0]
                .subject
                .as_deref()
                .map(CompactString::as_str),
            Some("user")
        );
    }
}
