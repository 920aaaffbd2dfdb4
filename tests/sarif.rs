//! `--output-format sarif` is valid SARIF 2.1.0: checked against the official JSON
//! schema that the serde-sarif crate ships (`src/schema.json`), read from cargo's
//! registry where the dev-dependency was downloaded.

use std::path::PathBuf;
use std::process::Command;

fn official_schema() -> serde_json::Value {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .expect("CARGO_HOME or HOME is set");
    let registry = cargo_home.join("registry/src");
    let schema = std::fs::read_dir(&registry)
        .expect("cargo registry sources exist")
        .flat_map(|index| {
            std::fs::read_dir(index.unwrap().path())
                .into_iter()
                .flatten()
        })
        .map(|entry| entry.unwrap().path())
        .find(|path| {
            path.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("serde-sarif-0.8"))
        })
        .map(|dir| dir.join("src/schema.json"))
        .expect("serde-sarif (a dev-dependency) is in the registry");
    serde_json::from_str(&std::fs::read_to_string(schema).unwrap()).unwrap()
}

#[test]
fn sarif_output_validates_against_the_official_schema() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a b.silp"),
        "begin(hike)\nCancel(北京)\nswitch_tool(x)\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("w.slip"), "SLIP v1 alice bob requesttask\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_silp-lint"))
        .args(["check", ".", "--output-format", "sarif"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    let mut schema = official_schema();
    // The official schema's `language` patterns (on `run` and `toolComponent`) have
    // a stray `]` that the Rust regex engines reject when compiling the schema;
    // silp-lint never writes `language`, so those patterns are dropped and
    // everything else is kept.
    let broken = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
    for owner in ["run", "toolComponent"] {
        let language = &mut schema["definitions"][owner]["properties"]["language"];
        assert_eq!(language["pattern"], broken, "{owner}");
        language.as_object_mut().unwrap().remove("pattern");
    }
    let validator = jsonschema::validator_for(&schema).expect("the SARIF schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");

    let run = &log["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert!(rules
        .iter()
        .any(|r| r["id"] == "SL101" && r["defaultConfiguration"]["level"] == "error"));
    assert!(rules.iter().all(|r| r["help"]["text"]
        .as_str()
        .unwrap()
        .contains("## Why is this bad?")));
    let results = run["results"].as_array().unwrap();
    let unknown = results.iter().find(|r| r["ruleId"] == "SL101").unwrap();
    let location = &unknown["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "a%20b.silp");
    assert_eq!(location["region"]["startLine"], 1);
    assert_eq!(location["region"]["endColumn"], 6);
    // SL104 on `Cancel(北京)` then the fix: columns count code points.
    let excluded = results.iter().find(|r| r["ruleId"] == "SL102").unwrap();
    let replacement = &excluded["fixes"][0]["artifactChanges"][0]["replacements"][0];
    assert_eq!(replacement["insertedContent"]["text"], "switch");
    assert_eq!(replacement["deletedRegion"]["startLine"], 3);
    let rule_index = unknown["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[rule_index]["id"], "SL101");
}
