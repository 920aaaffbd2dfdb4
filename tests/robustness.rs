//! Bad input never panics, hangs or overflows the stack; it gets a clear diagnostic
//! or error, and the other inputs of the run are still linted.

use proptest::prelude::*;
use silp_lint::lint::lint_text;
use silp_lint::settings::Settings;
use silp_lint::source::FileKind;
use std::process::Command;

const KINDS: [FileKind; 8] = [
    FileKind::Silp,
    FileKind::Slip,
    FileKind::SilpJson,
    FileKind::SilpJsonl,
    FileKind::Nlip,
    FileKind::Markdown,
    FileKind::McpCall,
    FileKind::A2a,
];

fn assert_spans_on_char_boundaries(text: &str, kind: FileKind) {
    let lint = lint_text(text, kind, &Settings::default());
    for d in &lint.diagnostics {
        assert!(
            d.span.start <= d.span.end && d.span.end <= text.len(),
            "{kind:?} {:?} out of range",
            d.span
        );
        assert!(
            text.is_char_boundary(d.span.start) && text.is_char_boundary(d.span.end),
            "{kind:?} {} {:?}",
            d.rule.code,
            d.span
        );
        for edit in d.fix.iter().flat_map(|f| &f.edits) {
            assert!(text.is_char_boundary(edit.span.start) && text.is_char_boundary(edit.span.end));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        for kind in KINDS {
            assert_spans_on_char_boundaries(&text, kind);
        }
    }

    #[test]
    fn payload_shaped_text_never_panics(
        text in "(if |else|and|then|->|with|[!():;,@=<>\"{}\\[\\] ]|[a-z]{1,6}|\u{200b}|\u{202e}|\u{e0041}|[ая北]|SLIP v1|\r?\n){0,40}"
    ) {
        for kind in KINDS {
            assert_spans_on_char_boundaries(&text, kind);
        }
    }
}

fn codes(text: &str, kind: FileKind) -> Vec<&'static str> {
    lint_text(text, kind, &Settings::default())
        .diagnostics
        .iter()
        .map(|d| d.rule.code)
        .collect()
}

#[test]
fn empty_and_comment_only_files_are_clean_where_the_format_allows_it() {
    for kind in [
        FileKind::Silp,
        FileKind::Slip,
        FileKind::SilpJsonl,
        FileKind::Markdown,
    ] {
        assert!(codes("", kind).is_empty(), "{kind:?}");
    }
    assert!(codes("# only a comment\n\n   # another\n", FileKind::Silp).is_empty());
    assert!(codes("# only a comment\n", FileKind::Slip).is_empty());
    let lint = lint_text("", FileKind::SilpJson, &Settings::default());
    assert_eq!(lint.diagnostics.len(), 1);
    assert!(
        lint.diagnostics[0].message.contains("end of file"),
        "{}",
        lint.diagnostics[0].message
    );
}

#[test]
fn a_top_level_number_is_reported_at_the_number() {
    let lint = lint_text("  42\n", FileKind::SilpJson, &Settings::default());
    assert_eq!(lint.diagnostics.len(), 1);
    assert_eq!(lint.diagnostics[0].rule.code, "SL001");
    assert_eq!(lint.diagnostics[0].span, 2..4);
    assert!(lint.diagnostics[0].message.contains("found a number"));
}

#[test]
fn json_nested_100000_levels_is_an_error_not_a_stack_overflow() {
    let depth = 100_000;
    let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let lint = lint_text(&text, FileKind::SilpJson, &Settings::default());
    assert_eq!(lint.diagnostics.len(), 1);
    assert_eq!(lint.diagnostics[0].rule.code, "SL001");
    let objects = format!("{}{}", "{\"a\":".repeat(depth), "}".repeat(depth));
    assert_eq!(codes(&objects, FileKind::SilpJsonl), ["SL001"]);
}

#[test]
fn code_parentheses_nested_a_million_deep_are_one_error() {
    for text in [
        format!("fetch({}", "(".repeat(1_000_000)),
        format!("fetch({}{}", "(".repeat(1_000_000), ")".repeat(1_000_000)),
    ] {
        let lint = lint_text(&text, FileKind::Silp, &Settings::default());
        let messages: Vec<&str> = lint
            .diagnostics
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            messages,
            ["parentheses nested more than 32 deep: a code-frontend payload nests none"]
        );
    }
}

