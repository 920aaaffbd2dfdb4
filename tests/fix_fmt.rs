//! `silp-lint fmt` and `check --fix`: the formatter's output (snapshots), its
//! properties (idempotent, meaning-preserving), the fix engine's rounds and refusals,
//! and the command line over temporary directories (atomic writes, read-only files,
//! files that were not asked for).

mod reference_suite;

use proptest::prelude::*;
use silp_lint::diagnostics::{Diagnostic, Edit, Fix, PendingFix};
use silp_lint::fix::{fix_text, fix_with};
use silp_lint::format::{format_silp_line, format_slip_line, format_text};
use silp_lint::lint::lint_text;
use silp_lint::lint::{FixLint, FixLintOptions};
use silp_lint::meaning::{payload_meanings, Meaning};
use silp_lint::rules::registry;
use silp_lint::settings::Settings;
use silp_lint::source::FileKind;
use std::path::Path;
use std::process::{Command, Output};

/// The fix engine's lint for a stand-in `lint`: its diagnostics are the report,
/// their fixes the fixes; asked for meanings, it gives none, and the engine
/// parses for them itself.
fn given(lint: &impl Fn(&str) -> Vec<Diagnostic>) -> impl Fn(&str, FixLintOptions) -> FixLint + '_ {
    move |text, _| {
        let report = lint(text);
        FixLint {
            fixes: report.iter().filter_map(PendingFix::copied_from).collect(),
            meanings: None,
            report,
            most_reported: 0,
        }
    }
}

fn meanings(text: &str, kind: FileKind) -> Vec<Option<Meaning>> {
    payload_meanings(text, kind)
        .into_iter()
        .map(|m| m.meaning)
        .collect()
}

/// Shows line endings and the BOM, so snapshots keep them visible.
fn visible(text: &str) -> String {
    text.replace('\u{feff}', "<BOM>")
        .replace("\r\n", "<CRLF>\n")
        .replace('\r', "<CR>\n")
        .replace('\t', "<TAB>")
}

fn only(code: &str) -> Settings {
    Settings::only(registry::matching(code))
}

// ---------------------------------------------------------------- formatter output

#[test]
fn the_reference_compilers_output_is_already_canonical() {
    let Some(suite) = reference_suite::reference_suite() else {
        return;
    };
    let text = std::fs::read_to_string(suite.join("expected.jsonl")).expect("the reference suite");
    let mut codes = 0;
    for line in text.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        let Some(code) = value["code"].as_str() else {
            continue;
        };
        codes += 1;
        assert_eq!(format_silp_line(code), None, "{code}");
        assert_eq!(format_text(code, FileKind::Silp), code);
        let lint = lint_text(code, FileKind::Silp, &only("SL504"));
        assert!(
            lint.diagnostics.is_empty(),
            "{code}: {:?}",
            lint.diagnostics
        );
    }
    assert_eq!(codes, 27);
}

#[test]
fn silp_files_keep_crlf_bom_comments_and_non_ascii() {
    let text = "\u{feff}# Travel plans  \r\n\
        if budget <= 500 and loc(hotel, 北京):book(hotel, city = 上海)   # 预算 comment  \r\n\
        \r\n\
        \tif !rain( t+1 ) :start( hike )  else : start(cards @ indoor)\r\n\
        if weather>rain  then switch(indoor_activity)\r\n\
        //ping code,json   session=ab\r\n\
        if !rain(t+1) start( broken )\r\n\
        translate(src=fr, tgt=en)";
    let formatted = format_text(text, FileKind::Silp);
    insta::assert_snapshot!("fmt_silp_crlf_bom", visible(&formatted));
    assert_eq!(format_text(&formatted, FileKind::Silp), formatted);
    assert_eq!(
        meanings(text, FileKind::Silp),
        meanings(&formatted, FileKind::Silp)
    );
}

#[test]
fn slip_files_get_single_spaces_and_keep_quotes_and_lone_cr() {
    let text = "# Agents\rSLIP  v1\tplanner  executor RequestTask   implement_auth_module  \r\
        SLIP v1 alice bob Fallback \"keep   these   spaces\"\t thread42\r\
        SLIP v1 alice\r\
        SLIP v1 alice bob EvalApprove lgtm\r";
    let formatted = format_text(text, FileKind::Slip);
    insta::assert_snapshot!("fmt_slip_cr", visible(&formatted));
    assert_eq!(format_text(&formatted, FileKind::Slip), formatted);
    assert_eq!(
        meanings(text, FileKind::Slip),
        meanings(&formatted, FileKind::Slip)
    );
}

