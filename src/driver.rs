//! Runs over paths, for the CLI: `check` (read every file in parallel, lint it,
//! then run the cross-file rules), `fmt` and `--fix`. Each finds its files as
//! `check` does and reads and writes them through `fs`; what is done to a text
//! is the library's pure functions (`lint`, `format`, `fix`). Front ends decide
//! only how to show the result.

use crate::config::Resolver;
use crate::diagnostics::Diagnostic;
use crate::fix::{fix_text, verify_same_meaning};
use crate::format::{format_text, formats};
use crate::fs::{decode_utf8, file_identity, read_source, write_atomic, SourceFile};
use crate::lint::{cross_file, lint_text, sort_and_dedup, LintedFile};
use crate::rules::ReqIdFact;
use crate::settings::Settings;
use crate::source::FileKind;
use crate::walk::{walk, Exclusion, FileToLint, Walk};
use rayon::prelude::*;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

/// One linted file. Its text is not kept (a run over a large library would hold it
/// all): [`CheckedFile::source`] reads it again for display, except for standard
/// input, whose text is kept.
#[derive(Debug)]
pub struct CheckedFile {
    pub path: String,
    pub kind: FileKind,
    pub stdin_text: Option<String>,
    pub settings: Arc<Settings>,
    pub diagnostics: Vec<Diagnostic>,
}

/// The result of a run: files in path order, and inputs that could not be read.
#[derive(Debug, Default)]
pub struct CheckRun {
    pub files: Vec<CheckedFile>,
    pub errors: Vec<String>,
}

/// Text given on standard input, with the name that says its kind.
pub struct StdinSource {
    pub name: String,
    pub text: Vec<u8>,
}

/// What files a run lints and how: configuration lookup and CLI overrides.
pub struct CheckOptions {
    pub resolver: Arc<Resolver>,
    /// Apply configuration excludes to explicitly named files too.
    pub force_exclude: bool,
}

impl CheckOptions {
    /// The files under `paths`, found as every command finds them.
    fn walk(&self, paths: &[String]) -> Walk {
        let resolver = Arc::clone(&self.resolver);
        let excluded: Exclusion = Arc::new(move |path, is_dir| resolver.is_excluded(path, is_dir));
        walk(paths, &excluded, self.force_exclude)
    }
}

/// Lints `paths` (and `stdin`, when given), each file with the settings of its
/// configuration. No paths and no standard input lints the current directory.
pub fn check(paths: &[String], stdin: Option<StdinSource>, options: &CheckOptions) -> CheckRun {
    // Standard input alone lints nothing else; no paths and no standard input
    // walks the current directory.
    let walked = if paths.is_empty() && stdin.is_some() {
        Walk::default()
    } else {
        options.walk(paths)
    };
    let mut run = CheckRun {
        errors: walked.errors,
        ..CheckRun::default()
    };
    let settings_for = |path: &str| {
        options
            .resolver
            .settings_for(Path::new(path))
            .map_err(|e| e.to_string())
    };
    let lint_file = |file: &FileToLint| {
        let settings = match settings_for(&file.path) {
            Ok(settings) => settings,
            Err(error) => return (Err(error), Vec::new()),
        };
        match read_source(&file.path) {
            Ok(text) => lint_one(file.path.clone(), file.kind, &text, settings),
            Err(error) => (Err(error), Vec::new()),
        }
    };
    // One file (the pre-commit and editor-save case) is linted on this thread:
    // starting a thread pool would cost more than the lint.
    let mut results: Vec<Linted> = if walked.files.len() > 1 {
        walked.files.par_iter().map(lint_file).collect()
    } else {
        walked.files.iter().map(lint_file).collect()
    };
    if let Some(stdin) = stdin {
        let kind = FileKind::from_path(&stdin.name).unwrap_or(FileKind::Silp);
        let excluded =
            options.force_exclude && options.resolver.is_excluded(Path::new(&stdin.name), false);
        if !excluded {
            results.push(
                match (
                    settings_for(&stdin.name),
                    decode_utf8(&stdin.name, stdin.text),
                ) {
                    (Ok(settings), Ok(text)) => {
                        let (result, ids) = lint_one(stdin.name, kind, &text, settings);
                        (
                            result.map(|file| CheckedFile {
                                stdin_text: Some(text),
                                ..file
                            }),
                            ids,
                        )
                    }
                    (Err(error), _) | (_, Err(error)) => (Err(error), Vec::new()),
                },
            );
        }
    }
    let mut linted = Vec::with_capacity(results.len());
    for (result, ids) in results {
        match result {
            Ok(file) => linted.push((file, ids)),
            Err(error) => run.errors.push(error),
        }
    }
    // Standard input takes its place among the files by its `--stdin-filename`.
    linted.sort_by(|(a, _), (b, _)| a.path.cmp(&b.path));
    let (files, req_ids): (Vec<CheckedFile>, Vec<Vec<ReqIdFact>>) = linted.into_iter().unzip();
    run.files = files;
    run.errors.sort();
    run.errors.dedup();
    let views: Vec<LintedFile> = run
        .files
        .iter()
        .zip(&req_ids)
        .map(|(file, ids)| LintedFile {
            path: &file.path,
            settings: &file.settings,
            req_ids: ids,
        })
        .collect();
    let extra = cross_file(&views);
    for (index, diagnostic) in extra {
        run.files[index].diagnostics.push(diagnostic);
        sort_and_dedup(&mut run.files[index].diagnostics);
    }
    run
}

