//! The Slipstream rules (SL001 on SLIP lines, SL601–SL605) as a user sees them:
//! lint `.slip` text and check codes, the text each diagnostic covers, and fixes.

use proptest::prelude::*;
use silp_lint::diagnostics::{Applicability, Diagnostic, Severity};
use silp_lint::lint::lint_text;
use silp_lint::rules::registry;
use silp_lint::settings::{RuleSet, Settings};
use silp_lint::source::FileKind;

fn lint_with(text: &str, settings: &Settings) -> Vec<Diagnostic> {
    lint_text(text, FileKind::Slip, settings).diagnostics
}

fn lint(text: &str) -> Vec<Diagnostic> {
    lint_with(text, &Settings::default())
}

/// Linting with every rule named by a selector, as `--select SL` does: SL605 checks
/// `.slip` lines only when selected so (by default it checks A2A messages' lines).
fn lint_selected(text: &str) -> Vec<Diagnostic> {
    lint_with(text, &Settings::only(RuleSet::ALL))
}

/// Each diagnostic as (code, the text its span covers).
fn found<'t>(text: &'t str, diagnostics: &[Diagnostic]) -> Vec<(&'static str, &'t str)> {
    diagnostics
        .iter()
        .map(|d| (d.code(), &text[d.span.clone()]))
        .collect()
}

/// Applies every fix of `diagnostics` (edits do not overlap in these tests).
fn apply_fixes(text: &str, diagnostics: &[Diagnostic]) -> String {
    let mut edits: Vec<_> = diagnostics
        .iter()
        .filter_map(|d| d.fix.as_ref())
        .flat_map(|f| f.edits.iter().cloned())
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.span.start));
    let mut out = text.to_string();
    for edit in edits {
        out.replace_range(edit.span.clone(), &edit.content);
    }
    out
}

/// The example lines of the Slipstream reference, as its sections print them.
fn reference_examples() -> Vec<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/slipstream-reference-examples.txt"
    );
    let text = std::fs::read_to_string(path).expect("the Slipstream reference is readable");
    let mut lines = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        // Wire lines, and wire strings the Python examples print (`# -> "SLIP v1 ..."`).
        let wire = match line.strip_prefix("# -> \"") {
            Some(rest) => rest.strip_suffix('"').unwrap_or(rest),
            None => line,
        };
        // Skip the format's template (`<src>`) and its legend (`SLIP v1 - Protocol ...`).
        if wire.starts_with("SLIP v1 ") && !wire.contains('<') && !wire.contains(" - ") {
            lines.push(wire.to_string());
        }
    }
    lines
}

#[test]
fn every_example_of_the_slipstream_reference_is_clean() {
    let examples = reference_examples();
    for expected in [
        "SLIP v1 alice bob RequestReview",
        "SLIP v1 planner executor RequestTask implement_auth_module",
        "SLIP v1 developer team InformComplete user_service",
        "SLIP v1 reviewer author EvalApprove lgtm",
        "SLIP v1 devops sre Fallback check kubernetes pods for OOMKilled",
        "SLIP v1 dev reviewer RequestReview",
    ] {
        assert!(
            examples.iter().any(|e| e == expected),
            "{expected} not found"
        );
    }
    for example in &examples {
        let diagnostics = lint(example);
        assert!(diagnostics.is_empty(), "{example}: {diagnostics:?}");
    }
    // All of them at once, as one file with comments and blank lines.
    let file = format!("# examples\n\n{}\n", examples.join("\n"));
    assert!(lint(&file).is_empty());
}

#[test]
fn every_core_anchor_is_accepted_with_threads_and_quoted_payloads() {
    for anchor in silp_lint::vocabulary::core_anchors() {
        let line = format!(
            "SLIP v1 agent-1 team.lead_2 {} thread42 \"free text, with: punctuation!\" x.y-z_1",
            anchor.mnemonic
        );
        assert!(lint(&line).is_empty(), "{line}");
    }
}

