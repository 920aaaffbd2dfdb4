//! The benchmark corpus of scripts/bench.sh (scripts/gen_corpus.py, run with
//! python3): the same files for the same seed, every payload kind, and planted
//! defects that `silp-lint check` finds, while a corpus without them has none.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn generate(out: &Path, seed: u32, defects: f64) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/gen_corpus.py");
    let output = Command::new("python3")
        .arg(script)
        .arg("--out")
        .arg(out)
        .args(["--payloads", "3000", "--per-file", "100"])
        .args([
            "--seed",
            &seed.to_string(),
            "--defects",
            &defects.to_string(),
        ])
        .output()
        .expect("python3 runs scripts/gen_corpus.py");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Every file below `dir` by its path relative to `dir`.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut found = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                found.insert(path.strip_prefix(dir).unwrap().to_path_buf(), bytes);
            }
        }
    }
    found
}

/// How many diagnostics of each code `silp-lint check` reports, and its exit code.
fn check(dir: &Path) -> (BTreeMap<String, usize>, Option<i32>) {
    let output = Command::new(env!("CARGO_BIN_EXE_silp-lint"))
        .arg("check")
        .arg(dir)
        .args(["--output-format", "json"])
        .output()
        .unwrap();
    let diagnostics: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();
    let mut codes = BTreeMap::new();
    for d in diagnostics {
        *codes
            .entry(d["code"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    (codes, output.status.code())
}

#[test]
fn the_same_seed_writes_the_same_corpus_and_another_seed_another() {
    let scratch = tempfile::tempdir().unwrap();
    let [first, again, other] = ["first", "again", "other"].map(|n| scratch.path().join(n));
    let summary = generate(&first, 7, 0.02);
    assert_eq!(generate(&again, 7, 0.02), summary);
    generate(&other, 8, 0.02);
    let corpus = files(&first);
    assert_eq!(corpus, files(&again));
    assert_ne!(corpus, files(&other));

    assert!(summary.starts_with("payloads 3000 files 30 "), "{summary}");
    let mut suffixes: BTreeMap<&str, usize> = BTreeMap::new();
    for path in corpus.keys() {
        let name = path.to_str().unwrap();
        let suffix = name.split_once('.').unwrap().1;
        *suffixes.entry(suffix).or_default() += 1;
    }
    let expected = [
        ("md", 6),
        ("silp", 6),
        ("silp.json", 6),
        ("silp.jsonl", 6),
        ("slip", 6),
    ];
    assert_eq!(suffixes, BTreeMap::from(expected));
}

#[test]
fn planted_defects_are_found_and_a_corpus_without_them_has_none() {
    let scratch = tempfile::tempdir().unwrap();
    let clean = scratch.path().join("clean");
    let summary = generate(&clean, 1, 0.0);
    assert!(summary.contains("planted 0 (none)"), "{summary}");
    let (codes, status) = check(&clean);
    // Payloads as agents write them: a second positional argument, `else` without `:`.
    assert_eq!(codes.keys().collect::<Vec<_>>(), ["SL405", "SL505"]);
    assert_eq!(status, Some(1));

    let faulty = scratch.path().join("faulty");
    let summary = generate(&faulty, 1, 0.2);
    for defect in [
        "zero-width",
        "look-alike",
        "unknown-verb",
        "unknown-anchor",
        "tag-characters",
        "bad-req-id",
        "unknown-field",
        "unknown-intent",
    ] {
        assert!(
            summary.contains(&format!("{defect} ")),
            "{defect}: {summary}"
        );
    }
    let (codes, _) = check(&faulty);
    for code in [
        "SL101", "SL201", "SL202", "SL204", "SL301", "SL401", "SL601",
    ] {
        assert!(codes.contains_key(code), "{code} not reported: {codes:?}");
    }
}
