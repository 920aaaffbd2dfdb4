//! Finding the files of a run: explicit files as given, directories walked like
//! ripgrep (gitignore-aware, hidden entries skipped), sorted for stable output.

use crate::fs::{describe_io, not_a_regular_file};
use crate::source::FileKind;
use std::path::Path;
use std::sync::Arc;

/// Whether a path (a file, or a directory when the flag says so) is excluded from
/// a run: the configuration's `exclude`, as the caller resolves it.
pub type Exclusion = Arc<dyn Fn(&Path, bool) -> bool + Send + Sync>;

/// A file to lint, named as the user named it (joined with the walked part).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct FileToLint {
    pub path: String,
    pub kind: FileKind,
}

/// The outcome of walking the paths of a run.
#[derive(Debug, Default)]
pub struct Walk {
    pub files: Vec<FileToLint>,
    /// Paths that could not be read or walked, with the reason.
    pub errors: Vec<String>,
}

/// Expands `paths` into the payload files below them, sorted by path. An explicit
/// file whose kind cannot be told from its name is an error; a walked one is skipped.
/// An explicit path that is neither a regular file nor a directory is an error; a
/// walked one is skipped, as ripgrep does.
/// `excluded` (the configuration's `exclude` patterns) applies to walked entries,
/// and to explicit paths too with `force_exclude` (as pre-commit passes files one
/// by one).
///
/// No paths at all walks the current directory, naming its files by the walked
/// part alone (`a.slip`): nothing was given to keep. An explicit `.` gives `./a.slip`.
pub fn walk(paths: &[String], excluded: &Exclusion, force_exclude: bool) -> Walk {
    let mut walk = Walk::default();
    if paths.is_empty() {
        walk_directory(".", Naming::WalkedPart, excluded, &mut walk);
    }
    for given in paths {
        let path = Path::new(given);
        let metadata = std::fs::metadata(path);
        let is_dir = metadata.as_ref().is_ok_and(|m| m.is_dir());
        if force_exclude && excluded(path, is_dir) {
            continue;
        }
        match metadata {
            Err(error) => walk.errors.push(format!("{given}: {}", describe_io(&error))),
            Ok(meta) if meta.is_file() => match FileKind::from_path(given) {
                Some(kind) => walk.files.push(FileToLint {
                    path: given.clone(),
                    kind,
                }),
                None => walk.errors.push(format!(
                    "{given}: not a payload file (expected .silp, .slip, .silp.json, .silp.jsonl, .nlip.json, .mcp-call.json, .a2a.json or .md)"
                )),
            },
            Ok(meta) if meta.is_dir() => {
                walk_directory(given, Naming::AsGiven, excluded, &mut walk)
            }
            // A FIFO, a device or a process substitution (`<(...)`): skipping it
            // would pass a run that linted nothing.
            Ok(meta) => walk
                .errors
                .push(not_a_regular_file(given, meta.file_type())),
        }
    }
    walk.files.sort();
    // The same file named twice (`silp-lint . ./a.slip`, `dir` and `dir/`) is
    // linted once, under the name that sorts first.
    let mut seen = std::collections::HashSet::new();
    walk.files.retain(|file| {
        let path = Path::new(&file.path);
        seen.insert(std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
    });
    walk
}

/// How the files below a walked directory are named.
#[derive(Clone, Copy)]
enum Naming {
    /// The directory as the user wrote it, then the walked part.
    AsGiven,
    /// The walked part alone (the implicit current directory).
    WalkedPart,
}

fn walk_directory(root: &str, naming: Naming, excluded: &Exclusion, walk: &mut Walk) {
    let filter = Arc::clone(excluded);
    let walker = ignore::WalkBuilder::new(root)
        .hidden(true)
        .git_ignore(true)
        .git_exclude(true)
        .require_git(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(move |entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            entry.depth() == 0 || !filter(entry.path(), is_dir)
        })
        .build();
    for entry in walker {
        match entry {
            Ok(entry) => {
                if !entry.file_type().is_some_and(|t| t.is_file()) {
                    continue;
                }
                let path = match naming {
                    Naming::AsGiven => joined(root, entry.path()),
                    Naming::WalkedPart => walked_part(root, entry.path()),
                };
                if let Some(kind) = FileKind::from_path(&path) {
                    walk.files.push(FileToLint { path, kind });
                }
            }
            Err(error) => {
                let described = describe_walk_error(&error);
                walk.errors.push(match naming {
                    Naming::AsGiven => described,
                    Naming::WalkedPart => described
                        .strip_prefix("./")
                        .map_or(described.clone(), str::to_string),
                });
            }
        }
    }
}

/// The name of a walked file: the directory exactly as the user wrote it, then the
/// walked part (`./a.slip` for `.`, `dir/x.silp` for `dir` and `dir/` alike).
fn joined(root: &str, path: &Path) -> String {
    let Ok(walked) = path.strip_prefix(root) else {
        return path.to_string_lossy().into_owned();
    };
    let walked = walked.to_string_lossy();
    if walked.is_empty() {
        return root.to_string();
    }
    let separator = std::path::MAIN_SEPARATOR;
    // `/` walked gives `/x.silp`, not `//x.silp`.
    let root = root.trim_end_matches(std::path::is_separator);
    format!("{root}{separator}{walked}")
}

/// The part of a walked `path` below `root`.
fn walked_part(root: &str, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

fn describe_walk_error(error: &ignore::Error) -> String {
    match error {
        ignore::Error::WithPath { path, err } => {
            format!("{}: {}", path.display(), describe_walk_error(err))
        }
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            describe_walk_error(err)
        }
        ignore::Error::Io(io) => describe_io(io),
        other => other.to_string(),
    }
}