type Linted = (Result<CheckedFile, String>, Vec<ReqIdFact>);

impl CheckedFile {
    /// The file's text, for showing its diagnostics: standard input as it was read,
    /// a file read again from disk.
    pub fn source(&self) -> Result<std::borrow::Cow<'_, str>, String> {
        match &self.stdin_text {
            Some(text) => Ok(std::borrow::Cow::Borrowed(text)),
            None => read_source(&self.path).map(std::borrow::Cow::Owned),
        }
    }
}

fn lint_one(path: String, kind: FileKind, text: &str, settings: Arc<Settings>) -> Linted {
    let mut lint = lint_text(text, kind, &settings);
    // Held until the run's cross-file pass: without the growth slack.
    lint.diagnostics.shrink_to_fit();
    lint.req_ids.shrink_to_fit();
    let file = CheckedFile {
        path,
        kind,
        stdin_text: None,
        settings,
        diagnostics: lint.diagnostics,
    };
    (Ok(file), lint.req_ids)
}

/// What `check --fix` did to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixedFile {
    pub path: String,
    /// How many diagnostics' fixes were applied and written.
    pub applied: usize,
    /// How many of them each rule had, by code.
    pub by_rule: BTreeMap<&'static str, usize>,
    /// Fixes the meaning check refused (the file's other fixes were applied).
    pub refused: Vec<String>,
}

/// What `fmt` did (or, with `check`, would do) to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormattedFile {
    pub path: String,
    /// Whether the file is (or would be) rewritten.
    pub changed: bool,
}

/// The result of a command that rewrites files (`--fix`, `fmt`): what it did to
/// each file, in path order, and errors (unreadable inputs, refused rewrites,
/// failed writes; those files are left as they were).
#[derive(Debug)]
pub struct RewriteRun<T> {
    pub files: Vec<T>,
    pub errors: Vec<String>,
}

pub type FixRun = RewriteRun<FixedFile>;
pub type FormatRun = RewriteRun<FormattedFile>;

impl FixRun {
    /// How many diagnostics were fixed, over all files.
    pub fn applied(&self) -> usize {
        self.files.iter().map(|f| f.applied).sum()
    }

    /// How many diagnostics each rule had fixed, over all files, by code.
    pub fn by_rule(&self) -> BTreeMap<&'static str, usize> {
        let mut total = BTreeMap::new();
        for file in &self.files {
            for (code, count) in &file.by_rule {
                *total.entry(*code).or_insert(0) += count;
            }
        }
        total
    }
}

