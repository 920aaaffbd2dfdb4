//! `silp-lint convert` as a user runs it: the reference suite through the binary,
//! standard input, multi-payload files, error locations and exit codes.

mod reference_suite;

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn silp_lint(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_silp-lint"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin");
    input
        .write_all(stdin.unwrap_or("").as_bytes())
        .expect("write stdin");
    drop(input);
    child.wait_with_output().expect("the binary finishes")
}

fn stdout(output: &Output) -> &str {
    std::str::from_utf8(&output.stdout).expect("UTF-8 output")
}

fn stderr(output: &Output) -> &str {
    std::str::from_utf8(&output.stderr).expect("UTF-8 errors")
}

#[test]
fn every_case_converts_to_the_expected_string_of_every_frontend() {
    let Some(suite) = reference_suite::reference_suite() else {
        return;
    };
    let expected = std::fs::read_to_string(suite.join("expected.jsonl")).expect("suite");
    let mut checked = 0;
    for line in expected.lines().filter(|l| !l.trim().is_empty()) {
        let expected: serde_json::Value = serde_json::from_str(line).unwrap();
        let case = expected["case"].as_str().unwrap();
        let path = suite.join(format!("{case}.silp.json"));
        let path = path.to_str().expect("a UTF-8 path");
        for frontend in ["code", "json", "natural", "nl_json"] {
            let output = silp_lint(&["convert", "--to", frontend, path], None);
            assert_eq!(output.status.code(), Some(0), "{case}: {}", stderr(&output));
            assert_eq!(
                stdout(&output),
                format!("{}\n", expected[frontend].as_str().unwrap()),
                "{case} --to {frontend}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 108);
}

#[test]
fn standard_input_is_named_by_stdin_filename_or_sniffed() {
    let code = "if !rain(t+1): start(hike) else: start(cards@indoor)\n";
    let output = silp_lint(
        &[
            "convert",
            "--to",
            "ir",
            "--req-id-length",
            "4",
            "--stdin-filename",
            "x.silp",
            "-",
        ],
        Some(code),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "{\"silp\":\"v1\",\"version\":\"ir-v0.1\",\"intent\":\"!START\",\"entities\":[{\"id\":\"act\",\"value\":\"hike\",\"action\":\"!START\"}],\"constraints\":[{\"type\":\"!rain\",\"value\":\"true\",\"time\":\"t+1\"}],\"alternatives\":[{\"action\":\"!START\",\"target\":\"cards\",\"location\":\"indoor\"}],\"meta\":{\"priority\":0,\"confidence\":1.0,\"seq\":[],\"out\":\"natural\",\"req_id\":\"e008\"}}\n"
    );
    // Without a name, JSON is recognised by its first character.
    let json = r#"{"intent":"!CANCEL","act":"flight","action_email":["zhangsan"]}"#;
    let output = silp_lint(&["convert", "--to", "code", "-"], Some(json));
    assert_eq!(stdout(&output), "cancel(flight); email(zhangsan)\n");
    // The default id length is the draft's 8.
    let output = silp_lint(&["convert", "--to", "ir", "-"], Some(code));
    assert!(
        stdout(&output).contains("\"req_id\":\"e00886a0\""),
        "{}",
        stdout(&output)
    );
}

#[test]
fn several_payloads_print_one_line_each_and_ir_lines_convert_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("travel.silp");
    std::fs::write(
        &path,
        "# travel\nif loc(me,Beijing,t+1am): cancel(flight); email(zhangsan)\n\ntranslate(src=fr, tgt=en)  # spaced\n",
    )
    .unwrap();
    let path = path.to_str().unwrap();
    let output = silp_lint(&["convert", "--to", "ir", path], None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let ir = stdout(&output).to_string();
    assert_eq!(ir.lines().count(), 2);
    let lines = dir.path().join("travel.silp.jsonl");
    std::fs::write(&lines, &ir).unwrap();
    let output = silp_lint(&["convert", "--to", "code", lines.to_str().unwrap()], None);
    assert_eq!(
        stdout(&output),
        "if loc(me,Beijing,t+1am): cancel(flight); email(zhangsan)\ntranslate(src=fr,tgt=en)\n"
    );
    // The IR output lints clean.
    let output = silp_lint(&["check", "--quiet", lines.to_str().unwrap()], None);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
}

#[test]
fn unconvertible_input_names_the_place_and_exits_1() {
    let output = silp_lint(
        &["convert", "--to", "json", "--stdin-filename", "p.silp", "-"],
        Some("start(hike)\nif !rain(t+1) start(hike)\n"),
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output).starts_with("p.silp:2:15: error: expected `:`"),
        "{}",
        stderr(&output)
    );
    let output = silp_lint(
        &["convert", "--to", "json", "--stdin-filename", "p.silp", "-"],
        Some("fetch(data) with timeout\n"),
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).starts_with("p.silp:1:13: error: `with timeout`"),
        "{}",
        stderr(&output)
    );
    let output = silp_lint(
        &[
            "convert",
            "--to",
            "code",
            "--stdin-filename",
            "p.silp.json",
            "-",
        ],
        Some("{\n  \"act\": \"x\"\n}\n"),
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).starts_with("p.silp.json:1:1: error: the payload has no `intent`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn usage_and_read_errors_exit_2() {
    for args in [
        &["convert", "--to", "code", "/nonexistent/x.silp"][..],
        &["convert", "--to", "cobol", "x.silp"],
        &["convert", "--to", "code", "--req-id-length", "3", "x.silp"],
        &["convert", "x.silp"],
    ] {
        let output = silp_lint(args, None);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::write(&path, "cancel(x)\n").unwrap();
    let output = silp_lint(&["convert", "--to", "code", path.to_str().unwrap()], None);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("cannot tell the payload kind"));
}
