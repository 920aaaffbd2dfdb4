//! ARCHITECTURE.md's layer order holds: every `crate::` path outside test code in
//! `src/` names a module on an earlier line of the ```layers block, and the block
//! lists exactly the modules `src/lib.rs` declares.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The layers of ARCHITECTURE.md's ```layers block, bottom first.
fn documented_layers() -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let block = text
        .split("```layers\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("ARCHITECTURE.md has a ```layers block");
    block
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.split_whitespace().map(str::to_string).collect())
        .collect()
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file below `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`None` for `lib.rs` and the
/// binaries, which sit above every layer).
fn module_of(path: &Path) -> Option<String> {
    let relative = path.strip_prefix(root().join("src")).ok()?;
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib" && name != "bin").then(|| name.to_string())
}

/// The modules a file names as `crate::module`, outside its test module.
fn imports(text: &str) -> Vec<String> {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let name: String = code[at + "crate::".len()..]
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '_')
            .collect();
        if !name.is_empty() {
            found.push(name);
        }
    }
    found
}

#[test]
fn every_module_imports_only_from_the_layers_below_it() {
    let layers = documented_layers();
    let layer_of: BTreeMap<String, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(i, modules)| modules.iter().map(move |m| (m.clone(), i)))
        .collect();
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    let declared: Vec<String> = lib
        .lines()
        .filter_map(|line| line.strip_prefix("pub mod "))
        .map(|name| name.trim_end_matches(';').to_string())
        .collect();
    let mut documented: Vec<&String> = layer_of.keys().collect();
    documented.sort();
    let mut declared_sorted: Vec<&String> = declared.iter().collect();
    declared_sorted.sort();
    assert_eq!(
        documented, declared_sorted,
        "the ```layers block of ARCHITECTURE.md lists exactly the modules of src/lib.rs"
    );

    let mut files = Vec::new();
    sources(&root().join("src"), &mut files);
    let mut violations = Vec::new();
    for file in files {
        let Some(module) = module_of(&file) else {
            continue;
        };
        let own = layer_of[&module];
        let text = std::fs::read_to_string(&file).unwrap();
        for imported in imports(&text) {
            if imported == module {
                continue;
            }
            match layer_of.get(&imported) {
                Some(&layer) if layer < own => {}
                _ => violations.push(format!(
                    "{} ({module}) imports crate::{imported}, which is not in a layer below",
                    file.strip_prefix(root()).unwrap().display()
                )),
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn the_check_sees_imports_and_skips_tests() {
    let text = "use crate::syntax::parse;\nfn f() { crate::fs::read_source(\"x\"); }\n#[cfg(test)]\nmod tests {\n    use crate::lsp::x;\n}\n";
    assert_eq!(imports(text), ["syntax", "fs"]);
}