#[test]
fn markdown_blocks_are_formatted_and_the_prose_is_not() {
    let page = "# Payloads  \n\nSome  prose,  with  spaces.\n\n```silp\nstart( hike )\n```\n\n```json\n{ \"a\" :  1 }\n```\n";
    assert_eq!(
        format_text(page, FileKind::Markdown),
        "# Payloads  \n\nSome  prose,  with  spaces.\n\n```silp\nstart(hike)\n```\n\n```json\n{ \"a\" :  1 }\n```\n"
    );
}

#[test]
fn json_files_are_not_formatted() {
    let text = "{ \"intent\" : \"!START\" }\n";
    assert_eq!(format_text(text, FileKind::SilpJson), text);
}

// ---------------------------------------------------------------- fix engine

#[test]
fn adjacent_null_members_are_both_removed_over_two_rounds() {
    let text = "[\r\n  {\"silp\":\"v1\",\"intent\":\"!START\",\"entities\":[{\"id\":\"act\",\"value\":\"hike\"}],\"meta\":{\"req_id\":\"a1b2c3d4\",\"next_agent\":null,\"session_id\":null}}\r\n]\r\n";
    let fixed = fix_text(text, FileKind::SilpJson, &Settings::default(), false).unwrap();
    assert_eq!(fixed.applied, 2);
    assert!(!fixed.text.contains("null"), "{}", fixed.text);
    assert!(fixed.text.ends_with("}}\r\n]\r\n"), "{}", fixed.text);
    let value: serde_json::Value = serde_json::from_str(&fixed.text).expect("still valid JSON");
    assert_eq!(value[0]["meta"], serde_json::json!({"req_id": "a1b2c3d4"}));
    let remaining = lint_text(&fixed.text, FileKind::SilpJson, &Settings::default());
    assert!(remaining.diagnostics.iter().all(|d| d.code() != "SL408"));
}

#[test]
fn fixes_that_touch_one_line_converge() {
    // SL505 (`then` -> `:`) and SL504 (spacing) both edit this line; one waits a round.
    let text = "\u{feff}if  weather>rain  then switch( x )\r\nstart( a ) # 注释\r\n";
    let fixed = fix_text(text, FileKind::Silp, &Settings::default(), false).unwrap();
    assert_eq!(
        fixed.text,
        "\u{feff}if weather>rain: switch(x)\r\nstart(a) # 注释\r\n"
    );
    let again = fix_text(&fixed.text, FileKind::Silp, &Settings::default(), false).unwrap();
    assert_eq!(again.applied, 0);
    assert_eq!(again.text, fixed.text);
}

fn diagnostic(code: &str, span: std::ops::Range<usize>, fix: Fix) -> Diagnostic {
    let rule = registry::find(code).expect("a registered rule").meta();
    Diagnostic {
        rule,
        severity: rule.severity,
        message: "test".to_string(),
        help: None,
        span,
        fix: Some(Box::new(fix)),
        related: Vec::new(),
    }
}

#[test]
fn a_fix_that_breaks_syntax_or_meaning_is_refused() {
    let text = "start(hike)\nstop(x)\n";
    // A formatting fix that changes a value would change the IR: refused.
    let lint = |current: &str| {
        if current.contains("hike") {
            vec![diagnostic(
                "SL504",
                0..11,
                Fix::safe("bad", vec![Edit::replace(6..10, "bike")]),
            )]
        } else {
            Vec::new()
        }
    };
    let error = fix_with(text, FileKind::Silp, false, &given(&lint)).unwrap_err();
    assert!(
        error.contains("SL504") && error.contains("decode differently"),
        "{error}"
    );
    assert!(error.contains("1:1"), "{error}");
    // Any fix that leaves a payload unparseable: refused.
    let lint = |current: &str| {
        if current.contains('(') && current.starts_with("start") {
            vec![diagnostic(
                "SL101",
                0..5,
                Fix::safe("bad", vec![Edit::delete(5..6)]),
            )]
        } else {
            Vec::new()
        }
    };
    let error = fix_with(text, FileKind::Silp, false, &given(&lint)).unwrap_err();
    assert!(error.contains("no longer parse"), "{error}");
}

