//! Payloads carried in MCP tool calls (SILP draft -01 §7.2) and A2A messages (the
//! SLIP-A2A extension) through the one entry point: where they are found, where
//! their diagnostics point, what `--fix` does inside them.

use proptest::prelude::*;
use silp_lint::diagnostics::Diagnostic;
use silp_lint::fix::fix_text;
use silp_lint::lint::lint_text;
use silp_lint::settings::Settings;
use silp_lint::source::FileKind;
use silp_lint::syntax::a2a::EXTENSION_URI;

fn lint(text: &str, kind: FileKind) -> Vec<Diagnostic> {
    lint_text(text, kind, &Settings::default()).diagnostics
}

/// `(code, covered text)` of each diagnostic.
fn found(text: &str, kind: FileKind) -> Vec<(&'static str, &str)> {
    lint(text, kind)
        .into_iter()
        .map(|d| (d.code(), &text[d.span.clone()]))
        .collect()
}

/// An A2A message carrying `line` in its first text part, with the extension's
/// URI and metadata.
fn a2a_message(line: &str) -> String {
    format!(
        r#"{{"role":"user","parts":[{{"text":{}}}],"extensions":["{EXTENSION_URI}"],"metadata":{{"{EXTENSION_URI}":{{"slipVersion":"v1","ucrVersion":"1.0.0","encoding":"mnemonic"}}}}}}"#,
        serde_json::to_string(line).unwrap()
    )
}

/// A `tools/call` request whose arguments wrap `payload` in `encoding`.
fn tool_call(encoding: &str, payload: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"plan","arguments":{{"silp_encoding":"{encoding}","silp_payload":{},"city":"Paris"}}}}}}"#,
        serde_json::to_string(payload).unwrap()
    )
}

#[test]
fn an_mcp_payload_is_linted_in_place_wherever_json_is_read() {
    let call = tool_call("code", "begin(hike)");
    assert_eq!(found(&call, FileKind::McpCall), [("SL101", "begin")]);
    // The same request as a `.silp.json` document, a `.silp.jsonl` line, and bare
    // arguments in an NLIP message's content.
    assert_eq!(found(&call, FileKind::SilpJson), [("SL101", "begin")]);
    let lines = format!("{call}\n{call}\n");
    assert_eq!(
        found(&lines, FileKind::SilpJsonl),
        [("SL101", "begin"), ("SL101", "begin")]
    );
    let nlip = r#"{"format":"structured","subformat":"json","content":{"silp_encoding":"code","silp_payload":"begin(hike)"}}"#;
    assert_eq!(found(nlip, FileKind::Nlip), [("SL101", "begin")]);
    // The wrapper is not a JSON-frontend payload: nothing is reported of its other
    // keys, while the payload beside it is linted as one.
    let wrapped = r#"[{"silp_encoding":"code","silp_payload":"start(hike)","Town":"Paris"},{"intent":"!BEGIN","act":"x"}]"#;
    let wrapper_end = wrapped.find("},").unwrap();
    let found = found(wrapped, FileKind::SilpJson);
    assert!(
        found
            .iter()
            .all(|(_, covered)| { wrapped.find(covered).is_some_and(|at| at > wrapper_end) }),
        "{found:?}"
    );
    assert!(found.contains(&("SL101", "\"!BEGIN\"")), "{found:?}");
}

