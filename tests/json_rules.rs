//! SL401 (schema-violation) and SL408 (null-optional-field) through the one entry
//! point, on `.silp.json` and `.silp.jsonl` text.

mod reference_suite;

use silp_lint::diagnostics::{Applicability, Diagnostic, Severity};
use silp_lint::lint::lint_text;
use silp_lint::settings::Settings;
use silp_lint::source::FileKind;

fn lint(text: &str, kind: FileKind) -> Vec<Diagnostic> {
    lint_text(text, kind, &Settings::default()).diagnostics
}

/// `(code, covered text, message)` of each diagnostic.
fn found(text: &str, kind: FileKind) -> Vec<(&'static str, String, String)> {
    lint(text, kind)
        .into_iter()
        .map(|d| (d.code(), text[d.span.clone()].to_string(), d.message))
        .collect()
}

fn with_code(text: &str, kind: FileKind, code: &str) -> Vec<(String, String)> {
    found(text, kind)
        .into_iter()
        .filter(|(c, _, _)| *c == code)
        .map(|(_, covered, message)| (covered, message))
        .collect()
}

fn apply(text: &str, diagnostic: &Diagnostic) -> String {
    let fix = diagnostic.fix.as_ref().expect("a fix");
    let mut edits = fix.edits.clone();
    edits.sort_by_key(|edit| std::cmp::Reverse(edit.span.start));
    let mut out = text.to_string();
    for edit in edits {
        out.replace_range(edit.span, &edit.content);
    }
    out
}

fn is_valid_json(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok()
}

const VALID: &str = r#"{"silp":"v1","intent":"!START","entities":[{"id":"act","value":"hike"}],"meta":{"req_id":"a1b2c3d4"}}"#;

#[test]
fn a_valid_document_is_clean() {
    assert!(found(VALID, FileKind::SilpJson)
        .iter()
        .all(|(code, _, _)| *code != "SL401" && *code != "SL408"));
}

#[test]
fn an_unknown_root_key_points_at_the_key() {
    let text = r#"{"intent":"!START","meta":{"req_id":"a1b2c3d4"},"priority":2}"#;
    let found = with_code(text, FileKind::SilpJson, "SL401");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "\"priority\"");
    assert!(found[0]
        .1
        .starts_with("unknown field `priority` in the IR document"));
}

#[test]
fn missing_intent_points_at_the_object() {
    let text = "{\n  \"silp\": \"v1\",\n  \"meta\": {\"req_id\": \"a1b2c3d4\"}\n}";
    let found = with_code(text, FileKind::SilpJson, "SL401");
    assert_eq!(
        found,
        [(
            text.to_string(),
            "the IR document lacks the required field `intent`".to_string()
        )]
    );
    let text = r#"{"intent":"!START","meta":{"req_id":"a1b2c3d4"},"entities":[{"id":"act"}]}"#;
    let found = with_code(text, FileKind::SilpJson, "SL401");
    assert_eq!(found[0].0, r#"{"id":"act"}"#);
    assert_eq!(found[0].1, "`/entities/0` lacks the required field `value`");
}

#[test]
fn out_of_range_confidence_points_at_the_value() {
    let text = r#"{"intent":"!START","meta":{"req_id":"a1b2c3d4","confidence":1.5}}"#;
    assert_eq!(
        with_code(text, FileKind::SilpJson, "SL401"),
        [(
            "1.5".to_string(),
            "`/meta/confidence`: expected a number of at most 1, found `1.5`".to_string()
        )]
    );
}

#[test]
fn a_malformed_silp_version_is_reported() {
    let text = r#"{"silp":"1","intent":"!START","meta":{"req_id":"a1b2c3d4"}}"#;
    let found = with_code(text, FileKind::SilpJson, "SL401");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "\"1\"");
    assert!(found[0].1.contains("`^v\\d+$`"), "{}", found[0].1);
}

