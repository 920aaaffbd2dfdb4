//! Replays the committed fuzz corpora (`fuzz/corpus/<target>/`) through the fuzz
//! targets' own checks, so what fuzzing found stays fixed in an ordinary
//! `cargo test`, without nightly or libFuzzer (`fuzz/README.md` says how to fuzz).

#[path = "../fuzz/src/properties.rs"]
mod properties;

fn replay(target: &str, check: fn(&[u8])) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("the corpus is committed") {
        let path = entry.unwrap().path();
        // A fuzzer running on this corpus replaces inputs as it shrinks them.
        let data = match std::fs::read(&path) {
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => continue,
            read => read.unwrap(),
        };
        let result = std::panic::catch_unwind(|| check(&data));
        assert!(result.is_ok(), "{target}: {} fails", path.display());
        count += 1;
    }
    assert!(count > 0, "{target}: an empty corpus");
}

#[test]
fn parse_corpus() {
    replay("parse", properties::parse_target);
}

#[test]
fn lint_corpus() {
    replay("lint", properties::lint_target);
}

#[test]
fn fix_fmt_corpus() {
    replay("fix_fmt", properties::fix_fmt_target);
}

#[test]
fn json_corpus() {
    replay("json", properties::json_target);
}

#[test]
fn lsp_edits_corpus() {
    replay("lsp_edits", properties::lsp_edits_target);
}