#[test]
fn normalising_fixes_may_change_the_ir_and_unsafe_fixes_need_the_flag() {
    let text = "begin(hike)\n";
    let lint = |current: &str| {
        if current.starts_with("begin") {
            vec![diagnostic(
                "SL101",
                0..5,
                Fix::unsafe_("Replace with `start`", vec![Edit::replace(0..5, "start")]),
            )]
        } else {
            Vec::new()
        }
    };
    let fixed = fix_with(text, FileKind::Silp, false, &given(&lint)).unwrap();
    assert_eq!((fixed.applied, fixed.text.as_str()), (0, text));
    let fixed = fix_with(text, FileKind::Silp, true, &given(&lint)).unwrap();
    assert_eq!((fixed.applied, fixed.text.as_str()), (1, "start(hike)\n"));
}

#[test]
fn a_fix_that_never_settles_stops_after_the_bound() {
    let text = "a(x)\n";
    let lint = |current: &str| {
        let next = if current.starts_with("a(x)") {
            "a(y)"
        } else {
            "a(x)"
        };
        vec![diagnostic(
            "SL101",
            0..4,
            Fix::unsafe_("flip", vec![Edit::replace(0..4, next)]),
        )]
    };
    let fixed = fix_with(text, FileKind::Silp, true, &given(&lint)).unwrap();
    assert_eq!(fixed.applied, silp_lint::fix::MAX_ROUNDS);
}

// ---------------------------------------------------------------- properties

fn word() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "hike",
        "t+1",
        "北京",
        "90%",
        "4.0",
        "5_Tianfu_Ave",
        "me",
        "x",
    ])
    .prop_map(str::to_string)
}

fn name() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "start", "cancel", "email", "book", "rain", "loc", "budget",
    ])
    .prop_map(str::to_string)
}

fn constraint() -> impl Strategy<Value = String> {
    prop_oneof![
        (name(), prop::option::of(word())).prop_map(|(n, t)| match t {
            Some(t) => format!("!{n}({t})"),
            None => format!("!{n}"),
        }),
        (
            name(),
            prop::sample::select(vec!["==", "!=", "<=", ">=", "<", ">"]),
            word(),
            prop::option::of(word())
        )
            .prop_map(|(n, op, v, t)| match t {
                Some(t) => format!("{n}{op}{v}, {t}"),
                None => format!("{n}{op}{v}"),
            }),
        (name(), prop::collection::vec(word(), 1..=3))
            .prop_map(|(n, args)| format!("{n}({})", args.join(","))),
    ]
}

fn call() -> impl Strategy<Value = String> {
    let arg = prop_oneof![
        word(),
        (name(), word()).prop_map(|(k, v)| format!("{k}={v}")),
        (word(), word()).prop_map(|(v, l)| format!("{v}@{l}")),
    ];
    (name(), prop::collection::vec(arg, 0..=3))
        .prop_map(|(n, args)| format!("{n}({})", args.join(",")))
}

/// A canonical payload, as the reference compiler prints it.
fn canonical_payload() -> impl Strategy<Value = String> {
    let alternative = prop_oneof![
        (name(), word(), prop::option::of(word())).prop_map(|(n, t, l)| match l {
            Some(l) => format!("{n}({t}@{l})"),
            None => format!("{n}({t})"),
        }),
        (name(), word()).prop_map(|(n, l)| format!("{n}(loc={l})")),
    ];
    (
        prop::option::of(prop::collection::vec(constraint(), 1..=3)),
        prop::collection::vec(call(), 1..=3),
        prop::option::of(prop::collection::vec(alternative, 1..=2)),
    )
        .prop_map(|(condition, actions, alternatives)| {
            let mut out = String::new();
            if let Some(constraints) = condition {
                out.push_str(&format!("if {}: ", constraints.join(" and ")));
            }
            out.push_str(&actions.join("; "));
            if let Some(alternatives) = alternatives {
                out.push_str(&format!(" else: {}", alternatives.join("; ")));
            }
            out
        })
}