#[test]
fn sl001_missing_fields_and_bad_markers() {
    let text = "SLIP v1 alice\nslip v1 alice bob RequestTask\nSLIP v1 a b RequestTask \"open\n";
    let diagnostics = lint_selected(text);
    let got: Vec<(&str, std::ops::Range<usize>, &str)> = diagnostics
        .iter()
        .map(|d| (d.code(), d.span.clone(), d.message.as_str()))
        .collect();
    let quote = text.rfind('"').unwrap();
    assert_eq!(
        got,
        [
            (
                "SL001",
                13..13,
                "expected the destination agent after `alice`, found end of line"
            ),
            (
                "SL001",
                14..18,
                "expected `SLIP` to start the message, found `slip`"
            ),
            (
                "SL001",
                quote..quote + 1,
                "this quoted string is never closed; expected a closing `\"` before the end of line"
            ),
            ("SL605", quote..quote + 5, "payload token `\"open` is not portable: it holds `\"`"),
        ]
    );
}

#[test]
fn sl001_recovery_lets_the_other_rules_run() {
    // The anchor is missing, but the bad version and agent are still reported.
    let text = "SLIP v2 al!ce";
    assert_eq!(
        found(text, &lint(text)),
        [("SL603", "v2"), ("SL604", "al!ce"), ("SL001", "")]
    );
}

#[test]
fn sl601_unknown_anchor_with_did_you_mean() {
    let text = "SLIP v1 alice bob RequestReveiw\nSLIP v1 alice bob Frobnicate\n";
    let diagnostics = lint(text);
    assert_eq!(
        found(text, &diagnostics),
        [("SL601", "RequestReveiw"), ("SL601", "Frobnicate")]
    );
    assert_eq!(diagnostics[0].message, "unknown anchor `RequestReveiw`");
    assert_eq!(
        diagnostics[0].help.as_deref(),
        Some("did you mean `RequestReview`?")
    );
    assert!(diagnostics[0].fix.is_none());
    assert!(diagnostics[1]
        .help
        .as_deref()
        .unwrap()
        .contains("[extend-anchors]"));
    assert!(diagnostics.iter().all(|d| d.severity == Severity::Error));
}

#[test]
fn sl601_safe_fix_when_only_the_case_differs() {
    let text =
        "SLIP v1 planner executor requesttask implement_auth_module\nSLIP v1 a b FALLBACK help\n";
    let diagnostics = lint(text);
    assert_eq!(
        found(text, &diagnostics),
        [("SL601", "requesttask"), ("SL601", "FALLBACK")]
    );
    assert_eq!(
        diagnostics[0].message,
        "unknown anchor `requesttask`: anchors are case-sensitive"
    );
    let fix = diagnostics[0].fix.as_ref().unwrap();
    assert_eq!(fix.applicability, Applicability::Safe);
    let fixed = apply_fixes(text, &diagnostics);
    assert_eq!(
        fixed,
        "SLIP v1 planner executor RequestTask implement_auth_module\nSLIP v1 a b Fallback help\n"
    );
    assert!(lint(&fixed).is_empty());
}

#[test]
fn sl601_configured_extension_anchors_are_accepted() {
    let settings = Settings {
        extend_anchors: vec![("CustomDeploy".to_string(), 0x8001)],
        ..Settings::default()
    };
    let text = "SLIP v1 ci prod CustomDeploy build_1234\nSLIP v1 ci prod customdeploy x\nSLIP v1 ci prod CustomDeplo x\n";
    let diagnostics = lint_with(text, &settings);
    assert_eq!(
        found(text, &diagnostics),
        [("SL601", "customdeploy"), ("SL601", "CustomDeplo")]
    );
    assert_eq!(
        apply_fixes(text, &diagnostics[..1]).lines().nth(1),
        Some("SLIP v1 ci prod CustomDeploy x")
    );
    assert_eq!(
        diagnostics[1].help.as_deref(),
        Some("did you mean `CustomDeploy`?")
    );
    // Without the configuration the extension anchor is unknown.
    assert_eq!(
        found(text, &lint(text)),
        [
            ("SL601", "CustomDeploy"),
            ("SL601", "customdeploy"),
            ("SL601", "CustomDeplo")
        ]
    );
}

