//! Runs over paths, for the CLI: `check` (read every file in parallel, lint it,
//! then run the cross-file rules), `fmt` and `--fix`. Each finds its files as
//! `check` does and reads and writes them through `fs`; what is done to a text
//! is the library's pure functions (`lint`, `format`, `fix`). Front ends decide
//! only how to show the result.

use crate::config::Resolver;
use crate::diagnostics::Diagnostic;
use crate::fix::{fix_text, verify_same_meaning};
use crate::format::{format_text, formats};
use crate::fs::{
    decode_utf8, file_identity, read_bytes_into, read_source, write_atomic, SourceFile,
};
use crate::lint::{
    cross_file_findings, lint_text_diagnostics, req_id_hash, req_id_hashes, req_ids_of,
    sort_and_dedup, LintedFile,
};
use crate::render::Tally;
use crate::rules::{ReqIdFact, RunContext};
use crate::settings::Settings;
use crate::source::FileKind;
use crate::walk::{walk, Exclusion, FileToLint, Walk};
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// One linted file, handed to the front end as soon as it is linted.
#[derive(Debug)]
pub struct CheckedFile<'a> {
    pub path: &'a str,
    pub kind: FileKind,
    pub text: &'a str,
    pub settings: &'a Settings,
    pub diagnostics: Vec<Diagnostic>,
}

/// What a run leaves once every file was handed on: the count of what it found,
/// and inputs that could not be read.
#[derive(Debug, Default)]
pub struct CheckRun {
    pub tally: Tally,
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

/// How many files may be linted ahead of the first one not yet handed on: enough
/// to keep every thread busy, few enough that a run holds little at a time.
const FILES_AHEAD: usize = 64;

/// How many linted files in a row are handed on at once (see [`for_each_in_order`]).
const HANDED_AT_ONCE: usize = 16;

/// One input of a run: a file found by the walk, or standard input.
struct Input {
    path: String,
    kind: FileKind,
    /// Standard input's text (or why it is not UTF-8); files are read when linted.
    stdin: Option<Result<String, String>>,
    settings: Result<Arc<Settings>, String>,
}

impl Input {
    fn text(&self) -> Result<Cow<'_, str>, String> {
        match &self.stdin {
            Some(text) => text.as_deref().map(Cow::Borrowed).map_err(Clone::clone),
            None => read_source(&self.path).map(Cow::Owned),
        }
    }
}

