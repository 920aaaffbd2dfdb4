//! JSON-frontend payloads are checked for structure (SL410), objects of another
//! payload's shape are named (SL411), and `convert` refuses exactly what `check`
//! reports about a payload's structure, with the same message at the same place.

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use silp_lint::convert;
use silp_lint::diagnostics::Diagnostic;
use silp_lint::lint::lint_text;
use silp_lint::rules::registry;
use silp_lint::settings::Settings;
use silp_lint::source::FileKind;
use silp_lint::syntax::json::parse_json;

fn lint(text: &str, kind: FileKind) -> Vec<Diagnostic> {
    lint_text(text, kind, &Settings::default()).diagnostics
}

/// `(code, covered text, message)` of each diagnostic that fails `check`.
fn failing(text: &str) -> Vec<(&'static str, String, String)> {
    lint(text, FileKind::SilpJson)
        .into_iter()
        .filter(|d| d.severity.fails_check())
        .map(|d| (d.code(), text[d.span.clone()].to_string(), d.message))
        .collect()
}

/// What `convert` says of a one-payload file: `(covered text, message)`.
fn convert_error(text: &str) -> Option<(String, String)> {
    convert::convert(text, FileKind::SilpJson, convert::Target::Code, 8)
        .err()
        .map(|error| (text[error.span].to_string(), error.message))
}