#[test]
fn sl602_fallback_without_payload() {
    let text = "SLIP v1 devops sre Fallback\nSLIP v1 devops sre Fallback   \nSLIP v1 devops sre Fallback thread42\nSLIP v1 devops sre Fallback thread42 restart pods\nSLIP v1 devops sre Fallback \"restart pods\"\nSLIP v1 devops sre MetaAck\n";
    // The trailing blanks of line 2 are SL504's business.
    let ignore_format = Settings::only(RuleSet::ALL.difference(registry::matching("SL504")));
    let diagnostics = lint_with(text, &ignore_format);
    assert_eq!(
        found(text, &diagnostics),
        [
            ("SL602", "Fallback"),
            ("SL602", "Fallback"),
            ("SL602", "Fallback")
        ]
    );
    let lines: Vec<usize> = diagnostics
        .iter()
        .map(|d| text[..d.span.start].matches('\n').count())
        .collect();
    assert_eq!(lines, [0, 1, 2]);
    assert_eq!(diagnostics[0].message, "`Fallback` message has no payload");
}

#[test]
fn sl603_unsupported_version() {
    let text = "SLIP v2 alice bob RequestReview\nSLIP V1 alice bob RequestReview\nSLIP v1 alice bob RequestReview\n";
    let diagnostics = lint(text);
    assert_eq!(
        found(text, &diagnostics),
        [("SL603", "v2"), ("SL603", "V1")]
    );
    assert_eq!(
        diagnostics[0].message,
        "unsupported SLIP version `v2`: only `v1` is supported"
    );
}

#[test]
fn sl604_invalid_agent_ids() {
    let text = "SLIP v1 ålice bob@example RequestReview\nSLIP v1 agent-1.a_B 北京 MetaAck\nSLIP v1 \"alice\" bob MetaAck\n";
    let diagnostics = lint(text);
    assert_eq!(
        found(text, &diagnostics),
        [
            ("SL604", "ålice"),
            ("SL604", "bob@example"),
            ("SL604", "北京"),
            ("SL604", "\"alice\"")
        ]
    );
    assert_eq!(
        diagnostics[0].message,
        "source agent id `ålice` holds `å` outside `[A-Za-z0-9._-]`"
    );
    assert_eq!(
        diagnostics[2].message,
        "destination agent id `北京` holds `北`, `京` outside `[A-Za-z0-9._-]`"
    );
}

#[test]
fn sl605_non_portable_payload_tokens() {
    let text = concat!(
        "SLIP v1 a b RequestTask déployer auth:module \"ok, fine\" x.y-z_1\n",
        "SLIP v1 a b RequestTask \"say \\\"hi\\\"\" \"tab\there\" pre\"q\"\n",
        "SLIP v1 a b RequestTask \"naïve\" \"back\\slash\" 😀\n",
    );
    let diagnostics = lint_selected(text);
    assert_eq!(
        found(text, &diagnostics),
        [
            ("SL605", "déployer"),
            ("SL605", "auth:module"),
            ("SL605", "\"say \\\"hi\\\"\""),
            ("SL605", "\"tab\there\""),
            ("SL605", "pre\"q\""),
            ("SL605", "\"naïve\""),
            ("SL605", "\"back\\slash\""),
            ("SL605", "😀"),
        ]
    );
    assert!(diagnostics.iter().all(|d| d.severity == Severity::Warning));
    assert_eq!(
        diagnostics[0].message,
        "payload token `déployer` is not portable: it holds `é`"
    );
    assert_eq!(
        diagnostics[3].message,
        "payload token is not portable: it holds U+0009"
    );
}

#[test]
fn one_line_can_break_several_rules() {
    let text = "SLIP v3 bøb alice Fallbak thread7 café";
    assert_eq!(
        found(text, &lint_selected(text)),
        [
            ("SL603", "v3"),
            ("SL604", "bøb"),
            ("SL601", "Fallbak"),
            ("SL605", "café")
        ]
    );
}

