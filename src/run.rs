//! A whole `check` run: read every file (in parallel), lint it, then run the
//! cross-file rules. Front ends decide only how to show the result.

use crate::config::Resolver;
use crate::diagnostics::Diagnostic;
use crate::lint::{cross_file, lint_text, sort_and_dedup, LintedFile};
use crate::rules::ReqIdFact;
use crate::settings::Settings;
use crate::source::{FileKind, LineIndex};
use crate::walk::{describe_io, walk};
use rayon::prelude::*;
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
    pub settings: Settings,
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

/// Reads a file as UTF-8, saying where the encoding breaks when it is not.
pub fn read_source(path: &str) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {}", describe_io(&e)))?;
    decode_utf8(path, bytes)
}

/// Decodes UTF-8, or names the line, column and byte of the first invalid byte.
pub fn decode_utf8(path: &str, bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|error| {
        let valid = error.utf8_error().valid_up_to();
        let bytes = error.as_bytes();
        let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
        let at = LineIndex::new(prefix).location(prefix, valid);
        format!(
            "{path}: not valid UTF-8 at line {}, column {} (byte {valid}); silp-lint reads UTF-8 text only",
            at.line, at.column
        )
    })
}

/// What files a run lints and how: configuration lookup and CLI overrides.
pub struct CheckOptions {
    pub resolver: Arc<Resolver>,
    /// Apply configuration excludes to explicitly named files too.
    pub force_exclude: bool,
}

/// Lints `paths` (and `stdin`, when given), each file with the settings of its
/// configuration. No paths and no standard input lints the current directory.
pub fn check(paths: &[String], stdin: Option<StdinSource>, options: &CheckOptions) -> CheckRun {
    // Standard input alone lints nothing else; no paths and no standard input
    // walks the current directory.
    let walked = if paths.is_empty() && stdin.is_some() {
        crate::walk::Walk::default()
    } else {
        walk(paths, &options.resolver, options.force_exclude)
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
    let lint_file = |file: &crate::walk::FileToLint| {
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

fn lint_one(path: String, kind: FileKind, text: &str, settings: Settings) -> Linted {
    let lint = lint_text(text, kind, &settings);
    let file = CheckedFile {
        path,
        kind,
        stdin_text: None,
        settings,
        diagnostics: lint.diagnostics,
    };
    (Ok(file), lint.req_ids)
}
