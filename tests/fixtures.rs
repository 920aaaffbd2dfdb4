//! Snapshot tests of every rule's fixtures: `tests/fixtures/<CODE>/*` is linted
//! with only that rule selected, and the rendered human output is compared with
//! `tests/snapshots/`. Every rule must have a fixture folder.

use silp_lint::lint::lint_files;
use silp_lint::render::{self, FileDiagnostics, OutputFormat};
use silp_lint::rules::registry::{self, RULES};
use silp_lint::settings::Settings;
use silp_lint::source::FileKind;
use std::path::Path;

fn render_fixture(code: &str, path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("fixture is UTF-8");
    let name = format!("{code}/{}", path.file_name().unwrap().to_string_lossy());
    let kind = FileKind::from_path(&name).expect("fixture has a payload extension");
    // A suppression is only used when the rule it names runs, so SL801's fixtures
    // run the rules they suppress too.
    let mut select = registry::matching(code);
    if code == "SL801" {
        for suppressed in ["SL1", "SL4", "SL6"] {
            select = select.union(registry::matching(suppressed));
        }
    }
    let settings = Settings::only(select);
    let diagnostics = lint_files(&[(&name, &text, kind, &settings)]).remove(0);
    let files = [FileDiagnostics {
        path: &name,
        text: &text,
        diagnostics: &diagnostics,
    }];
    let mut out = Vec::new();
    render::write(&mut out, &files, OutputFormat::Human, false).unwrap();
    let mut rendered = String::from_utf8(out).unwrap();
    let mut tally = render::Tally::default();
    tally.add(&diagnostics);
    rendered.push_str(&tally.summary());
    rendered.push('\n');
    rendered
}

#[test]
fn every_rule_has_fixtures_and_they_render_as_snapshotted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut missing = Vec::new();
    for rule in RULES {
        let code = rule.meta().code;
        let dir = root.join(code);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            missing.push(code);
            continue;
        };
        let mut paths: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        assert!(!paths.is_empty(), "{code} has an empty fixture folder");
        for path in paths {
            let rendered = render_fixture(code, &path);
            assert!(
                rendered.contains(&format!("[{code}]")),
                "{} reports nothing for {code}:\n{rendered}",
                path.display()
            );
            assert!(
                !rendered.contains('\x1b'),
                "{} renders colour sequences with colour off:\n{rendered}",
                path.display()
            );
            let snapshot = format!("{code}__{}", path.file_name().unwrap().to_string_lossy());
            insta::with_settings!({ prepend_module_to_snapshot => false, omit_expression => true }, {
                insta::assert_snapshot!(snapshot, rendered);
            });
        }
    }
    assert!(
        missing.is_empty(),
        "rules without a fixture folder: {missing:?}"
    );
}