/// SL605 encodes the SLIP-A2A profile's SHOULD: by default it checks the lines of A2A
/// messages only; in `.slip` text it runs when a selector other than `ALL` names it.
#[test]
fn sl605_applies_by_default_only_where_the_a2a_profile_does() {
    let line = "SLIP v1 planner executor RequestTask task:deploy 60%";
    assert!(lint(line).is_empty());
    let all = silp_lint::config::Overrides {
        select: vec!["ALL".to_string()],
        ..Default::default()
    };
    let everything = silp_lint::config::Resolver::discover(all).unconfigured_settings();
    assert!(lint_with(line, &everything).is_empty());
    let named = Settings::only(registry::matching("SL6"));
    assert_eq!(
        found(line, &lint_with(line, &named)),
        [("SL605", "task:deploy"), ("SL605", "60%")]
    );
    let message = format!(
        r#"{{"parts":[{{"text":"{line}"}}],"extensions":["{}"]}}"#,
        silp_lint::syntax::a2a::EXTENSION_URI
    );
    let in_a2a = lint_text(&message, FileKind::A2a, &Settings::default()).diagnostics;
    let codes: Vec<(&str, &str)> = found(&message, &in_a2a)
        .into_iter()
        .filter(|(code, _)| *code == "SL605")
        .collect();
    assert_eq!(codes, [("SL605", "task:deploy"), ("SL605", "60%")]);
}

#[test]
fn rules_can_be_turned_off() {
    let settings = Settings::only(RuleSet::ALL.difference(registry::matching("SL60")));
    let text = "SLIP v3 bøb alice Fallbak thread7 café";
    assert!(lint_with(text, &settings).is_empty());
}

/// Whether `offset` is a char boundary of `text` (the end included).
fn on_boundary(text: &str, offset: usize) -> bool {
    offset <= text.len() && text.is_char_boundary(offset)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_lines_never_panic_and_spans_are_on_char_boundaries(
        line in prop_oneof![
            any::<String>(),
            "(SLIP|slip|\"|v1|thread[0-9]*| |\t|\u{3000}|[a-zA-Z._-]{1,6}|[^ ]{1,3}|\"[^\"]{0,4}\"){0,12}",
        ],
        prefix in "[\n]{0,2}(SLIP v1 a b MetaAck\n)?",
    ) {
        let text = format!("{prefix}{line}\n{line}");
        for diagnostic in lint(&text) {
            prop_assert!(diagnostic.span.start <= diagnostic.span.end);
            prop_assert!(on_boundary(&text, diagnostic.span.start), "{diagnostic:?}");
            prop_assert!(on_boundary(&text, diagnostic.span.end), "{diagnostic:?}");
            for edit in diagnostic.fix.iter().flat_map(|f| &f.edits) {
                prop_assert!(on_boundary(&text, edit.span.start));
                prop_assert!(on_boundary(&text, edit.span.end));
            }
        }
        let parse = silp_lint::syntax::slip::parse_message(&line, 7);
        let padded = format!("{}{line}", " ".repeat(7));
        let spans = parse
            .message
            .iter()
            .flat_map(|m| {
                [Some(&m.marker), m.version.as_ref(), m.src.as_ref(), m.dst.as_ref(), m.anchor.as_ref(), m.thread.as_ref()]
                    .into_iter()
                    .flatten()
                    .map(|t| t.span.clone())
                    .chain(m.payload.iter().map(|p| p.span.clone()))
                    .chain([m.span.clone()])
                    .collect::<Vec<_>>()
            })
            .chain(parse.errors.iter().map(|e| e.span.clone()));
        for span in spans {
            prop_assert!(span.start >= 7 && span.start <= span.end);
            prop_assert!(on_boundary(&padded, span.start) && on_boundary(&padded, span.end));
        }
    }
}

#[test]
fn fixtures_report_their_code_on_each_offending_line_and_nothing_on_clean_lines() {
    for code in ["SL601", "SL602", "SL603", "SL604", "SL605"] {
        let path = format!(
            "{}/tests/fixtures/{code}/cases.slip",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).expect("fixture is readable");
        let diagnostics = lint_selected(&text);
        let mut offset = 0;
        let mut clean = false;
        for line in text.split_inclusive('\n') {
            let span = offset..offset + line.len();
            offset += line.len();
            if line.starts_with("# Clean") {
                clean = true;
            }
            if line.starts_with('#') {
                continue;
            }
            let codes: Vec<&str> = diagnostics
                .iter()
                .filter(|d| span.contains(&d.span.start))
                .map(|d| d.code())
                .collect();
            if clean {
                assert!(codes.is_empty(), "{path}: {line:?} gave {codes:?}");
            } else {
                assert!(
                    !codes.is_empty() && codes.iter().all(|c| *c == code),
                    "{path}: {line:?} gave {codes:?}"
                );
            }
        }
    }
}
