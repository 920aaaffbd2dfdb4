//! What changes with `draft = "00" | "01" | "02"` (and `--draft`): the whitelist is
//! enforced under -00 and advisory from -01 on, `math` is a frontend of -00's
//! degradation chain only, SL302 names the default as -00 or -01 does, and -02's
//! `seq` keywords carry no defined behaviour (SL409).

use silp_lint::diagnostics::Severity;
use silp_lint::lint::lint_text;
use silp_lint::settings::{Draft, Settings};
use silp_lint::source::FileKind;
use std::process::Command;

fn under(draft: Draft) -> Settings {
    Settings {
        draft,
        ..Settings::default()
    }
}

/// (code, severity, message) of each diagnostic.
fn found(text: &str, kind: FileKind, draft: Draft) -> Vec<(&'static str, Severity, String)> {
    lint_text(text, kind, &under(draft))
        .diagnostics
        .into_iter()
        .map(|d| (d.code(), d.severity, d.message))
        .collect()
}

#[test]
fn the_newest_draft_is_the_default() {
    assert_eq!(Settings::default().draft, Draft::D02);
    assert_eq!(Draft::parse("01"), Some(Draft::D01));
    assert_eq!(Draft::parse("-00"), Some(Draft::D00));
    assert_eq!(Draft::parse("03"), None);
}

#[test]
fn an_unknown_well_formed_verb_is_an_error_under_00_and_a_warning_after() {
    let text = "begin(hike)\nstart(x) else: ЗАПУСК(y)\n";
    let severities = |draft| -> Vec<Severity> {
        found(text, FileKind::Silp, draft)
            .into_iter()
            .filter(|(code, ..)| *code == "SL101")
            .map(|(_, severity, _)| severity)
            .collect()
    };
    assert_eq!(severities(Draft::D00), [Severity::Error, Severity::Error]);
    // `ЗАПУСК` is not even a well-formed verb: still an error.
    assert_eq!(severities(Draft::D01), [Severity::Warning, Severity::Error]);
    assert_eq!(severities(Draft::D02), [Severity::Warning, Severity::Error]);
    let json = r#"{"intent":"!LAUNCH","act":"x"}"#;
    let sl101: Vec<Severity> = found(json, FileKind::SilpJsonl, Draft::D02)
        .into_iter()
        .filter(|(code, ..)| *code == "SL101")
        .map(|(_, severity, _)| severity)
        .collect();
    assert_eq!(sl101, [Severity::Warning]);
}

#[test]
fn math_is_a_frontend_of_the_00_degradation_chain_only() {
    let probe = "//ping code,math,json\n";
    let codes = |draft| -> Vec<&str> {
        found(probe, FileKind::Silp, draft)
            .into_iter()
            .map(|(code, ..)| code)
            .collect()
    };
    assert!(codes(Draft::D00).is_empty());
    assert_eq!(codes(Draft::D01), ["SL403"]);
    assert_eq!(codes(Draft::D02), ["SL403"]);
}

#[test]
fn sl302_says_production_under_00_and_recommended_after() {
    let text = r#"{"intent":"!START","meta":{"req_id":"a3f9"}}"#;
    let message = |draft| {
        found(text, FileKind::SilpJson, draft)
            .into_iter()
            .find(|(code, ..)| *code == "SL302")
            .map(|(.., message)| message)
            .unwrap()
    };
    assert!(message(Draft::D00).ends_with("the production default is 8"));
    assert!(message(Draft::D01).ends_with("the recommended default is 8"));
    assert!(message(Draft::D02).ends_with("the recommended default is 8"));
}

#[test]
fn seq_keywords_are_reported_under_02_only() {
    let text = r#"{"intent":"!FETCH","entities":[{"id":"act","value":"r"}],"meta":{"req_id":"a1b2c3d4","seq":["parallel","!FETCH"]}}"#;
    let codes = |draft| -> Vec<&str> {
        found(text, FileKind::SilpJson, draft)
            .into_iter()
            .map(|(code, ..)| code)
            .collect()
    };
    assert!(codes(Draft::D00).is_empty());
    assert!(codes(Draft::D01).is_empty());
    assert_eq!(codes(Draft::D02), ["SL409"]);
}

fn silp_lint(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_silp-lint"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn the_configuration_sets_the_draft_and_the_command_line_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.silp"), "//ping code,math\n").unwrap();
    std::fs::write(dir.path().join("silp-lint.toml"), "draft = \"00\"\n").unwrap();
    let (status, stdout, _) = silp_lint(dir.path(), &["check", "a.silp"]);
    assert_eq!((status, stdout.trim()), (0, "All checks passed!"));
    let (status, stdout, _) = silp_lint(
        dir.path(),
        &[
            "check",
            "a.silp",
            "--draft",
            "02",
            "--output-format",
            "concise",
        ],
    );
    assert_eq!(status, 1);
    assert!(stdout.contains("SL403"), "{stdout}");
    std::fs::write(dir.path().join("silp-lint.toml"), "draft = \"3\"\n").unwrap();
    let (status, _, stderr) = silp_lint(dir.path(), &["check", "a.silp"]);
    assert_eq!(status, 2);
    assert!(
        stderr.contains("silp-lint.toml:1:9: `draft`: `3` is not one of"),
        "{stderr}"
    );
    let (status, _, stderr) = silp_lint(dir.path(), &["check", "a.silp", "--draft", "7"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("`7` is not one of 00, 01, 02"), "{stderr}");
}

#[test]
fn an_mcp_wrapper_in_a_silp_json_file_exists_from_01_on() {
    let text = r#"{"silp_encoding":"code","silp_payload":"begin(hike)"}"#;
    let codes = |draft| -> Vec<&str> {
        found(text, FileKind::SilpJson, draft)
            .into_iter()
            .map(|(code, ..)| code)
            .collect()
    };
    // Under -00 the object is a JSON-frontend payload without an `intent`.
    assert_eq!(codes(Draft::D00), ["SL410"]);
    // From -01 on its payload is linted: `begin` is no whitelisted verb.
    assert_eq!(codes(Draft::D01), ["SL101"]);
    assert_eq!(codes(Draft::D02), ["SL101"]);
}