#[test]
fn wrong_types_point_at_the_values() {
    let text = r#"{"intent":"!START","entities":{"id":"act"},"meta":{"req_id":"a1b2c3d4","priority":"high","seq":["a",3]}}"#;
    let found = with_code(text, FileKind::SilpJson, "SL401");
    let covered: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(covered, [r#"{"id":"act"}"#, "\"high\"", "3"]);
    assert_eq!(
        found[0].1,
        "`/entities`: expected an array, found an object"
    );
    assert_eq!(found[2].1, "`/meta/seq/1`: expected a string, found `3`");
}

#[test]
fn more_specific_rules_own_their_violations() {
    // req_id pattern (SL301), action-code patterns (SL103/SL202), null optional fields (SL408)
    let text = r#"{"intent":"!start","entities":[{"id":"act","value":"x","action":"email"}],"alternatives":[{"action":"Start"}],"meta":{"req_id":"XYZ","next_agent":null}}"#;
    assert_eq!(with_code(text, FileKind::SilpJson, "SL401"), []);
    // but a non-string req_id, or null in a required field, is the schema's
    let text = r#"{"intent":null,"meta":{"req_id":12}}"#;
    let covered: Vec<String> = with_code(text, FileKind::SilpJson, "SL401")
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    assert_eq!(covered, ["null", "12"]);
}

#[test]
fn duplicate_keys_are_reported_at_the_second_key() {
    let text = r#"{"intent":"!START","meta":{"req_id":"a1b2c3d4","out":"code","out":"json"},"intent":"!STOP"}"#;
    let found = with_code(text, FileKind::SilpJson, "SL401");
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(
        found[0].1,
        "duplicate key `out`: JSON parsers keep only the last one"
    );
    let second_out = text.rfind("\"out\"").unwrap();
    let spans: Vec<usize> = lint(text, FileKind::SilpJson)
        .iter()
        .filter(|d| d.code() == "SL401")
        .map(|d| d.span.start)
        .collect();
    assert_eq!(spans, [second_out, text.rfind("\"intent\"").unwrap()]);
}

#[test]
fn json_frontend_payloads_are_not_schema_checked() {
    let text = r#"{"intent":"!START","act":"hike","when":"t+1"}"#;
    assert_eq!(with_code(text, FileKind::SilpJson, "SL401"), []);
}

#[test]
fn a_top_level_number_is_a_syntax_error_only() {
    let found = found("42", FileKind::SilpJson);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "SL001");
    assert_eq!(found[0].1, "42");
}

#[test]
fn invalid_json_is_a_syntax_error_at_the_token() {
    let text = r#"{"intent":"!START" "meta":{}}"#;
    let found = found(text, FileKind::SilpJson);
    assert_eq!(
        found,
        [(
            "SL001",
            "\"meta\"".to_string(),
            "expected `,` or `}`, found `\"meta\"`".to_string()
        )]
    );
    let empty = self::found("", FileKind::SilpJson);
    assert_eq!(empty[0].2, "expected a JSON value, found end of file");
}

#[test]
fn deep_nesting_is_a_clear_error() {
    let text = "[".repeat(100_000) + &"]".repeat(100_000);
    let found = found(&text, FileKind::SilpJson);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "SL001");
    assert!(found[0].2.contains("128"), "{}", found[0].2);
    let text = format!(
        r#"{{"intent":"!START","meta":{{"req_id":"a1b2c3d4","x":{}1{}}}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert_eq!(self::found(&text, FileKind::SilpJsonl)[0].0, "SL001");
}

#[test]
fn jsonl_lines_are_linted_one_by_one_with_file_spans() {
    let text = format!(
        "{VALID}\n{}\n\n{}\n",
        r#"{"intent":"!START","meta":{"req_id":"a1b2c3d4","next_agent":null}}"#,
        r#"{"intent":"!START","meta":{"req_id":"a1b2c3d4","confidence":-1}}"#
    );
    let found = found(&text, FileKind::SilpJsonl);
    let codes: Vec<(&str, &str)> = found
        .iter()
        .map(|(code, covered, _)| (*code, covered.as_str()))
        .collect();
    assert_eq!(codes, [("SL408", "\"next_agent\":null"), ("SL401", "-1")]);
}

#[test]
fn an_array_of_documents_is_checked_item_by_item() {
    let text = format!(r#"[{VALID}, {{"intent":"!START","meta":{{}}}}]"#);
    let found = with_code(&text, FileKind::SilpJson, "SL401");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "{}");
    assert_eq!(found[0].1, "`/meta` lacks the required field `req_id`");
}

#[test]
fn null_optional_fields_are_info_with_a_safe_fix() {
    let text = r#"{
  "intent": "!START",
  "entities": [{"id": "act", "value": "hike", "action": null}],
  "constraints": [{"type": "rain", "value": "true", "time": null}],
  "alternatives": [{"action": "!START", "target": null, "location": null}],
  "meta": {"next_agent": null, "req_id": "a1b2c3d4", "session_id": null}
}"#;
    let diagnostics: Vec<Diagnostic> = lint(text, FileKind::SilpJson)
        .into_iter()
        .filter(|d| d.code() == "SL408")
        .collect();
    let covered: Vec<&str> = diagnostics.iter().map(|d| &text[d.span.clone()]).collect();
    assert_eq!(
        covered,
        [
            "\"action\": null",
            "\"time\": null",
            "\"target\": null",
            "\"location\": null",
            "\"next_agent\": null",
            "\"session_id\": null"
        ]
    );
    for diagnostic in &diagnostics {
        assert_eq!(diagnostic.severity, Severity::Info);
        let fix = diagnostic.fix.as_ref().unwrap();
        assert_eq!(fix.applicability, Applicability::Safe);
        let fixed = apply(text, diagnostic);
        assert!(is_valid_json(&fixed), "{fixed}");
        assert!(fixed.len() < text.len());
    }
    assert_eq!(
        diagnostics[4].message,
        "`next_agent` is `null`: the schema types this optional field as a string; omit it instead"
    );
    // no SL401 for those nulls
    assert_eq!(with_code(text, FileKind::SilpJson, "SL401"), []);
    // applying the fixes one after another, re-linting in between as `--fix` does,
    // gives a clean, valid document
    let mut fixed = text.to_string();
    while let Some(diagnostic) = lint(&fixed, FileKind::SilpJson)
        .into_iter()
        .find(|d| d.code() == "SL408")
    {
        fixed = apply(&fixed, &diagnostic);
        assert!(is_valid_json(&fixed), "{fixed}");
    }
    assert!(!fixed.contains("null"));
    assert!(lint(&fixed, FileKind::SilpJson)
        .iter()
        .all(|d| d.code() != "SL401"));
}