#[test]
fn a_ten_megabyte_line_is_linted() {
    let mut line = String::from("search(");
    while line.len() < 10 * 1024 * 1024 {
        line.push_str("q=x_1,");
    }
    line.push_str("x)\n");
    let found = codes(&line, FileKind::Silp);
    assert!(
        found.iter().all(|c| *c == "SL405"),
        "{:?}",
        &found[..found.len().min(5)]
    );
    let slip = format!(
        "SLIP v1 a b RequestTask {}\n",
        "word ".repeat(2 * 1024 * 1024).trim_end()
    );
    assert!(codes(&slip, FileKind::Slip).is_empty());
}

/// The default output shows each report's line; on one long line ariadne would
/// print the whole line, and its label arrows across it, for every report: 10,000
/// reports on a 10 MB line took seven minutes and 24 GB. Each report shows the
/// bytes around its labels instead, and names the column in the whole line.
#[test]
fn reports_on_one_long_line_show_the_bytes_around_them() {
    let dir = tempfile::tempdir().unwrap();
    let line = format!("{}Start(y)\n", "Start(y); ".repeat(5_000));
    std::fs::write(dir.path().join("long.silp"), &line).unwrap();
    let (code, out, err) = silp_lint(&["check", "long.silp"], dir.path());
    assert_eq!(code, 1, "{err}");
    let widest = out.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest < 300, "a line of the output has {widest} characters");
    // Each call has two reports (SL104, and SL405 from the second on), each of a
    // dozen lines: the output grows with the reports, not with their product.
    assert!(out.len() < 10_001 * 1_500, "{} bytes", out.len());
    let last_call_column = line.rfind("Start").unwrap() + 1;
    assert!(out.contains(&format!("╭─[ long.silp:1:{last_call_column} ]")));
    assert!(
        out.contains(" 1 │ …Start(y); Start(y); Start(y)"),
        "{}",
        &out[out.len() - 2000..]
    );
}

fn silp_lint(args: &[&str], dir: &std::path::Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_silp-lint"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("silp-lint runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn unreadable_inputs_exit_2_and_the_rest_is_still_linted() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.silp"),
        b"start(hike)\nstart(\xff\xfe)\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("garbage.slip"),
        [0u8, 159, 146, 150, 7, 255],
    )
    .unwrap();
    std::fs::write(dir.path().join("good.silp"), "begin(hike)\n").unwrap();
    let (code, stdout, stderr) = silp_lint(
        &["check", ".", "missing.silp", "--output-format", "concise"],
        dir.path(),
    );
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stdout.contains("good.silp:1:1: SL101"), "{stdout}");
    assert!(
        stderr.contains("bad.silp: not valid UTF-8 at line 2, column 7 (byte 18)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("garbage.slip: not valid UTF-8 at line 1, column 2 (byte 1)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("missing.silp: No such file or directory"),
        "{stderr}"
    );
}

#[cfg(unix)]
#[test]
fn a_directory_without_permission_is_reported_unless_we_may_read_it_anyway() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::write(locked.join("inside.silp"), "begin(x)\n").unwrap();
    std::fs::write(dir.path().join("open.silp"), "begin(x)\n").unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    // Root (as in CI containers) reads the directory regardless of its mode.
    let readable = std::fs::read_dir(&locked).is_ok();
    let (code, stdout, stderr) =
        silp_lint(&["check", ".", "--output-format", "concise"], dir.path());
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert!(stdout.contains("open.silp:1:1: SL101"), "{stdout}");
    if readable {
        assert_eq!(code, 1, "{stderr}");
        assert!(stdout.contains("inside.silp:1:1: SL101"));
    } else {
        assert_eq!(code, 2);
        assert!(
            stderr.contains("locked") && stderr.contains("Permission denied"),
            "{stderr}"
        );
    }
}

#[test]
fn messages_never_carry_raw_invisible_or_bidi_characters() {
    let cases = [
        ("SLIP v1 al\u{202e}ice bob MetaAck\n", FileKind::Slip),
        ("can\u{200b}cel(flight)\n", FileKind::Silp),
        (
            "{\"intent\": \"!DEL\u{2066}ETE\", \"meta\": {\"req_id\": \"a1b2c3d4\"}}\n",
            FileKind::SilpJsonl,
        ),
    ];
    for (text, kind) in cases {
        let lint = lint_text(text, kind, &Settings::default());
        assert!(lint.diagnostics.len() > 1, "{text:?}");
        for d in &lint.diagnostics {
            let shown = format!("{} {}", d.message, d.help.as_deref().unwrap_or(""));
            assert!(
                !shown
                    .chars()
                    .any(|c| matches!(c, '\u{200b}' | '\u{202e}' | '\u{2066}')),
                "{}: {shown}",
                d.rule.code
            );
        }
        assert!(
            lint.diagnostics.iter().any(|d| d.message.contains("<U+")),
            "{text:?}"
        );
    }
}