/// Lints `paths` (and `stdin`, when given), each file with the settings of its
/// configuration, and hands each file to `render` as soon as it is linted (on the
/// worker threads) and what it returns to `emit`, in path order (on this thread).
/// No paths and no standard input lints the current directory. A file in
/// `fixed` (what `check --fix` linted) whose text is still the one the fix
/// engine's last lint saw is not linted again: that lint found its report.
///
/// The cross-file rule (SL303, duplicate `req_id`s) is settled first: a scan
/// without parsing finds the values each file may write, and only files holding a
/// value seen twice are parsed for their ids. So no file's report waits for the
/// end of the run, and a run holds a few dozen files at a time, and the ids and
/// places of the suspects: a file's SL303 messages are made when it is linted.
pub fn check<R: Send>(
    paths: &[String],
    stdin: Option<StdinSource>,
    options: &CheckOptions,
    fixed: FixedReports,
    render: impl Fn(&CheckedFile) -> R + Sync,
    mut emit: impl FnMut(R),
) -> CheckRun {
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
    let mut inputs: Vec<Input> = walked
        .files
        .into_iter()
        .map(|file| Input {
            settings: settings_for(&file.path),
            path: file.path,
            kind: file.kind,
            stdin: None,
        })
        .collect();
    if let Some(stdin) = stdin {
        let excluded =
            options.force_exclude && options.resolver.is_excluded(Path::new(&stdin.name), false);
        if !excluded {
            // Standard input takes its place among the files by its `--stdin-filename`.
            let at = inputs.partition_point(|input| input.path <= stdin.name);
            inputs.insert(
                at,
                Input {
                    kind: FileKind::from_path(&stdin.name).unwrap_or(FileKind::Silp),
                    settings: settings_for(&stdin.name),
                    stdin: Some(decode_utf8(&stdin.name, stdin.text)),
                    path: stdin.name,
                },
            );
        }
    }
    let suspects = req_ids_of_suspects(&inputs);
    let views: Vec<LintedFile> = suspects
        .iter()
        .map(|suspect| LintedFile {
            path: &inputs[suspect.input].path,
            settings: suspect.settings,
            req_ids: &suspect.req_ids,
        })
        .collect();
    let cross_file = RunContext::new(&views);
    let view_of: HashMap<usize, usize> = suspects
        .iter()
        .enumerate()
        .map(|(view, suspect)| (suspect.input, view))
        .collect();
    let fixed = std::sync::Mutex::new(fixed);
    let lint_input = |index: usize, input: &Input| -> Result<(R, Tally), String> {
        let settings = input.settings.as_ref().map_err(Clone::clone)?;
        let text = input.text()?;
        let known = match fixed.lock() {
            Ok(mut fixed) if !fixed.is_empty() => fixed.remove(&input.path),
            _ => None,
        };
        let mut diagnostics = match known.filter(|known| known.text_hash == text_hash(&text)) {
            Some(known) => known.diagnostics,
            None => lint_text_diagnostics(&text, input.kind, settings),
        };
        if let Some(&view) = view_of.get(&index) {
            let found = cross_file_findings(&cross_file, view);
            if !found.is_empty() {
                diagnostics.extend(found);
                sort_and_dedup(&mut diagnostics);
            }
        }
        let mut tally = Tally::default();
        tally.add(&diagnostics);
        let file = CheckedFile {
            path: &input.path,
            kind: input.kind,
            text: &text,
            settings,
            diagnostics,
        };
        Ok((render(&file), tally))
    };
    let mut take = |result: Result<(R, Tally), String>| match result {
        Ok((rendered, tally)) => {
            run.tally.merge(tally);
            emit(rendered);
        }
        Err(error) => run.errors.push(error),
    };
    for_each_in_order(&inputs, lint_input, &mut take);
    run.errors.sort();
    run.errors.dedup();
    run
}

/// `f` over `items`, on the thread pool when there are several. One item (the
/// pre-commit and editor-save case) is done on this thread: starting the pool
/// would cost more than the work.
fn map_on_pool<T: Sync, U: Send>(items: &[T], f: impl Fn(&T) -> U + Sync + Send) -> Vec<U> {
    if items.len() > 1 {
        items.par_iter().map(f).collect()
    } else {
        items.iter().map(f).collect()
    }
}

/// `f` over `items` on the pool, each result handed to `take` on this thread in
/// item order. An item is started when a thread is free and the item is fewer
/// than [`FILES_AHEAD`] past the first one not yet handed on, so no thread waits
/// at the end of a batch for its slowest file (batches of 64 cost a run of the
/// benchmark corpus on two threads 3% of its time), and threads waiting for a
/// slow file can help with its pieces. This thread is woken when [`HANDED_AT_ONCE`]
/// results in a row are done, or the last ones: waking it for each (500 times for
/// the corpus) cost more than the batches. One item is done on this thread (see
/// [`map_on_pool`]). A panic in `f` is raised again on this thread.
fn for_each_in_order<T: Sync, U: Send>(
    items: &[T],
    f: impl Fn(usize, &T) -> U + Sync,
    mut take: impl FnMut(U),
) {
    if items.len() <= 1 {
        items
            .iter()
            .enumerate()
            .for_each(|(index, item)| take(f(index, item)));
        return;
    }
    /// The results done and not yet handed on, by item, and the first item not
    /// yet handed on.
    struct Done<U> {
        results: BTreeMap<usize, std::thread::Result<U>>,
        next: usize,
    }
    impl<U> Done<U> {
        /// How many results in a row from `next` are ready to hand on: 0 until
        /// there are [`HANDED_AT_ONCE`], or the last ones of the `items`.
        fn ready(&self, items: usize) -> usize {
            let in_a_row = (self.next..)
                .take(HANDED_AT_ONCE)
                .take_while(|index| self.results.contains_key(index))
                .count();
            if in_a_row == HANDED_AT_ONCE || self.next + in_a_row == items {
                in_a_row
            } else {
                0
            }
        }
    }
    let done = std::sync::Mutex::new(Done {
        results: BTreeMap::new(),
        next: 0,
    });
    let woken = std::sync::Condvar::new();
    let (f, done, woken) = (&f, &done, &woken);
    rayon::in_place_scope(|scope| {
        let start = |index: usize| {
            scope.spawn(move |_| {
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    f(index, &items[index])
                }));
                let mut done = done.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                done.results.insert(index, result);
                if done.ready(items.len()) > 0 {
                    woken.notify_one();
                }
            });
        };
        let mut started = items.len().min(FILES_AHEAD);
        (0..started).for_each(start);
        let mut handed_on = 0;
        while handed_on < items.len() {
            let results: Vec<_> = {
                let mut done = woken
                    .wait_while(
                        done.lock().unwrap_or_else(|poisoned| poisoned.into_inner()),
                        |done| done.ready(items.len()) == 0,
                    )
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                let first = done.next;
                done.next += done.ready(items.len());
                handed_on = done.next;
                (first..done.next)
                    .filter_map(|index| done.results.remove(&index))
                    .collect()
            };
            for result in results {
                take(result.unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
                if started < items.len() {
                    start(started);
                    started += 1;
                }
            }
        }
    });
}

