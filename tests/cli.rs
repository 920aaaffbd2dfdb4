//! Command-line golden tests: `tests/cmd/*.md` hold shell sessions (command,
//! output, exit status) that run against the built binary.

#[test]
fn cli_sessions() {
    trycmd::TestCases::new()
        .register_bin("silp-lint", trycmd::cargo::cargo_bin!("silp-lint"))
        .case("tests/cmd/*.md")
        .case("tests/cmd/*.toml");
}

/// A directory named by an absolute path (with or without a trailing slash) names
/// its files by that path joined with the walked part, in every format.
#[test]
fn absolute_directories_name_their_files_as_given() {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("silp-lint-cli-abs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).expect("temporary directory");
    std::fs::write(dir.join("sub/x.silp"), "begin(hike)\n").expect("write x.silp");
    std::fs::write(dir.join("a.slip"), "SLIP v1 alice bob Bar\n").expect("write a.slip");
    let root = dir.to_str().expect("UTF-8 temporary path").to_string();
    for given in [root.clone(), format!("{root}/"), format!("{root}//")] {
        let output = Command::new(env!("CARGO_BIN_EXE_silp-lint"))
            .args(["check", "--output-format", "json-lines", &given])
            .output()
            .expect("the binary runs");
        assert_eq!(output.status.code(), Some(1), "{given}");
        let paths: Vec<String> = String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(|line| {
                let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
                value["path"].as_str().expect("a path").to_string()
            })
            .collect();
        assert_eq!(
            paths,
            [format!("{root}/a.slip"), format!("{root}/sub/x.silp")],
            "{given}"
        );
        let concise = Command::new(env!("CARGO_BIN_EXE_silp-lint"))
            .args(["check", "--output-format", "concise", &given])
            .output()
            .expect("the binary runs");
        let concise = String::from_utf8_lossy(&concise.stdout);
        assert!(
            concise.starts_with(&format!("{root}/a.slip:1:19: SL601")),
            "{concise}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The audit's case: standard input named `aa.slip` comes before `err.slip`.
#[test]
fn standard_input_is_sorted_among_the_files_in_json() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cmd/paths.in");
    let mut child = Command::new(env!("CARGO_BIN_EXE_silp-lint"))
        .current_dir(dir)
        .args([
            "check",
            "--output-format",
            "json",
            "--stdin-filename",
            "aa.slip",
            "-",
            "err.slip",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"SLIP v1 a b Foo\n")
        .expect("write stdin");
    let output = child.wait_with_output().expect("the binary finishes");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a JSON array");
    let paths: Vec<&str> = report
        .as_array()
        .expect("an array")
        .iter()
        .filter_map(|d| d["path"].as_str())
        .collect();
    assert_eq!(paths, ["aa.slip", "err.slip"]);
}

/// The README's first command: the bundled prompt library's `clean/` folder passes
/// under the default draft, and every file in `faulty/` gets a diagnostic.
#[test]
fn bundled_prompt_library_clean_passes_and_every_faulty_file_is_reported() {
    use std::process::Command;
    let run = |path: &str| {
        Command::new(env!("CARGO_BIN_EXE_silp-lint"))
            .args(["check", "--output-format", "concise", path])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("the binary runs")
    };
    let clean = run("examples/prompt-library/clean");
    assert_eq!(
        clean.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&clean.stdout)
    );
    let faulty = run("examples/prompt-library/faulty");
    assert_eq!(faulty.status.code(), Some(1));
    let reported = String::from_utf8_lossy(&faulty.stdout);
    let folder =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/prompt-library/faulty");
    for entry in std::fs::read_dir(folder).expect("faulty/ exists") {
        let name = entry
            .expect("an entry")
            .file_name()
            .into_string()
            .expect("UTF-8 name");
        let prefix = format!("examples/prompt-library/faulty/{name}:");
        assert!(
            reported.lines().any(|line| line.starts_with(&prefix)),
            "nothing reported in {name}:\n{reported}"
        );
    }
}

/// The scan before linting reads each file's bytes without decoding them, but a
/// file that is not UTF-8 takes no part in `duplicate-req-id`: it is reported as
/// unreadable, and the file whose `req_id` it repeats is clean.
#[test]
fn a_file_that_is_not_utf8_takes_no_part_in_duplicate_req_ids() {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("silp-lint-cli-not-utf8-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let payload = br#"{"intent":"!START","entities":[],"meta":{"req_id":"0000000a"}}"#;
    std::fs::write(dir.join("a.silp.jsonl"), [&payload[..], b"\n"].concat()).expect("write");
    let broken = b"{\"intent\":\"!START\",\"entities\":[],\"meta\":{\"req_id\":\"0000000a\",\"x\":\"\xff\"}}";
    std::fs::write(dir.join("b.silp.jsonl"), [&broken[..], b"\n"].concat()).expect("write");
    let output = Command::new(env!("CARGO_BIN_EXE_silp-lint"))
        .current_dir(&dir)
        .args([
            "check",
            "--output-format",
            "concise",
            "--select",
            "SL303",
            ".",
        ])
        .output()
        .expect("the binary runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(String::from_utf8_lossy(&output.stdout), "");
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: ./b.silp.jsonl: not valid UTF-8 at line 1, column 67 (byte 66); silp-lint reads UTF-8 text only\n"
    );
    assert_eq!(output.status.code(), Some(2));
}

/// `duplicate-req-id` across a run of many files (more than are linted at once),
/// with the ids written as the scan before linting must still find them: a key
/// spelled with a `\u` escape, an id in a file with another escape, a value on the
/// next line of a block-quoted fence, and standard input among the files.
#[test]
fn duplicate_req_ids_are_found_across_files_linted_apart() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = std::env::temp_dir().join(format!("silp-lint-cli-req-ids-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let payload = |id: &str| {
        format!("{{\"intent\":\"!START\",\"entities\":[],\"meta\":{{\"req_id\":\"{id}\"}}}}\n")
    };
    std::fs::write(dir.join("a000.silp.jsonl"), payload("a1b2c3d4")).expect("write");
    for i in 1..150 {
        std::fs::write(
            dir.join(format!("a{i:03}.silp.jsonl")),
            payload(&format!("{i:08x}")),
        )
        .expect("write");
    }
    std::fs::write(
        dir.join("z1.silp.json"),
        "[{\"intent\":\"!CANCEL\",\"entities\":[],\"meta\":{\"req_\\u0069d\":\"a1b2c3d4\"}}]\n",
    )
    .expect("write");
    // An escape that cannot spell the key: the scan reads past it.
    std::fs::write(
        dir.join("z3.silp.jsonl"),
        "{\"intent\":\"!START\",\"act\":\"x\\u200b\",\"entities\":[],\"meta\":{\"req_id\":\"00000009\"}}\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("z2.md"),
        "> ```silp-json\n> {\"intent\":\"!START\",\"entities\":[],\"meta\":{\"req_id\":\n>   \"00000007\"}}\n> ```\n",
    )
    .expect("write");
    let mut child = Command::new(env!("CARGO_BIN_EXE_silp-lint"))
        .current_dir(&dir)
        .args(["check", "--output-format", "concise", "--select", "SL303"])
        .args(["--stdin-filename", "a100x.silp.jsonl", "-", "."])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let stdin_payload = payload("00000064");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin_payload.as_bytes())
        .expect("write stdin");
    let output = child.wait_with_output().expect("the binary finishes");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let found: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        found,
        [
            "./a000.silp.jsonl:1:51: SL303 `req_id` `a1b2c3d4` is also written at ./z1.silp.json:1:58",
            "./a007.silp.jsonl:1:51: SL303 `req_id` `00000007` is also written at ./z2.md:3:5",
            "./a009.silp.jsonl:1:51: SL303 `req_id` `00000009` is also written at ./z3.silp.jsonl:1:67",
            "./a100.silp.jsonl:1:51: SL303 `req_id` `00000064` is also written at a100x.silp.jsonl:1:51",
            "./z1.silp.json:1:58: SL303 `req_id` `a1b2c3d4` is also written at ./a000.silp.jsonl:1:51",
            "./z2.md:3:5: SL303 `req_id` `00000007` is also written at ./a007.silp.jsonl:1:51",
            "./z3.silp.jsonl:1:67: SL303 `req_id` `00000009` is also written at ./a009.silp.jsonl:1:51",
            // Standard input sorts by its name: after `./`.
            "a100x.silp.jsonl:1:51: SL303 `req_id` `00000064` is also written at ./a100.silp.jsonl:1:51",
        ],
        "{stdout}"
    );
    assert_eq!(output.status.code(), Some(1));
}