#[test]
fn the_payloads_convert_refused_fail_check_at_the_same_place() {
    let cases = [
        (r#"{"act":"flight"}"#, r#"{"act":"flight"}"#),
        (r#"{"intent":5,"act":"flight"}"#, "5"),
        (
            r#"{"intent":"!BOOK","act":"x","constraints":"loc"}"#,
            r#""loc""#,
        ),
        (
            r#"{"intent":"!BOOK","act":"x","constraints":[{"type":"loc"}]}"#,
            r#"{"type":"loc"}"#,
        ),
        (
            r#"{"intent":"!BOOK","act":"x","alternatives":[{"target":"y"}]}"#,
            r#"{"target":"y"}"#,
        ),
    ];
    for (text, at) in cases {
        let found = failing(text);
        assert_eq!(found.len(), 1, "{text}: {found:?}");
        let (code, covered, message) = &found[0];
        assert_eq!(*code, "SL410", "{text}");
        assert_eq!(covered, at, "{text}");
        assert_eq!(
            convert_error(text),
            Some((covered.clone(), message.clone())),
            "{text}"
        );
    }
    let missing = failing(r#"{"act":"flight"}"#);
    assert_eq!(
        missing[0].2,
        "the payload has no `intent`, which a JSON-frontend payload requires"
    );
}

#[test]
fn valid_payloads_pass_both() {
    // The draft's example (§4.2) as it prints it, and one with every kind of slot.
    for text in [
        "{\n  \"intent\": \"!CANCEL\",\n  \"act\": \"flight\",\n  \"action_email\": [\"zhangsan\"],\n  \"constraints\": [\n    {\"type\": \"loc\", \"value\": \"Beijing\", \"time\": \"t+1am\", \"subject\": \"me\"}\n  ]\n}\n",
        r#"{"intent":"!START","act":"hike","days":2,"action_notify":"ops","constraints":[{"type":"!rain","value":"true","time":"t+1"}],"alternatives":[{"action":"!START","target":"cards","location":"indoor"}]}"#,
    ] {
        assert_eq!(failing(text), [], "{text}");
        assert_eq!(convert_error(text), None, "{text}");
    }
}

#[test]
fn a_single_action_value_decodes_as_the_reference_reads_it() {
    let out = convert::convert(
        r#"{"intent":"!CANCEL","act":"flight","action_email":"zhangsan"}"#,
        FileKind::SilpJson,
        convert::Target::Code,
        8,
    )
    .unwrap();
    assert_eq!(out, "cancel(flight); email(zhangsan)\n");
}

#[test]
fn other_payload_shapes_are_named_not_silenced() {
    let text =
        r#"{"task_description":"If not rain at t+1, start hike otherwise start cards at indoor."}"#;
    let found = failing(text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "SL411");
    assert_eq!(found[0].1, text);
    assert!(
        found[0]
            .2
            .starts_with("this looks like an nl_json frontend payload"),
        "{}",
        found[0].2
    );
    assert_eq!(
        convert_error(text),
        Some((text.to_string(), found[0].2.clone()))
    );
    let text = r#"{"format":"text","subformat":"english","content":"hello"}"#;
    let found = failing(text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "SL411");
    assert!(found[0].2.contains("NLIP message"), "{}", found[0].2);
}

#[test]
fn keys_written_twice_are_reported_once_each() {
    let text = r#"{"intent":"!BOOK","intent":"!BOOK","act":"a","act":"b","action_email":["x"],"action_email":["y"]}"#;
    let found: Vec<(&str, String)> = failing(text)
        .into_iter()
        .map(|(code, covered, _)| (code, covered))
        .collect();
    let second = |key: &str| text.rfind(key).unwrap();
    assert_eq!(
        found,
        [
            ("SL410", "\"intent\"".to_string()),
            ("SL405", "\"act\"".to_string()),
            ("SL410", "\"action_email\"".to_string()),
        ]
    );
    let spans: Vec<usize> = lint(text, FileKind::SilpJson)
        .iter()
        .map(|d| d.span.start)
        .collect();
    assert!(spans.contains(&second("\"intent\"")));
    assert!(spans.contains(&second("\"action_email\"")));
}

#[test]
fn nlip_carried_objects_are_checked_too() {
    let text = r#"{"format":"structured","subformat":"silp","content":{"intent":"!BOOK","constraints":"loc"}}"#;
    let found: Vec<(&str, String)> = lint(text, FileKind::Nlip)
        .into_iter()
        .map(|d| (d.code(), text[d.span.clone()].to_string()))
        .collect();
    assert_eq!(found, [("SL410", "\"loc\"".to_string())]);
}

/// Objects shaped like payloads of either kind or like an nl_json payload, mostly
/// right and sometimes wrong.
fn payload_like() -> impl Strategy<Value = Value> {
    let text = || {
        prop_oneof![
            24 => prop::sample::select(vec!["hike", "t+1", "北京", "loc"]).prop_map(|s| json!(s)),
            1 => Just(json!(3)),
            1 => Just(json!(true)),
            1 => Just(Value::Null),
            1 => Just(json!(["x"])),
            1 => Just(json!({})),
        ]
        .boxed()
    };
    let verb = || {
        prop_oneof![
            24 => Just(json!("!BOOK")),
            1 => Just(json!("book")),
            1 => Just(json!(5)),
            1 => Just(Value::Null),
        ]
        .boxed()
    };
    let object = |fields: Vec<(&'static str, f64, BoxedStrategy<Value>)>| {
        let members: Vec<_> = fields
            .into_iter()
            .map(|(key, present, value)| {
                prop::option::weighted(present, value.prop_map(move |v| (key, v)))
            })
            .collect();
        members
            .prop_map(|members| {
                Value::Object(
                    members
                        .into_iter()
                        .flatten()
                        .map(|(k, v)| (k.to_string(), v))
                        .collect::<Map<_, _>>(),
                )
            })
            .boxed()
    };
    let list = |item: BoxedStrategy<Value>| {
        prop_oneof![
            24 => prop::collection::vec(item, 0..3).prop_map(Value::Array),
            1 => Just(json!("loc")),
            1 => Just(Value::Null),
        ]
        .boxed()
    };
    let constraint = object(vec![
        ("type", 0.97, text()),
        ("value", 0.97, text()),
        ("time", 0.5, text()),
    ]);
    let alternative = object(vec![("action", 0.97, verb()), ("target", 0.5, text())]);
    let entity = object(vec![("id", 0.97, text()), ("value", 0.97, text())]);
    let frontend = object(vec![
        ("intent", 0.95, verb()),
        ("act", 0.8, text()),
        (
            "action_email",
            0.3,
            prop_oneof![text(), list(text())].boxed(),
        ),
        ("constraints", 0.5, list(constraint.clone())),
        ("alternatives", 0.5, list(alternative.clone())),
    ]);
    let document = object(vec![
        ("intent", 0.95, verb()),
        ("entities", 0.8, list(entity)),
        ("constraints", 0.5, list(constraint)),
        ("alternatives", 0.5, list(alternative)),
        (
            "meta",
            0.95,
            prop_oneof![
                12 => Just(json!({"req_id": "abcd1234"})),
                1 => Just(json!({"confidence": 2})),
            ]
            .boxed(),
        ),
        ("act", 0.05, text()),
    ]);
    let other = object(vec![
        ("task_description", 0.99, text()),
        ("act", 0.3, text()),
    ]);
    prop_oneof![4 => frontend, 4 => document, 1 => other]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// `convert` refuses a payload exactly when SL401, SL410 or SL411 reports it, and
    /// then with the message of the first of them, at its place.
    #[test]
    fn convert_refuses_exactly_what_the_structure_rules_report(payload in payload_like()) {
        let text = payload.to_string();
        let settings = Settings::only(
            registry::matching("SL401")
                .union(registry::matching("SL410"))
                .union(registry::matching("SL411")),
        );
        let reported = lint_text(&text, FileKind::SilpJson, &settings).diagnostics;
        let root = parse_json(&text, 0).value.expect("serde_json output parses");
        match convert::decode_json(&text, &root, 8) {
            Ok(_) => prop_assert!(reported.is_empty(), "{}: {:?}", text, reported),
            Err(error) => {
                let first = reported.iter().map(|d| d.span.start).min();
                prop_assert_eq!(first, Some(error.span.start), "{}", text);
                prop_assert!(
                    reported
                        .iter()
                        .any(|d| d.span == error.span && d.message == error.message),
                    "{}: {:?} not in {:?}",
                    text,
                    error,
                    reported
                );
            }
        }
    }
}

/// The generator reaches every outcome of the property: payloads of both kinds that
/// convert, and refusals by each of the three rules.
#[test]
fn the_generator_covers_every_outcome() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut seen = std::collections::BTreeMap::new();
    for _ in 0..600 {
        let payload = payload_like().new_tree(&mut runner).unwrap().current();
        let text = payload.to_string();
        let root = parse_json(&text, 0).value.unwrap();
        let outcome = match convert::decode_json(&text, &root, 8) {
            Ok(ir) => format!("converts {:?}", ir.origin),
            Err(_) => lint(&text, FileKind::SilpJson)
                .iter()
                .map(Diagnostic::code)
                .find(|code| ["SL401", "SL410", "SL411"].contains(code))
                .unwrap_or("none")
                .to_string(),
        };
        *seen.entry(outcome).or_insert(0) += 1;
    }
    for outcome in [
        "converts JsonFrontend",
        "converts IrDocument",
        "SL401",
        "SL410",
        "SL411",
    ] {
        assert!(seen.get(outcome).is_some_and(|n| *n >= 10), "{seen:?}");
    }
}