thread_local! {
    /// The bytes of the file a thread scans for `req_id`s: one buffer serves each
    /// thread's files, and the scan needs no decoded text.
    static SCAN_BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The largest scan buffer a thread keeps for its next file: larger files are
/// rare, and their buffers are given back at once.
const SCAN_BUFFER_KEPT: usize = 1 << 20;

/// A file that writes a `req_id` some file of the run writes too, maybe itself.
struct SuspectFile<'a> {
    /// Its index among the inputs.
    input: usize,
    settings: &'a Settings,
    req_ids: Vec<ReqIdFact>,
}

/// The `req_id`s of the files that can have a duplicate (see [`check`]), each
/// with the index of its input and its settings, in input order.
fn req_ids_of_suspects(inputs: &[Input]) -> Vec<SuspectFile<'_>> {
    let scans: Vec<Option<Vec<u64>>> = map_on_pool(inputs, |input| {
        SCAN_BUFFER.with_borrow_mut(|buffer| {
            let hashes = scan_req_ids(input, buffer);
            // A large file's buffer is not kept through the lint that follows,
            // whether or not its read succeeded.
            if buffer.capacity() > SCAN_BUFFER_KEPT {
                *buffer = Vec::new();
            }
            hashes
        })
    });
    let mut all: Vec<u64> = scans.iter().flatten().flatten().copied().collect();
    // On the pool when there is one (see `map_on_pool`): the 100,000 hashes of
    // the benchmark corpus took 0.7 ms to sort on this thread, the largest piece
    // of serial work between the walk and the lint.
    if inputs.len() > 1 {
        all.par_sort_unstable();
    } else {
        all.sort_unstable();
    }
    let seen_twice: Vec<u64> = all
        .windows(2)
        .filter(|pair| pair[0] == pair[1])
        .map(|pair| pair[0])
        .collect();
    drop(all);
    if seen_twice.is_empty() {
        return Vec::new();
    }
    let suspects: Vec<usize> = scans
        .iter()
        .enumerate()
        .filter(|(_, hashes)| {
            hashes
                .iter()
                .flatten()
                .any(|hash| seen_twice.binary_search(hash).is_ok())
        })
        .map(|(index, _)| index)
        .collect();
    drop(scans);
    map_on_pool(&suspects, |&index| {
        let input = &inputs[index];
        let settings = input.settings.as_deref().ok()?;
        let text = input.text().ok()?;
        Some(SuspectFile {
            input: index,
            settings,
            req_ids: req_ids_of(&text, input.kind, settings),
        })
    })
    .into_iter()
    .flatten()
    .collect()
}