#[test]
fn an_escaped_or_json_payload_is_linted_on_its_decoded_text() {
    let call = tool_call("code", "beg\u{69}n(hike)").replace("begin", "beg\\u0069n");
    let diagnostics = lint(&call, FileKind::McpCall);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(&call[diagnostics[0].span.clone()], "\"beg\\u0069n(hike)\"");
    assert!(diagnostics[0].fix.is_none());
    let json = tool_call("json", r#"{"intent":"!BEGIN","act":"hike"}"#);
    let codes: Vec<&str> = lint(&json, FileKind::McpCall)
        .iter()
        .map(Diagnostic::code)
        .collect();
    assert_eq!(codes, ["SL101"]);
}

/// SL504 leaves a payload carried in a JSON string alone, whether the string is
/// written with escapes or not: `fmt` does not rewrite it, so there is nothing to
/// fix.
#[test]
fn carried_payloads_are_not_held_to_the_canonical_form() {
    for content in ["cancel( x )", "cancel( x )\n", "cancel( x )\n\ncancel( y )"] {
        let quoted = serde_json::to_string(content).unwrap();
        let nlip = format!(r#"{{"format":"text","subformat":"silp","content":{quoted}}}"#);
        assert!(found(&nlip, FileKind::Nlip).is_empty(), "{nlip}");
        let call = tool_call("code", content);
        assert!(found(&call, FileKind::McpCall).is_empty(), "{call}");
    }
}

#[test]
fn prose_and_unknown_encodings_are_not_parsed() {
    for encoding in ["natural", "nl_json", "llmlingua2"] {
        let call = tool_call(encoding, "Start a hike (if it does not rain).");
        assert!(found(&call, FileKind::McpCall).is_empty(), "{encoding}");
    }
    // The character rules read every string all the same.
    let hidden = tool_call("natural", "Start a hike\u{200b}.");
    assert_eq!(found(&hidden, FileKind::McpCall), [("SL201", "\u{200b}")]);
    let yaml = tool_call("yaml", "start: hike");
    assert_eq!(found(&yaml, FileKind::McpCall), [("SL403", "\"yaml\"")]);
}

#[test]
fn an_a2a_slip_line_is_linted_in_place_with_the_profile() {
    let message = a2a_message("SLIP v1 planner reviewer RequestReveiw 60%");
    assert_eq!(
        found(&message, FileKind::A2a),
        [("SL601", "RequestReveiw"), ("SL605", "60%")]
    );
    for wrap in [
        format!(r#"{{"message":{message}}}"#),
        format!(
            r#"{{"jsonrpc":"2.0","id":"1","method":"message/send","params":{{"message":{message}}}}}"#
        ),
        format!("[{message},{message}]"),
    ] {
        let codes: Vec<&str> = found(&wrap, FileKind::A2a).iter().map(|f| f.0).collect();
        assert!(codes.contains(&"SL601"), "{wrap}");
    }
    // A line written with escapes: its findings cover the whole string.
    let escaped = a2a_message("SLIP v1 planner reviewer \"RequestReveiw\"");
    let diagnostics = lint(&escaped, FileKind::A2a);
    let sl601 = diagnostics.iter().find(|d| d.code() == "SL601").unwrap();
    assert!(escaped[sl601.span.clone()].starts_with("\"SLIP v1"));
    // A message that does not use the extension is an ordinary A2A message.
    let prose = r#"{"role":"user","parts":[{"text":"Please review the auth module"}]}"#;
    assert!(found(prose, FileKind::A2a).is_empty());
}

#[test]
fn the_a2a_profile_checks_anchors_and_spacing_only_in_a2a_messages() {
    let settings = Settings {
        extend_anchors: vec![("EXT_CheckTheKubernetesPod".to_string(), 0x8000)],
        ..Settings::default()
    };
    let line = "SLIP v1 devops sre EXT_CheckTheKubernetesPod  payments";
    let in_slip = lint_text(line, FileKind::Slip, &settings).diagnostics;
    let codes: Vec<&str> = in_slip.iter().map(Diagnostic::code).collect();
    assert_eq!(codes, ["SL504"], "formatting is all a `.slip` line gets");
    let message = a2a_message(line);
    let in_a2a = lint_text(&message, FileKind::A2a, &settings).diagnostics;
    let got: Vec<(&str, &str)> = in_a2a
        .iter()
        .map(|d| (d.code(), &message[d.span.clone()]))
        .collect();
    assert_eq!(
        got,
        [("SL609", "EXT_CheckTheKubernetesPod"), ("SL608", "  ")]
    );
}

#[test]
fn the_ucr_hash_covers_the_configured_extension_anchors() {
    let core = "sha256:19bb36792d59061553d1b63cc4d56ec3e8748b7b059737754057fa3e7abbc700";
    let extended = "sha256:e312a3f81985a1481b57b13f6452eafdc79ceca44eebd312c8fa56067aa1f806";
    let with_hash = |hash: &str| {
        a2a_message("SLIP v1 a b RequestReview").replace(
            "\"encoding\"",
            &format!("\"ucrHash\":\"{hash}\",\"encoding\""),
        )
    };
    let settings = Settings {
        extend_anchors: vec![
            ("EXT_CheckTheKubernetesPod".to_string(), 0x8000),
            ("CustomAnchor".to_string(), 0x8001),
        ],
        ..Settings::default()
    };
    let sl607 = |text: &str, settings: &Settings| -> Vec<Diagnostic> {
        lint_text(text, FileKind::A2a, settings)
            .diagnostics
            .into_iter()
            .filter(|d| d.code() == "SL607")
            .collect()
    };
    assert!(sl607(&with_hash(core), &Settings::default()).is_empty());
    assert!(sl607(&with_hash(extended), &settings).is_empty());
    let stale = sl607(&with_hash(core), &settings);
    assert_eq!(stale.len(), 1);
    let help = stale[0].help.as_deref().unwrap();
    assert!(
        help.starts_with("it is the hash of the core anchors alone"),
        "{help}"
    );
    assert!(help.contains(extended), "{help}");
}

#[test]
fn agent_cards_get_the_same_hash_check() {
    let card = format!(
        r#"{{"name":"reviewer","url":"https://agent.example.com","capabilities":{{"streaming":true,"extensions":[{{"uri":"{EXTENSION_URI}","required":false,"params":{{"slipVersion":"v1","ucrVersion":"1.0.0","ucrHash":"sha256:<hex>","preferredInputMode":"text/slip"}}}}]}}}}"#
    );
    assert_eq!(found(&card, FileKind::A2a), [("SL607", "\"sha256:<hex>\"")]);
    let plain =
        r#"{"name":"other","capabilities":{"extensions":[{"uri":"https://example.com/ext"}]}}"#;
    assert!(found(plain, FileKind::A2a).is_empty());
}

#[test]
fn fixes_inside_carried_payloads_pass_the_meaning_check() {
    let settings = Settings::default();
    let message = a2a_message("SLIP v1 planner  reviewer 0x0032 auth_module");
    let fixed = fix_text(&message, FileKind::A2a, &settings, false).unwrap();
    assert!(fixed.refused.is_empty(), "{:?}", fixed.refused);
    assert_eq!(
        fixed.text,
        a2a_message("SLIP v1 planner reviewer RequestReview auth_module")
    );
    let call = tool_call("code", "Cancel(flight)");
    for kind in [FileKind::McpCall, FileKind::SilpJson] {
        let fixed = fix_text(&call, kind, &settings, false).unwrap();
        assert!(fixed.refused.is_empty(), "{:?}", fixed.refused);
        assert_eq!(fixed.text, tool_call("code", "cancel(flight)"), "{kind:?}");
    }
}

#[test]
fn wrappers_nested_in_json_payloads_are_bounded_by_their_escapes() {
    // Each level escapes the one inside it, so the text doubles per level: a file
    // of n bytes nests at most log2(n) levels, each parsed once.
    let mut arguments = r#"{"silp_encoding":"code","silp_payload":"begin(hike)"}"#.to_string();
    for _ in 0..12 {
        arguments = format!(
            r#"{{"silp_encoding":"json","silp_payload":{}}}"#,
            serde_json::to_string(&arguments).unwrap()
        );
    }
    assert!(arguments.len() > 1 << 12);
    let codes: Vec<&str> = lint(&arguments, FileKind::McpCall)
        .iter()
        .map(Diagnostic::code)
        .collect();
    assert_eq!(codes, ["SL101"]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Whatever a carried string holds, written with or without escapes: no panic,
    /// every span and edit on char boundaries, and `--fix` either applies or refuses.
    #[test]
    fn carried_strings_never_break_the_linter(
        text in "(SLIP v1 |[a-z]{1,5}|0x00[0-9a-f]{2}|[ \t\"\\\\:%()!@]|\u{a0}|\u{200b}|é|\n){0,24}"
    ) {
        for (kind, document) in [
            (FileKind::A2a, a2a_message(&text)),
            (FileKind::McpCall, tool_call("code", &text)),
            (FileKind::SilpJson, tool_call("json", &text)),
        ] {
            let lint = lint_text(&document, kind, &Settings::default());
            for d in &lint.diagnostics {
                prop_assert!(document.is_char_boundary(d.span.start) && document.is_char_boundary(d.span.end));
                prop_assert!(d.span.end <= document.len());
                for edit in d.fix.iter().flat_map(|f| &f.edits) {
                    prop_assert!(document.is_char_boundary(edit.span.start) && document.is_char_boundary(edit.span.end));
                }
            }
            if let Ok(fixed) = fix_text(&document, kind, &Settings::default(), true) {
                prop_assert!(serde_json::from_str::<serde_json::Value>(&fixed.text).is_ok());
            }
        }
    }
}

#[test]
fn convert_reads_the_payloads_mcp_wrappers_carry_and_refuses_a2a_files() {
    use silp_lint::convert::{convert, Target};
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"plan","arguments":{"silp_encoding":"code","silp_payload":"if !rain(t+1): start(hike)","user":"x"}}}"#;
    assert_eq!(
        convert(call, FileKind::McpCall, Target::Code, 8).unwrap(),
        "if !rain(t+1): start(hike)\n"
    );
    // In a `.silp.json` array, a wrapper converts its payload, a payload itself.
    let mixed = r#"[{"silp_encoding":"json","silp_payload":"{\"intent\":\"!CANCEL\",\"act\":\"flight\"}"},{"intent":"!START","act":"x"}]"#;
    assert_eq!(
        convert(mixed, FileKind::SilpJson, Target::Code, 8).unwrap(),
        "cancel(flight)\nstart(x)\n"
    );
    let prose = r#"{"silp_encoding":"natural","silp_payload":"Start the hike unless it rains."}"#;
    let error = convert(prose, FileKind::McpCall, Target::Code, 8).unwrap_err();
    assert!(
        error
            .message
            .contains("no payload in a frontend convert reads"),
        "{}",
        error.message
    );
    let message = r#"{"message":{"role":"user","parts":[{"text":"SLIP v1 a b Accept"}]}}"#;
    let error = convert(message, FileKind::A2a, Target::Code, 8).unwrap_err();
    assert!(
        error.message.contains("holds Slipstream messages"),
        "{}",
        error.message
    );
}
