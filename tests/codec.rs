//! The codec against the public reference implementation's 27-case suite (read in
//! place where `SILP_CONFORMANCE_DIR` points, see reference_suite/): all 108 compiled
//! strings byte for byte, decode and recompile of every code and json string, the
//! decoded IR against the case's IR, and the regenerated `req_id`s.

mod reference_suite;

use serde_json::Value;
use silp_lint::convert::{self, Target};
use silp_lint::diagnostics::Severity;
use silp_lint::ir::compile::{self, semantics, Frontend};
use silp_lint::ir::Ir;
use silp_lint::lint::lint_text;
use silp_lint::settings::Settings;
use silp_lint::source::FileKind;
use silp_lint::syntax::json::parse_json;

/// Each case: name, the SHA-256 prefix of its code string (trimmed, up to ` else:`)
/// and of its json string, computed independently with Python's hashlib.
const IDS: [(&str, &str, &str); 27] = [
    ("case10_multi_turn", "a2458261", "f3ed6e6a"),
    ("case10b_multi_turn", "8fffb13e", "449c31e7"),
    ("case10c_multi_turn", "daa8f5a0", "87c072de"),
    ("case1_multi_constraint", "138325c8", "449b8846"),
    ("case1b_multi_constraint", "17f41b1d", "9f6ed1eb"),
    ("case1c_multi_constraint", "6008ef45", "e23e8292"),
    ("case2_negation", "e00886a0", "704d7e17"),
    ("case2b_negation", "aebb80ba", "8f000b3a"),
    ("case2c_negation", "07e8507f", "81897064"),
    ("case3_detail", "b8e9987c", "92b44dd9"),
    ("case3b_detail", "9a8b694f", "81956965"),
    ("case3c_detail", "3b9f01bc", "84b4746b"),
    ("case5_tool_branch", "96b46903", "97e3419c"),
    ("case5b_tool_branch", "bfffb790", "7ea9a878"),
    ("case5c_tool_branch", "2e17ba97", "69a7a444"),
    ("case6_nested_constraint", "84e03e02", "8e3db00e"),
    ("case6b_nested_constraint", "f81cc5e9", "21cc3f2f"),
    ("case6c_nested_constraint", "fbb6e5a1", "74d68a56"),
    ("case7_parallel_action", "eac1fe46", "595a1568"),
    ("case7b_parallel_action", "a2941150", "abc2ec08"),
    ("case7c_parallel_action", "bce49a8f", "783da956"),
    ("case8_conditional_branch", "4958b1bd", "df937ba8"),
    ("case8b_conditional_branch", "4404df48", "ebbc683f"),
    ("case8c_conditional_branch", "159a4108", "7d83e11b"),
    ("case9_tool_call", "13aa414d", "244c72eb"),
    ("case9b_tool_call", "3c084937", "37304874"),
    ("case9c_tool_call", "4afdf4b2", "802eb3a0"),
];

struct Case {
    name: String,
    ir_text: String,
    expected: Value,
}

/// The suite's cases; `None` when the suite is absent and the test is skipped.
fn cases() -> Option<Vec<Case>> {
    let suite = reference_suite::reference_suite()?;
    let expected =
        std::fs::read_to_string(suite.join("expected.jsonl")).expect("the conformance suite");
    let cases: Vec<Case> = expected
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let expected: Value = serde_json::from_str(line).expect("expected.jsonl line");
            let name = expected["case"].as_str().expect("case name").to_string();
            let ir_text = std::fs::read_to_string(suite.join(format!("{name}.silp.json")))
                .expect("case file");
            Case {
                name,
                ir_text,
                expected,
            }
        })
        .collect();
    assert_eq!(cases.len(), 27);
    Some(cases)
}

fn expected<'a>(case: &'a Case, frontend: &str) -> &'a str {
    case.expected[frontend].as_str().expect("expected string")
}

fn case_ir(case: &Case) -> Ir {
    let irs = convert::decode_file(&case.ir_text, FileKind::SilpJson, 4).expect("case decodes");
    assert_eq!(irs.len(), 1);
    irs.into_iter().next().unwrap()
}

fn decode_json_string(text: &str) -> Ir {
    let parse = parse_json(text, 0);
    assert!(parse.errors.is_empty(), "{:?}", parse.errors);
    convert::decode_json(text, &parse.value.unwrap(), 4).expect("json string decodes")
}

