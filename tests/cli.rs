//! Command-line golden tests: `tests/cmd/*.md` hold shell sessions (command,
//! output, exit status) that run against the built binary.

#[test]
fn cli_sessions() {
    trycmd::TestCases::new()
        .register_bin("silp-lint", trycmd::cargo::cargo_bin!("silp-lint"))
        .case("tests/cmd/*.md")
        .case("tests/cmd/*.toml");
}
