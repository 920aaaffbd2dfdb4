//! Data safety and false passes, on the built binary (docs/writing-files.md): paths
//! that are not files are errors and streams stop at 64 MiB.
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_silp-lint");
const STREAM_ERROR: &str = "longer than 64 MiB, the most silp-lint reads from a stream";

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Asserts that a run failed with exit status 2 printing `error: {message}`, and
/// did not say that everything passed.
fn assert_error(output: &Output, message: &str, context: &str) {
    assert_eq!(
        output.status.code(),
        Some(2),
        "{context}: {}",
        stderr(output)
    );
    assert!(
        stderr(output).contains(&format!("error: {message}")),
        "{context}: {}",
        stderr(output)
    );
    assert!(!stdout(output).contains("All checks passed"), "{context}");
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
}

#[test]
fn named_fifos_and_devices_are_errors_not_passes() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.silp");
    mkfifo(&fifo);
    let fifo = fifo.to_str().unwrap();
    for (path, kind) in [
        (fifo, "a FIFO (named pipe)"),
        ("/dev/zero", "a character device"),
        ("/dev/null", "a character device"),
    ] {
        let message =
            format!("{path}: {kind}, not a regular file (silp-lint reads standard input as `-`)");
        for command in [
            &["check", path][..],
            &["fmt", path],
            &["check", "--fix", path],
        ] {
            assert_error(&run(command), &message, &format!("{command:?}"));
        }
    }
    let output = run(&["convert", "--to", "json", fifo]);
    assert_error(&output, &format!("{fifo}: a FIFO (named pipe)"), "convert");
}

#[test]
fn a_process_substitution_is_an_error_not_a_pass() {
    let output = Command::new("bash")
        .args(["-c", r#""$0" check <(printf 'start(hike)\n')"#, BIN])
        .output()
        .expect("bash runs");
    assert_error(&output, "/dev/fd/", "check <(...)");
    assert!(stderr(&output).contains(": a FIFO (named pipe), not a regular file"));
}

#[test]
fn an_endless_standard_input_stops_at_the_limit() {
    for args in [
        &["check", "-"][..],
        &["fmt", "-"],
        &["convert", "--to", "json", "-"],
    ] {
        let output = Command::new(BIN)
            .args(args)
            .stdin(std::fs::File::open("/dev/zero").unwrap())
            .output()
            .expect("the binary runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&output),
            format!("error: cannot read standard input: {STREAM_ERROR}\n"),
            "{args:?}"
        );
    }
}

#[test]
fn an_endless_configuration_stops_at_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.silp");
    std::fs::write(&file, "start(hike)\n").unwrap();
    let output = run(&["check", "--config", "/dev/zero", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        format!("error: /dev/zero: cannot read the configuration: {STREAM_ERROR}\n")
    );
}