/// The hashed `req_id`s of one input, its bytes read into `buffer`; `None` when it
/// cannot be read or decoded.
fn scan_req_ids(input: &Input, buffer: &mut Vec<u8>) -> Option<Vec<u64>> {
    let bytes = match &input.stdin {
        Some(text) => text.as_deref().ok()?.as_bytes(),
        None => {
            read_bytes_into(&input.path, buffer).ok()?;
            buffer.as_slice()
        }
    };
    match req_id_hashes(bytes) {
        Some(hashes) => Some(hashes),
        // Unscannable: parsed for its ids at once (a file that is not UTF-8
        // writes none: its lint reports the encoding).
        None => Some(
            req_ids_of(
                std::str::from_utf8(bytes).ok()?,
                input.kind,
                input.settings.as_ref().ok()?,
            )
            .iter()
            .map(|fact| req_id_hash(fact.value.as_bytes()))
            .collect(),
        ),
    }
}

/// What `check --fix` did to one file: one it wrote, or one with nothing to fix
/// whose report the fix engine's lint gave.
#[derive(Debug)]
pub struct FixedFile {
    pub path: String,
    /// Whether the fixes were written (`false`: the file had nothing to fix).
    pub written: bool,
    /// How many diagnostics' fixes were applied and written.
    pub applied: usize,
    /// How many of them each rule had, by code.
    pub by_rule: BTreeMap<&'static str, usize>,
    /// Fixes the meaning check refused (the file's other fixes were applied).
    pub refused: Vec<String>,
    /// What a report of the file's text lists, when the fix engine's last lint
    /// gave it.
    pub report: Option<FixedReport>,
}

/// What a report of a text the fix engine wrote or left unchanged lists, for
/// `check --fix` to report without linting the file again when it reads that
/// text back.
#[derive(Debug)]
pub struct FixedReport {
    /// [`text_hash`] of the text linted (written, or left as it was).
    text_hash: u64,
    diagnostics: Vec<Diagnostic>,
}

/// The reports the fix engine of `check --fix` gave, by path.
pub type FixedReports = HashMap<String, FixedReport>;