/// Runs `rewrite` on every walked file, in path order; `Ok(None)` leaves a file out
/// of the result. Names of one file on disk (hard links, a symbolic link and its
/// target) are rewritten one after another, so that a later name reads what an
/// earlier one wrote instead of finding its file changed since it was read; other
/// files in parallel.
fn rewrite_each<T: Send>(
    walked: Walk,
    rewrite: impl Fn(&FileToLint) -> Result<Option<T>, String> + Sync + Send,
) -> RewriteRun<T> {
    let mut names_of_one_file: Vec<Vec<usize>> = Vec::new();
    let mut group_of: HashMap<(u64, u64), usize> = HashMap::new();
    for (index, file) in walked.files.iter().enumerate() {
        match file_identity(&file.path) {
            Some(identity) => match group_of.entry(identity) {
                Entry::Occupied(group) => names_of_one_file[*group.get()].push(index),
                Entry::Vacant(group) => {
                    group.insert(names_of_one_file.len());
                    names_of_one_file.push(vec![index]);
                }
            },
            None => names_of_one_file.push(vec![index]),
        }
    }
    let mut results: Vec<(usize, Result<Option<T>, String>)> = names_of_one_file
        .into_par_iter()
        .flat_map_iter(|names| {
            names
                .into_iter()
                .map(|index| (index, rewrite(&walked.files[index])))
        })
        .collect();
    results.sort_by_key(|(index, _)| *index);
    let results = results.into_iter().map(|(_, result)| result);
    let mut run = RewriteRun {
        files: Vec::new(),
        errors: walked.errors,
    };
    for result in results {
        match result {
            Ok(Some(file)) => run.files.push(file),
            Ok(None) => {}
            Err(error) => run.errors.push(error),
        }
    }
    run
}

/// Applies the fixes of every file under `paths` in place. Only files that change
/// are written, each atomically and only when unchanged since it was read (see
/// [`write_atomic`]). Each file is linted with the settings of its configuration,
/// as `check` does.
pub fn fix_paths(paths: &[String], options: &CheckOptions, unsafe_fixes: bool) -> FixRun {
    let mut run = rewrite_each(options.walk(paths), |file| {
        let settings = options
            .resolver
            .settings_for(Path::new(&file.path))
            .map_err(|e| e.to_string())?;
        let source = SourceFile::read(&file.path)?;
        let fixed = fix_text(&source.text, file.kind, &settings, unsafe_fixes)
            .map_err(|error| format!("{}: {error}; file left unchanged", file.path))?;
        if fixed.text == source.text {
            return Ok(None);
        }
        write_atomic(&file.path, &source, &fixed.text)?;
        Ok(Some(FixedFile {
            path: file.path.clone(),
            applied: fixed.applied,
            by_rule: fixed.by_rule,
            refused: fixed.refused,
        }))
    });
    for file in &run.files {
        for refusal in &file.refused {
            run.errors.push(format!(
                "{}: {refusal}; that fix was left out, the others were applied",
                file.path
            ));
        }
    }
    run
}

/// Formats the `.silp`, `.slip` and Markdown files under `paths` in place, or with
/// `check` only reports which would change. A file is written only when it changes,
/// atomically, after checking that every payload still means the same, and only
/// when unchanged since it was read. Files are found as `check` finds them
/// (configuration `exclude` included); rule selection does not apply: fmt always
/// prints the canonical form.
pub fn format_paths(paths: &[String], options: &CheckOptions, check: bool) -> FormatRun {
    rewrite_each(options.walk(paths), |file| {
        if !formats(file.kind) {
            return Ok(None);
        }
        let source = SourceFile::read(&file.path)?;
        let formatted = format_text(&source.text, file.kind);
        let changed = formatted != source.text;
        if changed && !check {
            verify_same_meaning(&source.text, &formatted, file.kind)
                .map_err(|error| format!("{}: {error}", file.path))?;
            write_atomic(&file.path, &source, &formatted)?;
        }
        Ok(Some(FormattedFile {
            path: file.path.clone(),
            changed,
        }))
    })
}