/// Re-spaces a canonical payload: every gap between tokens gets a random run of
/// blanks (at least one where the canonical text has one).
fn respace(canonical: &str, gaps: &[(u8, bool)]) -> String {
    let tokens = silp_lint::syntax::code::lex(canonical);
    let mut out = String::new();
    let mut previous_end = 0;
    for (i, span) in tokens.iter().map(|token| token.span()).enumerate() {
        let had_space = span.start > previous_end;
        let (count, tab) = gaps.get(i).copied().unwrap_or((0, false));
        let count = count as usize + usize::from(had_space && count == 0);
        let blank = if tab { "\t" } else { " " };
        if i > 0 || count > 0 {
            out.push_str(&blank.repeat(count));
        }
        out.push_str(&canonical[span.clone()]);
        previous_end = span.end;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_spacing_of_a_payload_formats_to_the_canonical_form(
        canonical in canonical_payload(),
        gaps in prop::collection::vec((0u8..3, any::<bool>()), 0..40),
        comment in prop::option::of(prop::sample::select(vec!["# 注释", "#x  y", "# a # b"])),
    ) {
        let mut line = respace(&canonical, &gaps);
        let mut expected = canonical.clone();
        if let Some(comment) = comment {
            line.push_str("   ");
            line.push_str(comment);
            line.push_str("  ");
            expected.push(' ');
            expected.push_str(comment);
        }
        let formatted = format_text(&line, FileKind::Silp);
        prop_assert_eq!(&formatted, &expected);
        prop_assert_eq!(format_text(&formatted, FileKind::Silp), formatted.clone());
        prop_assert_eq!(meanings(&line, FileKind::Silp), meanings(&formatted, FileKind::Silp));
        prop_assert!(meanings(&formatted, FileKind::Silp)[0].is_some());
    }

    #[test]
    fn formatting_any_text_is_idempotent_and_keeps_meaning(
        lines in prop::collection::vec("[a-z!=<>(),;:@ \t#.+北é-]{0,30}", 1..6),
        endings in prop::collection::vec(prop::sample::select(vec!["\n", "\r\n", "\r"]), 6),
        bom in any::<bool>(),
    ) {
        let mut text = String::from(if bom { "\u{feff}" } else { "" });
        for (i, line) in lines.iter().enumerate() {
            text.push_str(line);
            text.push_str(endings[i]);
        }
        for kind in [FileKind::Silp, FileKind::Slip] {
            let formatted = format_text(&text, kind);
            prop_assert_eq!(format_text(&formatted, kind), formatted.clone());
            prop_assert_eq!(meanings(&text, kind), meanings(&formatted, kind));
            // Line endings and the BOM are kept exactly.
            let ends = |t: &str| t.chars().filter(|c| *c == '\r' || *c == '\n').collect::<String>();
            prop_assert_eq!(ends(&text), ends(&formatted));
            prop_assert_eq!(text.starts_with('\u{feff}'), formatted.starts_with('\u{feff}'));
            // SL504 reports exactly the lines fmt changes.
            let reported = lint_text(&text, kind, &only("SL504")).diagnostics.len();
            let changed = text.split(['\n', '\r']).zip(formatted.split(['\n', '\r'])).filter(|(a, b)| a != b).count();
            prop_assert_eq!(reported, changed);
        }
    }

    #[test]
    fn fixing_reaches_a_fixed_point_and_keeps_every_payload_parsing(
        payloads in prop::collection::vec(canonical_payload(), 1..5),
        gaps in prop::collection::vec((0u8..3, any::<bool>()), 0..40),
        variants in prop::collection::vec(0u8..4, 5),
        crlf in any::<bool>(),
    ) {
        let mut text = String::new();
        for (i, payload) in payloads.iter().enumerate() {
            let line = match variants[i] {
                // Nonstandard forms and upper-case names give SL505 and SL104 fixes.
                0 => payload.replacen(": ", " then ", 1),
                1 => payload.replace(" else: ", " else "),
                2 => payload.to_uppercase().replace("IF ", "if ").replace(" AND ", " and ").replace(" ELSE", " else"),
                _ => payload.clone(),
            };
            text.push_str(&respace(&line, &gaps));
            text.push_str(if crlf { "\r\n" } else { "\n" });
        }
        let before = meanings(&text, FileKind::Silp);
        let fixed = fix_text(&text, FileKind::Silp, &Settings::default(), false);
        prop_assert!(fixed.is_ok(), "{:?}", fixed);
        let fixed = fixed.unwrap();
        let after = meanings(&fixed.text, FileKind::Silp);
        prop_assert_eq!(before.len(), after.len());
        for (b, a) in before.iter().zip(&after) {
            prop_assert!(b.is_none() || a.is_some());
        }
        let again = fix_text(&fixed.text, FileKind::Silp, &Settings::default(), false).unwrap();
        prop_assert_eq!(again.applied, 0);
        prop_assert_eq!(fixed.text.matches('\r').count(), text.matches('\r').count());
    }

    #[test]
    fn slip_lines_format_to_single_spaces(
        tokens in prop::collection::vec(prop::sample::select(vec!["alice", "bob", "thread42", "\"two  words\"", "x.y-z", "\"\""]), 0..5),
        gaps in prop::collection::vec(prop::sample::select(vec![" ", "  ", "\t", " \t "]), 12),
    ) {
        let mut all = vec!["SLIP", "v1", "planner", "executor", "RequestTask"];
        all.extend(tokens.iter().copied());
        let mut line = String::from(gaps[0]);
        for (i, token) in all.iter().enumerate() {
            if i > 0 {
                line.push_str(gaps[i % gaps.len()]);
            }
            line.push_str(token);
        }
        line.push_str(gaps[11]);
        let expected = all.join(" ");
        prop_assert_eq!(format_slip_line(&line).unwrap_or_else(|| line.clone()), expected.clone());
        prop_assert_eq!(format_slip_line(&expected), None);
        prop_assert_eq!(meanings(&line, FileKind::Slip), meanings(&expected, FileKind::Slip));
    }
}

// ---------------------------------------------------------------- command line

fn silp_lint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_silp-lint"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[cfg(unix)]
fn inode(path: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).unwrap().ino()
}