/// A hash of a file's text, to tell the text the fix engine linted from the text
/// `check` reads back (another program may change the file in between). Both are
/// hashed in the same run, so a fast hash serves: SipHash over every file of a
/// library with nothing to fix was 5% of `check --fix`.
fn text_hash(text: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::quality::FixedState::default().hash_one(text)
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
    /// Takes the reports the fix engine gave, for [`check`].
    pub fn take_reports(&mut self) -> FixedReports {
        self.files
            .iter_mut()
            .filter_map(|file| Some((file.path.clone(), file.report.take()?)))
            .collect()
    }

    /// How many files the fixes were written to.
    pub fn written(&self) -> usize {
        self.files.iter().filter(|file| file.written).count()
    }

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
    let mut results: Vec<(usize, Result<Option<T>, String>)> =
        map_on_pool(&names_of_one_file, |names| {
            names
                .iter()
                .map(|&index| (index, rewrite(&walked.files[index])))
                .collect::<Vec<_>>()
        })
        .into_iter()
        .flatten()
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

/// How many diagnostics of the fix engine's reports `check --fix` holds for its
/// report at most (about 14 MiB of the benchmark corpus's), or the first report
/// it is given when that is larger alone (`check` would hold that file's report
/// in any case): past them, a file is linted again for its report, so the run's
/// memory does not grow with the library.
const HELD_REPORT_DIAGNOSTICS: usize = 25_000;

/// Applies the fixes of every file under `paths` in place. Only files that change
/// are written, each atomically and only when unchanged since it was read (see
/// [`write_atomic`]). Each file is linted with the settings of its configuration,
/// as `check` does.
pub fn fix_paths(paths: &[String], options: &CheckOptions, unsafe_fixes: bool) -> FixRun {
    let held = std::sync::atomic::AtomicUsize::new(0);
    let mut run = rewrite_each(options.walk(paths), |file| {
        let settings = options
            .resolver
            .settings_for(Path::new(&file.path))
            .map_err(|e| e.to_string())?;
        let source = SourceFile::read(&file.path)?;
        let fixed = fix_text(&source.text, file.kind, &settings, unsafe_fixes)
            .map_err(|error| format!("{}: {error}; file left unchanged", file.path))?;
        let written = fixed.text != source.text;
        if written {
            write_atomic(&file.path, &source, &fixed.text)?;
        }
        let report = fixed
            .report
            .filter(|diagnostics| {
                let before = held.fetch_add(diagnostics.len(), Ordering::Relaxed);
                before == 0 || before + diagnostics.len() <= HELD_REPORT_DIAGNOSTICS
            })
            .map(|diagnostics| FixedReport {
                text_hash: text_hash(&fixed.text),
                diagnostics,
            });
        // A file with nothing to fix is reported from the fix engine's lint, as
        // one it wrote is: on a library with nothing to fix, `check --fix` lints
        // each file once, as `check` does, not twice. Without a report held, it
        // is linted again and there is nothing to say about it.
        if !written && report.is_none() {
            return Ok(None);
        }
        // Fixes that left the text as it was (undone by later ones) fixed nothing.
        let (applied, by_rule, refused) = if written {
            (fixed.applied, fixed.by_rule, fixed.refused)
        } else {
            (0, BTreeMap::new(), Vec::new())
        };
        Ok(Some(FixedFile {
            path: file.path.clone(),
            written,
            applied,
            by_rule,
            refused,
            report,
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A report the fix engine gave for a file is used only while the file still
    /// holds the text it was found for; otherwise the file is linted.
    #[test]
    fn a_fixed_file_is_reported_from_its_last_lint_only_while_its_text_is_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan.silp");
        let text = "Begin(x)\n";
        std::fs::write(&path, text).unwrap();
        let path = path.to_string_lossy().into_owned();
        let options = CheckOptions {
            resolver: Arc::new(Resolver::discover(Default::default())),
            force_exclude: false,
        };
        // An empty report, as though the fix engine had found nothing to report.
        let reported = |written: &str| {
            let fixed = FixedReports::from([(
                path.clone(),
                FixedReport {
                    text_hash: text_hash(written),
                    diagnostics: Vec::new(),
                },
            )]);
            let run = check(
                std::slice::from_ref(&path),
                None,
                &options,
                fixed,
                |_| (),
                |()| {},
            );
            assert!(run.errors.is_empty(), "{:?}", run.errors);
            run.tally.total()
        };
        assert_eq!(reported(text), 0, "the report given is used");
        assert_eq!(
            reported("begin(x)\n"),
            2,
            "another text is linted: SL101, SL104"
        );
    }

    /// Items taking different times are handed on in order, each once, and none
    /// is started [`FILES_AHEAD`] or more past the first not yet handed on.
    #[test]
    fn results_are_handed_on_in_item_order_within_the_window() {
        for count in [2, 15, 16, 17, 63, 64, 65, 1000] {
            let items: Vec<usize> = (0..count).collect();
            let handed_on = AtomicUsize::new(0);
            let mut seen = Vec::new();
            for_each_in_order(
                &items,
                |index, &item| {
                    assert_eq!(index, item);
                    assert!(index < handed_on.load(Ordering::SeqCst) + FILES_AHEAD);
                    // Every seventh item is slow, so later ones finish first.
                    if item % 7 == 0 {
                        std::thread::sleep(std::time::Duration::from_micros(200));
                    }
                    item * 2
                },
                |result| {
                    seen.push(result);
                    handed_on.fetch_add(1, Ordering::SeqCst);
                },
            );
            let expected: Vec<usize> = (0..count).map(|item| item * 2).collect();
            assert_eq!(seen, expected, "{count} items");
        }
    }

    /// A panic while linting one file is a panic of the run, not a hang.
    #[test]
    fn a_panic_on_the_pool_reaches_the_caller() {
        let items: Vec<usize> = (0..100).collect();
        let outcome = std::panic::catch_unwind(|| {
            for_each_in_order(
                &items,
                |_, &item| {
                    if item == 40 {
                        panic!("item 40");
                    }
                    item
                },
                |_| {},
            )
        });
        let panic = outcome.expect_err("the panic reaches the caller");
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"item 40"));
    }
}