#[test]
fn all_108_expected_strings_are_reproduced_byte_for_byte() {
    let mut checked = 0;
    let Some(cases) = cases() else { return };
    for case in cases {
        for (target, name) in [
            (Target::Code, "code"),
            (Target::Json, "json"),
            (Target::Natural, "natural"),
            (Target::NlJson, "nl_json"),
        ] {
            let out = convert::convert(&case.ir_text, FileKind::SilpJson, target, 8)
                .unwrap_or_else(|e| panic!("{} --to {name}: {e:?}", case.name));
            assert_eq!(
                out,
                format!("{}\n", expected(&case, name)),
                "{} --to {name}",
                case.name
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 108);
}

#[test]
fn expected_code_strings_decode_and_recompile_to_themselves() {
    let Some(cases) = cases() else { return };
    for case in cases {
        let code = expected(&case, "code");
        let decoded = convert::decode_code(code, 0, 4).expect("expected code decodes");
        assert_eq!(compile::code(&decoded).unwrap(), code, "{}", case.name);
        // The code string's IR also compiles to the expected json string.
        assert_eq!(
            compile::json(&decoded).unwrap(),
            expected(&case, "json"),
            "{}",
            case.name
        );
        assert_eq!(
            semantics(&decoded),
            semantics(&case_ir(&case)),
            "{}",
            case.name
        );
    }
}

#[test]
fn expected_json_strings_decode_and_recompile_to_themselves() {
    let Some(cases) = cases() else { return };
    for case in cases {
        let json = expected(&case, "json");
        let decoded = decode_json_string(json);
        assert_eq!(compile::json(&decoded).unwrap(), json, "{}", case.name);
        assert_eq!(
            compile::code(&decoded).unwrap(),
            expected(&case, "code"),
            "{}",
            case.name
        );
        assert_eq!(
            semantics(&decoded),
            semantics(&case_ir(&case)),
            "{}",
            case.name
        );
    }
}

#[test]
fn regenerated_req_ids_are_sha256_prefixes_of_the_payload_text() {
    let Some(cases) = cases() else { return };
    for (case, (name, code_id, json_id)) in cases.iter().zip(IDS) {
        assert_eq!(case.name, name);
        for length in [4, 8] {
            let code = convert::decode_code(expected(case, "code"), 0, length).unwrap();
            assert_eq!(
                code.meta.req_id.as_ref().unwrap().node,
                code_id[..length],
                "{name} code, length {length}"
            );
            let text = expected(case, "json");
            let parse = parse_json(text, 0);
            let json = convert::decode_json(text, &parse.value.unwrap(), length).unwrap();
            assert_eq!(
                json.meta.req_id.as_ref().unwrap().node,
                json_id[..length],
                "{name} json, length {length}"
            );
        }
        // The suite's own ids are hand-written, not hashes: an IR document keeps its id.
        let doc = case_ir(case);
        let own = serde_json::from_str::<Value>(&case.ir_text).unwrap()["meta"]["req_id"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(doc.meta.req_id.as_ref().unwrap().node, own);
        assert_ne!(own, code_id[..4]);
    }
}

#[test]
fn expected_code_strings_are_canonical_and_lint_clean() {
    let Some(cases) = cases() else { return };
    for case in cases {
        let code = expected(&case, "code");
        let lint = lint_text(code, FileKind::Silp, &Settings::default());
        let serious: Vec<_> = lint
            .diagnostics
            .iter()
            .filter(|d| d.severity.fails_check())
            .map(|d| format!("{} {}", d.rule.code, d.message))
            .collect();
        assert!(serious.is_empty(), "{}: {serious:?}", case.name);
    }
}

#[test]
fn the_suite_has_no_errors_and_nothing_for_sl502() {
    let Some(cases) = cases() else { return };
    for case in cases {
        let lint = lint_text(&case.ir_text, FileKind::SilpJson, &Settings::default());
        for d in &lint.diagnostics {
            assert!(
                d.severity != Severity::Error && d.rule.code != "SL502",
                "{}: {} {}",
                case.name,
                d.rule.code,
                d.message
            );
        }
    }
}

#[test]
fn every_frontend_compiles_every_case_ir() {
    let Some(cases) = cases() else { return };
    for case in cases {
        let ir = case_ir(&case);
        for frontend in Frontend::ALL {
            assert_eq!(
                compile::compile(&ir, frontend).unwrap(),
                expected(&case, frontend.name()),
                "{}",
                case.name
            );
        }
    }
}