#[test]
fn fmt_check_lists_files_and_changes_nothing_then_fmt_rewrites_them() {
    let dir = tempfile::tempdir().unwrap();
    let messy = "\u{feff}start( 北京 )\r\n# c\r\nif x >1:stop(b)\r\n";
    std::fs::write(dir.path().join("messy.silp"), messy).unwrap();
    std::fs::write(dir.path().join("clean.slip"), "SLIP v1 a b Accept\n").unwrap();
    std::fs::write(
        dir.path().join("data.silp.json"),
        "{ \"intent\" : \"!START\" }",
    )
    .unwrap();

    let output = silp_lint(dir.path(), &["fmt", "--check", "."]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let out = stdout(&output);
    assert!(out.contains("Would reformat: ./messy.silp"), "{out}");
    assert!(!out.contains("clean.slip"), "{out}");
    assert!(
        out.contains("1 file would be reformatted, 1 file already formatted"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("messy.silp")).unwrap(),
        messy
    );

    #[cfg(unix)]
    let clean_inode = inode(&dir.path().join("clean.slip"));
    let output = silp_lint(dir.path(), &["fmt", "."]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains("Reformatted: ./messy.silp"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("messy.silp")).unwrap(),
        "\u{feff}start(北京)\r\n# c\r\nif x>1: stop(b)\r\n"
    );
    #[cfg(unix)]
    assert_eq!(
        inode(&dir.path().join("clean.slip")),
        clean_inode,
        "an unchanged file is not rewritten"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("data.silp.json")).unwrap(),
        "{ \"intent\" : \"!START\" }"
    );

    let output = silp_lint(dir.path(), &["fmt", "--check", "."]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(leftovers.len(), 3, "no temporary files are left behind");
}

#[test]
fn fix_applies_safe_fixes_reports_what_remains_and_exits_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plan.silp");
    std::fs::write(&path, "if weather>rain then switch( x )\r\nbegin(hike)\r\n").unwrap();
    let output = silp_lint(dir.path(), &["check", "--fix", "plan.silp"]);
    let out = stdout(&output);
    assert!(
        out.starts_with("Fixed 2 diagnostics in 1 file (SL504 ×1, SL505 ×1)."),
        "{out}"
    );
    assert!(out.contains("SL101"), "the unknown verb remains: {out}");
    let remaining = out.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert!(
        !remaining.contains("SL505") && !remaining.contains("SL504"),
        "{out}"
    );
    assert_eq!(output.status.code(), Some(1), "an error remains");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "if weather>rain: switch(x)\r\nbegin(hike)\r\n"
    );

    std::fs::write(&path, "if weather>rain then switch(x)\n").unwrap();
    let output = silp_lint(
        dir.path(),
        &["check", "--fix", "--output-format", "json", "plan.silp"],
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "nothing remains: {}",
        stdout(&output)
    );
    assert_eq!(stdout(&output).trim(), "[]");
    assert!(stderr(&output).contains("Fixed 1 diagnostic in 1 file (SL505 ×1)."));
}