#[test]
fn a_null_only_member_and_a_last_member_are_removed_cleanly() {
    for text in [
        r#"{"intent":"!START","meta":{"req_id":"a1b2c3d4","next_agent":null}}"#,
        r#"{"intent":"!START","alternatives":[{"target":null,"action":"!START"}],"meta":{"req_id":"a1b2c3d4"}}"#,
        r#"{"intent":"!START","constraints":[{"time":null}],"act":"x"}"#,
    ] {
        let diagnostics: Vec<Diagnostic> = lint(text, FileKind::SilpJson)
            .into_iter()
            .filter(|d| d.code() == "SL408")
            .collect();
        assert_eq!(diagnostics.len(), 1, "{text}");
        let fixed = apply(text, &diagnostics[0]);
        assert!(is_valid_json(&fixed), "{fixed}");
        assert!(!fixed.contains("null"), "{fixed}");
    }
}

#[test]
fn the_reference_suite_has_no_schema_violations() {
    let Some(suite) = reference_suite::reference_suite() else {
        return;
    };
    let mut cases: Vec<_> = std::fs::read_dir(suite)
        .expect("the reference suite")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.to_string_lossy().ends_with(".silp.json"))
        .collect();
    cases.sort();
    assert_eq!(cases.len(), 27);
    for path in cases {
        let text = std::fs::read_to_string(&path).unwrap();
        let diagnostics = lint(&text, FileKind::SilpJson);
        let name = path.display();
        assert!(
            diagnostics
                .iter()
                .all(|d| d.code() != "SL401" && d.code() != "SL001"),
            "{name}: {:?}",
            diagnostics
                .iter()
                .map(|d| (d.code(), d.message.clone()))
                .collect::<Vec<_>>()
        );
        let nulls = text.matches("null").count();
        let infos: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.code() == "SL408").collect();
        assert_eq!(infos.len(), nulls, "{name}");
        for info in infos {
            assert!(text[info.span.clone()].ends_with("null"));
            assert!(is_valid_json(&apply(&text, info)), "{name}");
        }
    }
}

