//! Where the SILP reference suite is. It is third-party data (the reference
//! implementation's 27 cases and what it compiles them to) that stays outside the
//! repository; one setting finds it: `SILP_CONFORMANCE_DIR`, the folder holding
//! `reference-suite/`, relative to the repository root or absolute, by default
//! [`DEFAULT`] (the one place that names it).

use std::ffi::OsStr;
use std::io::Write;
use std::path::PathBuf;

const SETTING: &str = "SILP_CONFORMANCE_DIR";
const DEFAULT: &str = "../shared/conformance";

/// The suite's `reference-suite/` folder. `None` when the setting is unset and the
/// default place is empty: the calling test is then skipped, and says so on the
/// terminal. A suite that the setting names but that is not there fails the test,
/// so a run that sets it (CI does) can never skip the suite.
pub fn reference_suite() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let configured = std::env::var_os(SETTING).filter(|v| !v.is_empty());
    let dir = root.join(configured.as_deref().unwrap_or(OsStr::new(DEFAULT)));
    let suite = dir.join("reference-suite");
    if suite.join("expected.jsonl").is_file() {
        return Some(suite);
    }
    assert!(
        configured.is_none(),
        "{SETTING}={} does not hold the SILP reference suite (reference-suite/expected.jsonl)",
        dir.display()
    );
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    // Straight to the terminal: the test harness keeps a passing test's
    // `eprintln!` to itself, and a skip nobody sees would read as a pass.
    let line = format!(
        "skipped {}::{test}: the SILP reference suite is not at {DEFAULT}; \
         set {SETTING} to the folder holding reference-suite/ to run it\n",
        env!("CARGO_CRATE_NAME")
    );
    let _ = std::io::stderr().write_all(line.as_bytes());
    None
}