/// What `check --fix` reports of the files it wrote (found by its last lint of
/// each) is what `check` reports of them afterwards, in every output format: a
/// rule past its per-file limit, a duplicate `req_id` across two fixed files, a
/// byte-order mark and CRLF, a suppression, a Markdown fence and a file with
/// nothing to fix among them.
#[test]
fn fix_reports_what_a_check_of_the_written_files_reports() {
    let files = [
        (
            "many.silp",
            format!("Begin(x)\r\n{}", "Start(y,z)\n".repeat(10_050)),
        ),
        (
            "a.silp.jsonl",
            "\u{feff}{\"intent\":\"!cancel\",\"meta\":{\"req_id\":\"a1b2c3d4\"}}\r\n".to_string(),
        ),
        (
            "b.silp.jsonl",
            "{\"intent\":\"!Start\",\"meta\":{\"req_id\":\"a1b2c3d4\"}}\n".to_string(),
        ),
        (
            "notes.md",
            "# Plan\n\n```silp\nCancel(x)\nfoo(y) # silp-lint: ignore[SL101]\n```\n".to_string(),
        ),
        ("clean.silp", "begin(x)\n".to_string()),
    ];
    for format in ["json", "json-lines", "concise", "github", "sarif"] {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in &files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let args = ["check", "--output-format", format, "."];
        let fixed = silp_lint(
            dir.path(),
            &["check", "--fix", "--output-format", format, "."],
        );
        assert!(
            stderr(&fixed).starts_with("Fixed 10054 diagnostics in 4 files"),
            "{}",
            stderr(&fixed)
        );
        let checked = silp_lint(dir.path(), &args);
        assert_eq!(stdout(&fixed), stdout(&checked), "{format}");
        assert_eq!(fixed.status.code(), checked.status.code(), "{format}");
        let report = stdout(&checked);
        for code in ["SL101", "SL303", "SL405"] {
            assert!(report.contains(code), "{format}: {code} in {report}");
        }
    }
}

/// A library with nothing to fix is reported by `check --fix` as `check` reports
/// it (each file from the fix engine's lint, not linted twice), and every file
/// stays as it was: a suppression used only by a finding past its rule's limit
/// (the 10,001st SL405 of the file) is used, not deleted as unused.
#[test]
fn fix_of_a_library_with_nothing_to_fix_reports_as_check_and_writes_nothing() {
    let files = [
        (
            "limit.silp",
            format!(
                "{}book(a,b) # silp-lint: ignore[SL405]\n",
                "book(a,b)\n".repeat(10_000)
            ),
        ),
        (
            "a.silp.jsonl",
            "{\"intent\":\"!CANCEL\",\"meta\":{\"req_id\":\"a1b2c3d4\"}}\r\n".to_string(),
        ),
        (
            "b.silp.jsonl",
            "\u{feff}{\"intent\":\"!START\",\"meta\":{\"req_id\":\"a1b2c3d4\"}}\n".to_string(),
        ),
        ("notes.md", "# Plan\n\n```silp\nfoo(y)\n```\n".to_string()),
        ("clean.silp", "begin(x)\n".to_string()),
    ];
    for format in ["concise", "json"] {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in &files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let fixed = silp_lint(
            dir.path(),
            &["check", "--fix", "--output-format", format, "."],
        );
        assert!(
            stderr(&fixed).starts_with("Fixed 0 diagnostics in 0 files."),
            "{}",
            stderr(&fixed)
        );
        for (name, text) in &files {
            let now = std::fs::read_to_string(dir.path().join(name)).unwrap();
            assert_eq!(&now, text, "{name}");
        }
        let checked = silp_lint(dir.path(), &["check", "--output-format", format, "."]);
        assert_eq!(stdout(&fixed), stdout(&checked), "{format}");
        assert_eq!(fixed.status.code(), checked.status.code(), "{format}");
        let report = stdout(&checked);
        for code in ["SL101", "SL303", "SL405"] {
            assert!(report.contains(code), "{format}: {code} in {report}");
        }
        assert!(!report.contains("SL801"), "{format}: {report}");
    }
}