#[test]
fn a_ten_megabyte_single_line_document_is_fine() {
    let mut text = String::from(r#"{"intent":"!START","entities":["#);
    while text.len() < 10_000_000 {
        text.push_str(r#"{"id":"act","value":"hike_in_the_hills","action":null},"#);
    }
    text.push_str(r#"{"id":"act","value":"x"}],"meta":{"req_id":"a1b2c3d4","confidence":2}}"#);
    let started = std::time::Instant::now();
    let diagnostics = lint(&text, FileKind::SilpJsonl);
    let elapsed = started.elapsed();
    assert!(diagnostics.iter().all(|d| d.code() != "SL001"));
    let schema: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.code() == "SL401").collect();
    assert_eq!(schema.len(), 1);
    assert_eq!(&text[schema[0].span.clone()], "2");
    // Over 100,000 `null`s: the first thousand are reported, then one says how
    // many more there are (a file keeps at most that many diagnostics of a rule).
    let nulls: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.code() == "SL408").collect();
    assert_eq!(nulls.len(), silp_lint::rules::MAX_PER_RULE + 1);
    let more: usize = nulls[nulls.len() - 1]
        .message
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(more > 100_000 - silp_lint::rules::MAX_PER_RULE, "{more}");
    eprintln!("10 MB document linted in {elapsed:?}");
}

#[test]
fn duplicate_req_ids_are_reported_across_files_in_groups() {
    let settings = Settings::default();
    let a = "{\"intent\": \"!START\", \"meta\": {\"req_id\": \"aaaa0001\"}}\n\
             {\"intent\": \"!START\", \"meta\": {\"req_id\": \"bbbb0002\"}}\n";
    let b = "{\"intent\": \"!BOOK\", \"meta\": {\"req_id\": \"bbbb0002\"}}\n\
             {\"intent\": \"!BOOK\", \"meta\": {\"req_id\": \"cccc0003\"}}\n\
             {\"intent\": \"!BOOK\", \"meta\": {\"req_id\": \"aaaa0001\"}}\n";
    let c = "[{\"intent\": \"!FETCH\", \"meta\": {\"req_id\": \"aaaa0001\"}}]";
    let found = silp_lint::lint::lint_files(&[
        ("a.silp.jsonl", a, FileKind::SilpJsonl, &settings),
        ("b.silp.jsonl", b, FileKind::SilpJsonl, &settings),
        ("c.silp.json", c, FileKind::SilpJson, &settings),
    ]);
    let messages: Vec<Vec<String>> = found
        .iter()
        .map(|file| {
            file.iter()
                .filter(|d| d.code() == "SL303")
                .map(|d| d.message.clone())
                .collect()
        })
        .collect();
    assert_eq!(
        messages,
        vec![
            vec![
                "`req_id` `aaaa0001` is also written at b.silp.jsonl:3:40, c.silp.json:1:42",
                "`req_id` `bbbb0002` is also written at b.silp.jsonl:1:40",
            ],
            vec![
                "`req_id` `bbbb0002` is also written at a.silp.jsonl:2:41",
                "`req_id` `aaaa0001` is also written at a.silp.jsonl:1:41, c.silp.json:1:42",
            ],
            vec!["`req_id` `aaaa0001` is also written at a.silp.jsonl:1:41, b.silp.jsonl:3:40"],
        ]
    );
    // the id written once (`cccc0003`) is not reported
    assert!(found[1].iter().all(|d| !d.message.contains("cccc0003")));
}

#[test]
fn a_missing_or_mistyped_required_field_is_reported_once_by_the_schema_rule() {
    let text = r#"{"intent": "!START", "alternatives": [{"target": "x"}], "entities": [{"id": "act", "value": 42}, {"value": "y"}, {"value": "z"}], "constraints": [{"type": null}], "meta": {"req_id": "a1b2c3d4"}}"#;
    let codes: Vec<&str> = lint(text, FileKind::SilpJsonl)
        .iter()
        .map(|d| d.code())
        .collect();
    assert_eq!(
        codes,
        ["SL401"; 6],
        "{:#?}",
        lint(text, FileKind::SilpJsonl)
    );
}

/// `(code, covered text)` of each diagnostic.
fn codes_and_covered(text: &str, kind: FileKind) -> Vec<(&'static str, String)> {
    found(text, kind)
        .into_iter()
        .map(|(code, covered, _)| (code, covered))
        .collect()
}

#[test]
fn escaped_invisible_characters_in_nlip_text_are_reported_once() {
    // The receiver reads U+202E and U+200B wherever the envelope holds them.
    let text = r#"{"format":"text","subformat":"english","content":"pay \u202eevil","label":"a\u200bb","submessages":[{"format":"text","subformat":"silp","content":"start(x\u200by)"}]}"#;
    assert_eq!(
        codes_and_covered(text, FileKind::Nlip),
        [
            ("SL203", r#""pay \u202eevil""#.to_string()),
            ("SL201", r#""a\u200bb""#.to_string()),
            ("SL201", r#""start(x\u200by)""#.to_string()),
        ]
    );
}

#[test]
fn an_ir_object_carried_with_subformat_silp_is_linted_as_one() {
    let text = "{\"format\":\"structured\",\"subformat\":\"silp\",\n \"content\":{\"intent\":\"!BEGIN\",\"meta\":{\"req_id\":\"ZZ\"}}}";
    assert_eq!(
        codes_and_covered(text, FileKind::Nlip),
        [
            ("SL101", "\"!BEGIN\"".to_string()),
            ("SL301", "\"ZZ\"".to_string()),
        ]
    );
}

#[test]
fn a_mis_cased_nlip_key_is_renamed_only_when_that_makes_no_duplicate() {
    let sl702 = |text: &str| {
        lint(text, FileKind::Nlip)
            .into_iter()
            .find(|d| d.code() == "SL702")
            .expect("SL702")
    };
    let text = r#"{"Format":"text","subformat":"english","content":"hi"}"#;
    assert_eq!(apply(text, &sl702(text)), text.replace("Format", "format"));
    // Renaming `Format` here would add a second `format`, and the last one wins.
    let text = r#"{"format":"text","Format":"binary","subformat":"english","content":"hi"}"#;
    assert!(sl702(text).fix.is_none());
}

#[test]
fn a_known_format_in_upper_case_is_a_warning_with_a_lower_case_fix() {
    let text = r#"{"format":"TEXT","subformat":"english","content":"hi","submessages":[{"format":"Str\u0055ctured","subformat":"json","content":{}}]}"#;
    let diagnostics = lint(text, FileKind::Nlip);
    let codes: Vec<&str> = diagnostics.iter().map(Diagnostic::code).collect();
    assert_eq!(codes, ["SL703", "SL703"], "{diagnostics:?}");
    assert!(diagnostics.iter().all(|d| d.severity == Severity::Warning));
    let fixed = apply(text, &diagnostics[0]);
    assert_eq!(fixed, text.replace("\"TEXT\"", "\"text\""));
    // Written with an escape, the whole string is rewritten.
    let fixed = apply(text, &diagnostics[1]);
    assert!(fixed.contains(r#"{"format":"structured","#), "{fixed}");
    assert!(diagnostics
        .iter()
        .all(|d| d.fix.as_ref().unwrap().applicability == Applicability::Safe));
    // A value that names no format in any case stays SL701's.
    let text = r#"{"format":"TXT","subformat":"english","content":"hi"}"#;
    let codes: Vec<&str> = lint(text, FileKind::Nlip)
        .iter()
        .map(Diagnostic::code)
        .collect();
    assert_eq!(codes, ["SL701"]);
}

#[test]
fn the_excluded_verb_fix_edits_inside_the_json_string() {
    let text = r#"{"intent":"!SWITCH_TOOL","entities":[{"id":"act","value":"x","action":"!SWITCH_TOOL"}],"meta":{"req_id":"abcd1234"}}"#;
    let diagnostics = lint(text, FileKind::SilpJson);
    let sl102: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.code() == "SL102").collect();
    assert_eq!(sl102.len(), 2);
    for diagnostic in sl102 {
        let fixed = apply(text, diagnostic);
        assert!(is_valid_json(&fixed), "{fixed}");
        assert_eq!(fixed.matches("\"!SWITCH\"").count(), 1, "{fixed}");
    }
    // Written with an escape, the string's bytes are not the verb's: no fix.
    let text = r#"{"intent":"!SWITCH\u005fTOOL","meta":{"req_id":"abcd1234"}}"#;
    let diagnostics = lint(text, FileKind::SilpJson);
    assert!(diagnostics
        .iter()
        .any(|d| d.code() == "SL102" && d.fix.is_none()));
}