/// A file whose report alone holds more diagnostics than a run keeps for its
/// written files (three rules past their limit, with refused fixes beside them)
/// is still reported as `check` reports it afterwards.
#[test]
fn fix_reports_a_file_past_the_runs_report_budget_as_check_does() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("refused.silp");
    std::fs::write(&path, "\u{ad}\nCancel(x)\n".repeat(10_001)).unwrap();
    let fixed = silp_lint(
        dir.path(),
        &["check", "--fix", "--output-format", "json", "."],
    );
    assert!(
        stderr(&fixed).contains("Fixed 10001 diagnostics in 1 file (SL104"),
        "{}",
        stderr(&fixed)
    );
    assert!(stderr(&fixed).contains(
        "refusing to apply the SL204 fix: the file would hold 10001 payloads instead of \
         20002 payloads (the payload at 1:1 would disappear)"
    ));
    let checked = silp_lint(dir.path(), &["check", "--output-format", "json", "."]);
    assert_eq!(stdout(&fixed), stdout(&checked));
    // The refusals are errors; the report alone fails the check.
    assert_eq!(fixed.status.code(), Some(2));
    assert_eq!(checked.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_str(&stdout(&checked)).unwrap();
    assert!(report.as_array().unwrap().len() > 30_000);
}

#[test]
fn fix_never_touches_a_file_it_was_not_asked_to() {
    let dir = tempfile::tempdir().unwrap();
    let asked = dir.path().join("asked.silp");
    let other = dir.path().join("other.silp");
    let clean = dir.path().join("clean.silp");
    std::fs::write(&asked, "start( a )\n").unwrap();
    std::fs::write(&other, "start( b )\n").unwrap();
    std::fs::write(&clean, "start(c)\n").unwrap();
    #[cfg(unix)]
    let (other_inode, clean_inode) = (inode(&other), inode(&clean));
    let output = silp_lint(dir.path(), &["check", "--fix", "asked.silp", "clean.silp"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(std::fs::read_to_string(&asked).unwrap(), "start(a)\n");
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "start( b )\n");
    assert_eq!(std::fs::read_to_string(&clean).unwrap(), "start(c)\n");
    #[cfg(unix)]
    {
        assert_eq!(inode(&other), other_inode);
        assert_eq!(
            inode(&clean),
            clean_inode,
            "a file without fixes is not rewritten"
        );
    }
}

#[test]
fn read_only_files_get_a_clear_error_and_stay_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("locked.silp");
    let text = "start( a )\n";
    std::fs::write(&path, text).unwrap();
    let mut permissions = std::fs::metadata(&path).unwrap().permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&path, permissions).unwrap();

    let output = silp_lint(dir.path(), &["fmt", "locked.silp"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("locked.silp: the file is read-only; left unchanged"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);

    let output = silp_lint(dir.path(), &["check", "--fix", "locked.silp"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("read-only"), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("Fixed 0 diagnostics in 0 files."),
        "{}",
        stdout(&output)
    );
    assert!(
        stdout(&output).contains("SL504"),
        "the diagnostic remains: {}",
        stdout(&output)
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn fix_with_overlapping_null_members_keeps_json_valid() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.silp.jsonl");
    std::fs::write(
        &path,
        "{\"silp\":\"v1\",\"intent\":\"!START\",\"entities\":[{\"id\":\"act\",\"value\":\"hike\"}],\"meta\":{\"req_id\":\"a1b2c3d4\",\"next_agent\":null,\"session_id\":null}}\n",
    )
    .unwrap();
    let output = silp_lint(dir.path(), &["check", "--fix", "."]);
    assert!(
        stdout(&output).contains("Fixed 2 diagnostics in 1 file (SL408 ×2)."),
        "{}",
        stdout(&output)
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let value: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(value["meta"], serde_json::json!({"req_id": "a1b2c3d4"}));
}

#[test]
fn fix_refuses_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let output = silp_lint(dir.path(), &["check", "--fix", "-"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("standard input"));
}

#[test]
fn fmt_formats_standard_input_to_standard_output() {
    use std::io::Write;
    let run = |args: &[&str], input: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_silp-lint"))
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let output = run(&["fmt", "-"], "start( a )\r\n");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "start(a)\r\n");
    let output = run(
        &["fmt", "--stdin-filename", "x.slip", "-"],
        "SLIP  v1 a b Accept\n",
    );
    assert_eq!(stdout(&output), "SLIP v1 a b Accept\n");
    let output = run(&["fmt", "--check", "-"], "start( a )\n");
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("Would reformat: -"));
}

#[test]
fn payloads_carried_in_nlip_are_neither_reported_nor_formatted() {
    let text = r#"{"format":"text","subformat":"silp","content":"start( hike )"}"#;
    let lint = lint_text(text, FileKind::Nlip, &only("SL504"));
    assert!(lint.diagnostics.is_empty(), "{:?}", lint.diagnostics);
    assert_eq!(format_text(text, FileKind::Nlip), text);
}

#[test]
fn fixes_inside_a_payload_carried_in_nlip_are_judged_by_that_payload() {
    let text = r#"{"format":"text","subformat":"silp","content":"if weather>rain then switch(x)"}"#;
    let fixed = fix_text(text, FileKind::Nlip, &Settings::default(), false).unwrap();
    assert_eq!(
        fixed.text,
        r#"{"format":"text","subformat":"silp","content":"if weather>rain: switch(x)"}"#
    );
    assert!(payload_meanings(text, FileKind::Nlip).len() >= 2);
}

#[test]
fn fmt_and_fix_skip_what_the_configuration_excludes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("silp-lint.toml"),
        "exclude = [\"vendor/**\"]\n",
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("vendor")).unwrap();
    let vendored = dir.path().join("vendor/third.silp");
    std::fs::write(&vendored, "start( a )\n").unwrap();
    std::fs::write(dir.path().join("own.silp"), "start( b )\n").unwrap();
    let output = silp_lint(dir.path(), &["fmt", "."]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let output = silp_lint(dir.path(), &["check", "--fix", "."]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&vendored).unwrap(), "start( a )\n");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("own.silp")).unwrap(),
        "start(b)\n"
    );
}

#[test]
fn removing_an_unused_suppression_on_the_first_line_keeps_the_byte_order_mark() {
    let text = "\u{feff}# silp-lint: ignore[SL101]\r\ncancel(x)\r\n";
    let fixed = fix_text(text, FileKind::Silp, &Settings::default(), false).unwrap();
    assert_eq!(visible(&fixed.text), "<BOM>cancel(x)<CRLF>\n");
}

/// The text of a committed `fix_fmt` fuzz input (its first byte picks the kind).
fn fuzz_input(name: &str) -> (FileKind, String) {
    let bytes = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/corpus/fix_fmt")
            .join(name),
    )
    .expect("the regression input is committed");
    let kind = [FileKind::Silp, FileKind::Slip][usize::from(bytes[0])];
    (kind, String::from_utf8_lossy(&bytes[1..]).into_owned())
}

/// What a second `--fix` of `text` fixes after a first one.
fn fixed_by_a_second_run(text: &str, kind: FileKind) -> usize {
    let settings = Settings::default();
    let first = fix_text(text, kind, &settings, false).expect("some fixes apply");
    fix_text(&first.text, kind, &settings, false).map_or(0, |again| again.applied)
}

/// Found by the `fix_fmt` fuzzer: one refused deletion of U+FE0F (the payload would
/// no longer parse) held back the same deletion in another payload, so a second
/// `--fix` still had something to fix. One run now does all it can.
#[test]
fn a_refused_fix_does_not_hold_back_the_same_fix_elsewhere() {
    let (kind, text) = fuzz_input("regression_refused_fix_held_back_the_same_fix_elsewhere");
    let first = fix_text(&text, kind, &Settings::default(), false).expect("some fixes apply");
    assert!(!first.refused.is_empty(), "the input has a refused fix");
    assert_eq!(fixed_by_a_second_run(&text, kind), 0);
}

/// Found by the `fix_fmt` fuzzer: deleting an unused suppression on line 1 alone
/// would have made line 2's U+FEFF a byte-order mark, so it was refused; the round
/// after deleted the U+FEFF, and the suppression's deletion, now safe, was left for
/// a second run. Refused fixes are tried again once the text has moved on.
#[test]
fn a_fix_refused_before_another_fix_made_it_safe_is_applied_in_the_same_run() {
    let (kind, text) = fuzz_input("regression_fix_refused_before_another_fix_made_it_safe");
    let fixed = fix_text(&text, kind, &Settings::default(), false).expect("some fixes apply");
    assert!(fixed.by_rule.contains_key("SL801"), "{:?}", fixed.by_rule);
    assert!(fixed.refused.is_empty(), "{:?}", fixed.refused);
    assert_eq!(fixed_by_a_second_run(&text, kind), 0);
}
