//! The one entry point both front ends call: text in, diagnostics out. The CLI lints
//! files with [`lint_text`] then [`cross_file`]; the language server does the same
//! over open documents, so the two cannot disagree.

use crate::diagnostics::{Diagnostic, PendingFix};
use crate::ir::{from_code, from_json, Ir};
use crate::meaning::{block_meanings, code_meaning, item_meanings, silp_meaning, PayloadMeaning};
use crate::rules::registry::RULES;
pub use crate::rules::LintedFile;
use crate::rules::{
    Context, Hook, LeftOut, ReqIdFact, RuleTable, RunContext, RunFindings, MAX_PER_RULE,
};
use crate::settings::{Draft, Settings};
use crate::source::{FileKind, Span};
use crate::syntax::code::Payload;
use crate::syntax::document::{
    is_line_oriented, line_item, parse_block, prose_around, Block, Carried, Carrier, CarrierText,
    Codes, Item, JsonText, NlipMessage, SilpBody, SilpLine,
};
use crate::syntax::json::{is_verbatim, JsonNode, JsonValue};
use crate::syntax::lines::{terminator_len, Line};
use crate::syntax::region::{regions, Region, PIECE_BYTES};
use crate::syntax::suppression::Suppression;
use crate::syntax::{Document, SyntaxError};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};

/// What linting one file found: its diagnostics, and the facts cross-file rules need.
#[derive(Debug, Default)]
pub struct FileLint {
    pub diagnostics: Vec<Diagnostic>,
    /// Every `meta.req_id` written in the file.
    pub req_ids: Vec<ReqIdFact>,
    /// The most diagnostics one rule reported, counted as its limit counts them
    /// ([`Context::most_reported`]): lints of parts of a text join into the
    /// text's own only while their sum stays within the limit.
    pub most_reported: usize,
    /// What each payload means, in file order, when the walk gathers it (the fix
    /// engine's lint of a round's result: see [`lint_text_for_fixes`]).
    pub meanings: Option<Vec<PayloadMeaning>>,
    /// In the fix engine's lint, the fix of each diagnostic with one, in position
    /// order, past each rule's limit too (where the diagnostics are not kept).
    pub fixes: Vec<PendingFix>,
}

impl FileLint {
    /// Whether a rule reported more than a report keeps ([`MAX_PER_RULE`]), so a
    /// report of the text leaves some of its diagnostics out.
    pub fn capped(&self) -> bool {
        self.most_reported > MAX_PER_RULE
    }
}

/// Lints one file's text as `kind`. A line-oriented file is linted a line at a
/// time, so a large one costs memory for its diagnostics, not for its tree.
pub fn lint_text(text: &str, kind: FileKind, settings: &Settings) -> FileLint {
    let rules = RuleTable::enabled(settings);
    walk_text(
        text,
        kind,
        Context::new(text, settings),
        &rules,
        Gather::ReqIds,
    )
}

/// The diagnostics [`lint_text`] finds, alone: for a run whose cross-file pass
/// scans the files for `req_id`s itself, so that none are gathered and located here.
pub fn lint_text_diagnostics(text: &str, kind: FileKind, settings: &Settings) -> Vec<Diagnostic> {
    let rules = RuleTable::enabled(settings);
    let ctx = Context::new(text, settings);
    walk_text(text, kind, ctx, &rules, Gather::Diagnostics).diagnostics
}

/// Walks one file's text through `rules`: a line-oriented file a line at a time,
/// any other a block at a time (a Markdown page's fences, another file's body).
fn walk_text<'a>(
    text: &'a str,
    kind: FileKind,
    ctx: Context<'a>,
    rules: &RuleTable,
    gather: Gather,
) -> FileLint {
    if is_line_oriented(kind) {
        walk_lines(text, kind, ctx, rules, gather, PIECE_BYTES)
    } else {
        walk_blocks(text, kind, ctx, rules, gather)
    }
}

/// What a walk gathers besides diagnostics.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gather {
    /// The `req_id`s written, located, for the cross-file pass.
    ReqIds,
    /// Diagnostics only.
    Diagnostics,
    /// Diagnostics, and what each payload means.
    Meanings,
}

/// Lints a parsed document.
pub fn lint_document(document: &Document, settings: &Settings) -> FileLint {
    let rules = RuleTable::enabled(settings);
    walk(
        document,
        Context::new(document.text, settings),
        &rules,
        Gather::ReqIds,
    )
}

/// What the fix engine's lint of a text finds.
#[derive(Debug)]
pub struct FixLint {
    /// The fixes of the diagnostics with one, in position order, past each rule's
    /// limit too.
    pub fixes: Vec<PendingFix>,
    /// What each payload of the text means ([`crate::meaning::payload_meanings`]),
    /// when asked for.
    pub meanings: Option<Vec<PayloadMeaning>>,
    /// The diagnostics [`lint_text_diagnostics`] finds.
    pub report: Vec<Diagnostic>,
    /// The most diagnostics one rule reported ([`FileLint::most_reported`]).
    pub most_reported: usize,
}

/// What the fix engine asks of a lint besides its fixes and report.
#[derive(Clone, Copy, Debug, Default)]
pub struct FixLintOptions {
    /// What each payload means.
    pub meanings: bool,
}

/// The fixes of the diagnostics of one file's text, past the per-rule limit of a
/// report too (the fix engine needs every fix of a file), and the diagnostics
/// [`lint_text_diagnostics`] finds, found as [`lint_text`] finds them: a
/// line-oriented file a line at a time. Asked for `meanings`, also what each
/// payload means, found on the parse the rules see: the engine checks a round's
/// result with them, so the result is not parsed again for its meanings before
/// the next round lints it. Once a text needs no more fixes, `check --fix`
/// reports its diagnostics without linting the file again.
pub fn lint_text_for_fixes(
    text: &str,
    kind: FileKind,
    settings: &Settings,
    options: FixLintOptions,
) -> FixLint {
    let rules = RuleTable::enabled(settings);
    let gather = if options.meanings {
        Gather::Meanings
    } else {
        Gather::Diagnostics
    };
    let linted = walk_text(
        text,
        kind,
        Context::with_fixes(text, settings),
        &rules,
        gather,
    );
    FixLint {
        fixes: linted.fixes,
        meanings: linted.meanings,
        report: linted.diagnostics,
        most_reported: linted.most_reported,
    }
}

/// Every `meta.req_id` written in a file, found as [`lint_text`] finds them but
/// without running any rule: the cross-file pass of a run needs them before any
/// file's report can be written.
pub fn req_ids_of(text: &str, kind: FileKind, settings: &Settings) -> Vec<ReqIdFact> {
    let ctx = Context::new(text, settings);
    walk_text(text, kind, ctx, &RuleTable::none(), Gather::ReqIds).req_ids
}

/// How many pieces of a file each thread lints in a wave ([`walk_lines`]): more
/// than one, so a thread that finishes early finds another before the wave ends.
const PIECES_PER_THREAD: usize = 2;

/// Walks the lines of a line-oriented file through `rules` as [`walk`] walks its
/// parsed document, each line's item dropped once linted. A file of several
/// pieces of `piece_bytes` has them linted in parallel and their findings joined
/// in file order: the same diagnostics, in the same order, as a walk in one go.
fn walk_lines<'a>(
    text: &'a str,
    kind: FileKind,
    ctx: Context<'a>,
    rules: &RuleTable,
    gather: Gather,
    piece_bytes: usize,
) -> FileLint {
    let mut linter = Linter::new(rules, ctx, gather);
    for region in regions(text, kind) {
        let mut pending = linter.start_region(&region);
        let pieces = region.pieces(piece_bytes);
        if pieces.len() == 1 {
            linter.lines(&region, region.lines(), text, &mut pending);
        } else {
            linter.ctx.decide_past_limit();
            // A wave of pieces is absorbed before the next starts, whose pieces then
            // count a rule the file has reported to its limit without keeping its
            // reports: a file with findings on every line holds a wave's reports, not
            // every piece's (23 MB of schema violations held 145 MiB).
            for wave in pieces.chunks(PIECES_PER_THREAD * rayon::current_num_threads()) {
                let linted = wave
                    .par_iter()
                    .map(|piece| {
                        let mut part = Linter::new(rules, linter.ctx.piece(), gather);
                        let mut pending = Vec::new();
                        part.lines(&region, region.lines_of(piece.clone()), text, &mut pending);
                        part.suppressions.append(&mut pending);
                        part
                    })
                    .collect();
                linter.absorb(linted);
            }
        }
        linter.suppressions.append(&mut pending);
    }
    linter.finish(text)
}

/// Walks a file a block at a time: each region (a Markdown page's fence, another
/// file's body) is parsed, linted and dropped before the next, as [`walk`] would
/// lint the file's parse, so a page of many fences never holds all their trees
/// (450,000 fences took 578 MiB).
fn walk_blocks<'a>(
    text: &'a str,
    kind: FileKind,
    ctx: Context<'a>,
    rules: &RuleTable,
    gather: Gather,
) -> FileLint {
    let mut linter = Linter::new(rules, ctx, gather);
    let regions = regions(text, kind);
    for prose in prose_around(text, kind, &regions) {
        linter.prose(prose);
    }
    let mut meanings = (gather == Gather::Meanings).then(Vec::new);
    for region in regions {
        let block = parse_block(region);
        linter.block_of_page(&block);
        if let Some(meanings) = &mut meanings {
            block_meanings(&block, meanings);
        }
    }
    FileLint {
        meanings,
        ..linter.finish(text)
    }
}

/// Walks a document's payloads through `rules`. With no rules it only collects the
/// `req_id`s, skipping the decoding nothing would look at.
fn walk<'a>(
    document: &Document<'a>,
    ctx: Context<'a>,
    rules: &RuleTable,
    gather: Gather,
) -> FileLint {
    let mut linter = Linter::new(rules, ctx, gather);
    linter.document(document);
    linter.finish(document.text)
}

/// Sorts diagnostics by position then code, dropping exact repeats.
pub fn sort_and_dedup(diagnostics: &mut Vec<Diagnostic>) {
    let key = |d: &Diagnostic| (d.span.start, d.span.end, d.rule.code);
    // A stable sort takes a buffer of half the list (56 MB for a million
    // diagnostics), and a file walked in order mostly reports in order already.
    if !diagnostics.is_sorted_by(|a, b| key(a) <= key(b)) {
        diagnostics.sort_by(|a, b| key(a).cmp(&key(b)));
    }
    diagnostics
        .dedup_by(|a, b| a.span == b.span && a.rule.code == b.rule.code && a.message == b.message);
}

/// Sorts fixes as [`sort_and_dedup`] sorts their diagnostics, dropping exact
/// repeats.
fn sort_and_dedup_fixes(fixes: &mut Vec<PendingFix>) {
    let key = |f: &PendingFix| (f.span.start, f.span.end, f.rule.code);
    if !fixes.is_sorted_by(|a, b| key(a) <= key(b)) {
        fixes.sort_by(|a, b| key(a).cmp(&key(b)));
    }
    fixes.dedup();
}

/// The `req_id` values a file's bytes may write, hashed, found by scanning for the
/// key without decoding or parsing; `None` when a scan cannot tell (a `\u` escape may spell the
/// key, or a value holds an escape), so the text must be parsed
/// ([`req_ids_of`]). Every value [`req_ids_of`] finds is among them: a strict JSON
/// member `"req_id": "value"` is written with nothing but white space, a colon and
/// (in a block-quoted fence) `>` between key and value; the scan may find more.
/// A run parses only the files holding a value seen twice, the only ones that can
/// have a duplicate.
pub fn req_id_hashes(bytes: &[u8]) -> Option<Vec<u64>> {
    if may_escape_req_id_key(bytes) {
        return None;
    }
    let mut hashes = Vec::new();
    for key in memchr::memmem::find_iter(bytes, b"\"req_id\"") {
        let mut at = key + b"\"req_id\"".len();
        while at < bytes.len() && b" \t\r\n:>".contains(&bytes[at]) {
            at += 1;
        }
        if bytes.get(at) != Some(&b'"') {
            continue;
        }
        let value = &bytes[at + 1..];
        match memchr::memchr2(b'"', b'\\', value) {
            Some(end) if value[end] == b'"' => hashes.push(req_id_hash(&value[..end])),
            _ => return None,
        }
    }
    Some(hashes)
}

/// Whether a `\u` escape in `bytes` may spell a character of the key `req_id`
/// (`"r\u0065q_id"`), or is not one the scan can read. Other escapes cannot make a
/// key `req_id`: an NLIP message of escaped payloads (`\u200b` in each) was parsed
/// a second time for the ids it could not hold, a third of its `check`.
fn may_escape_req_id_key(bytes: &[u8]) -> bool {
    memchr::memmem::find_iter(bytes, b"\\u").any(|at| {
        let code = bytes
            .get(at + 2..at + 6)
            .filter(|hex| hex.iter().all(u8::is_ascii_hexdigit))
            .and_then(|hex| u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok());
        code.is_none_or(|code| b"req_id".iter().any(|&c| u32::from(c) == code))
    })
}

/// The hash [`req_id_hashes`] gives a value: 64-bit FNV-1a, a few instructions a
/// byte for these short ids. Two values sharing a hash only make the run parse
/// their files for the exact ids, so speed matters here and resistance to
/// crafted collisions does not.
pub fn req_id_hash(value: &[u8]) -> u64 {
    value.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Runs the cross-file rules (SL303) over the files of one run; returns new
/// diagnostics with the index of the file each belongs to.
pub fn cross_file(files: &[LintedFile]) -> Vec<(usize, Diagnostic)> {
    let run = RunContext::new(files);
    (0..files.len())
        .flat_map(|file| {
            cross_file_findings(&run, file)
                .into_iter()
                .map(move |diagnostic| (file, diagnostic))
        })
        .collect()
}

/// The cross-file rules' findings in one file of a run.
pub fn cross_file_findings(run: &RunContext, file: usize) -> Vec<Diagnostic> {
    let mut found = RunFindings::new(run.files[file].settings);
    for rule in RULES
        .iter()
        .filter(|rule| rule.hooks().contains(&Hook::Run))
    {
        rule.check_run(run, file, &mut found);
    }
    found.into_diagnostics()
}

/// Lints several files together (per-file rules, then cross-file rules): what the
/// language server calls for its open documents, and tests for small runs.
pub fn lint_files(files: &[(&str, &str, FileKind, &Settings)]) -> Vec<Vec<Diagnostic>> {
    let linted: Vec<FileLint> = files
        .iter()
        .map(|(_, text, kind, settings)| lint_text(text, *kind, settings))
        .collect();
    let views: Vec<LintedFile> = files
        .iter()
        .zip(&linted)
        .map(|((path, _, _, settings), lint)| LintedFile {
            path,
            settings,
            req_ids: &lint.req_ids,
        })
        .collect();
    let extra = cross_file(&views);
    let mut out: Vec<Vec<Diagnostic>> = linted.into_iter().map(|l| l.diagnostics).collect();
    for (file, diagnostic) in extra {
        out[file].push(diagnostic);
    }
    for diagnostics in &mut out {
        sort_and_dedup(diagnostics);
    }
    out
}

/// What `first` and `second` give, run on two threads when `parallel`, else one
/// after the other: a join costs microseconds, more than a small payload's steps.
fn both<A: Send, B: Send>(
    parallel: bool,
    first: impl FnOnce() -> A + Send,
    second: impl FnOnce() -> B + Send,
) -> (A, B) {
    if parallel {
        rayon::join(first, second)
    } else {
        (first(), second())
    }
}

/// Walks one file's payloads and feeds each rule hook.
struct Linter<'r, 'a> {
    rules: &'r RuleTable,
    ctx: Context<'a>,
    /// The `req_id`s written, when the walk gathers them.
    req_ids: Option<Vec<(compact_str::CompactString, Span)>>,
    /// What each payload means, when the walk gathers it.
    meanings: Option<Vec<PayloadMeaning>>,
    suppressions: Vec<Suppression>,
}

impl<'r, 'a> Linter<'r, 'a> {
    fn new(rules: &'r RuleTable, ctx: Context<'a>, gather: Gather) -> Self {
        Linter {
            rules,
            ctx,
            req_ids: (gather == Gather::ReqIds).then(Vec::new),
            meanings: (gather == Gather::Meanings).then(Vec::new),
            suppressions: Vec::new(),
        }
    }

    /// Lints a document's prose and blocks.
    fn document(&mut self, document: &Document<'a>) {
        for prose in document.prose() {
            self.prose(prose);
        }
        for block in &document.blocks {
            self.block_of_page(block);
        }
    }

    /// Lints the lines of a line-oriented `region` of `text`, each line's item
    /// dropped once linted.
    fn lines(
        &mut self,
        region: &Region<'a>,
        lines: impl Iterator<Item = Line<'a>>,
        text: &'a str,
        pending: &mut Vec<Suppression>,
    ) {
        for line in lines {
            let mut item = line_item(region.kind, line, text);
            match &mut item {
                Item::Silp(silp) => {
                    // The line is this walk's own: its code payload's tree is consumed
                    // by its decoding, each call's arguments freed as their entities
                    // are written, so a line of a million calls holds the IR and the
                    // reports, not the tree as well.
                    let (tree, parsed) = match &mut silp.body {
                        SilpBody::Code(parse) => (parse.payload.take(), parse.errors.is_empty()),
                        SilpBody::Probe { .. } => (None, false),
                    };
                    self.cover(pending, silp.line.span());
                    self.silp_line(silp);
                    let decode = !self.rules.is_empty() || self.meanings.is_some();
                    match tree.filter(|_| decode) {
                        Some(tree) => {
                            let large = silp.line.text.len() >= crate::memory::LARGE_BUFFER_BYTES;
                            if large {
                                self.ctx.make_room_for_fixes(tree.actions.len());
                            }
                            let with = tree.with.as_ref().map(|(_, name)| name.text);
                            // On a large payload a second thread decodes the IR's
                            // verbs while the code rules run, then hashes the IR
                            // while the IR rules run: each pair reads the same tree
                            // or IR, and each step is about a tenth of the lint of a
                            // line of a million calls.
                            let ((), mut ir) = both(
                                large,
                                || self.code_rules(&tree),
                                || from_code::decode_all_but_entities(&tree),
                            );
                            from_code::write_entities_consuming(&mut ir, *tree);
                            let wants_meaning = parsed && self.meanings.is_some();
                            let ((), meaning) = both(
                                large,
                                || self.ir_rules(&ir),
                                || wants_meaning.then(|| code_meaning(&ir, with)).flatten(),
                            );
                            if let Some(meanings) = &mut self.meanings {
                                meanings.push(PayloadMeaning {
                                    span: silp.line.span(),
                                    meaning,
                                });
                            }
                            if large {
                                // Its IR and calls, hundreds of MB for a line of a
                                // million calls, go back before the next lint parses.
                                drop(ir);
                                crate::memory::return_freed_pages();
                            }
                        }
                        // A probe, or a payload with no tree.
                        None => {
                            if let Some(meanings) = &mut self.meanings {
                                meanings.push(PayloadMeaning {
                                    span: silp.line.span(),
                                    meaning: silp_meaning(silp),
                                });
                            }
                        }
                    }
                }
                _ => {
                    if let Some(meanings) = &mut self.meanings {
                        item_meanings(&item, meanings);
                    }
                    self.item(region, &item, pending)
                }
            }
        }
    }

    /// Takes over what the linters of the next pieces of the file found, in order.
    fn absorb(&mut self, pieces: Vec<Linter<'r, 'a>>) {
        let mut contexts = Vec::with_capacity(pieces.len());
        for piece in pieces {
            contexts.push(piece.ctx);
            if let (Some(req_ids), Some(more)) = (&mut self.req_ids, piece.req_ids) {
                req_ids.extend(more);
            }
            if let (Some(meanings), Some(more)) = (&mut self.meanings, piece.meanings) {
                meanings.extend(more);
            }
            self.suppressions.extend(piece.suppressions);
        }
        self.ctx.absorb(contexts);
    }

    /// Applies the suppressions and gathers what the walk of `text` found.
    fn finish(mut self, text: &str) -> FileLint {
        self.apply_suppressions();
        let Linter {
            mut ctx,
            req_ids,
            meanings,
            ..
        } = self;
        let most_reported = ctx.most_reported();
        let mut fixes = ctx.take_fixes();
        let mut diagnostics = ctx.into_diagnostics();
        let req_ids = req_ids.unwrap_or_default();
        let req_ids = if req_ids.is_empty() {
            Vec::new()
        } else {
            let locator = crate::source::Locator::new(text);
            req_ids
                .into_iter()
                .map(|(value, span)| {
                    let at = locator.location(span.start);
                    ReqIdFact::new(value.as_str(), span, at)
                })
                .collect()
        };
        sort_and_dedup(&mut diagnostics);
        sort_and_dedup_fixes(&mut fixes);
        FileLint {
            diagnostics,
            req_ids,
            most_reported,
            meanings,
            fixes,
        }
    }

    /// Lints one block's payloads.
    /// A block of a page, the fence that is never closed reported first.
    fn block_of_page(&mut self, block: &Block<'a>) {
        if let Some(opening) = &block.region.unclosed_fence {
            self.syntax_errors(&[SyntaxError::new(
                opening.clone(),
                "this fenced block is never closed; expected a closing fence before the end of its container or the page",
            )]);
        }
        self.block(block);
    }

    fn block(&mut self, block: &Block<'a>) {
        let region = &block.region;
        let mut pending = self.start_region(region);
        if region.kind == FileKind::SilpJson {
            self.json_comments(block);
        }
        for item in &block.items {
            self.item(region, item, &mut pending);
        }
        self.suppressions.append(&mut pending);
    }

    /// Runs the text rules over a region and enters it; returns the list where
    /// suppression comments wait for the next payload line, which they cover.
    fn start_region(&mut self, region: &Region<'a>) -> Vec<Suppression> {
        // The text rules look for non-ASCII characters only; most regions have none.
        if !self.ctx.slice(&region.span).is_ascii() {
            for rule in self.rules.with(Hook::Text) {
                rule.check_text(&mut self.ctx, region.span.clone());
            }
        }
        self.ctx.set_region(
            region
                .fence_lines()
                .map(<[Span]>::to_vec)
                .unwrap_or_default(),
            region.carried,
            region.a2a,
        );
        Vec::new()
    }

    /// Lints one item of `region`.
    fn item(&mut self, region: &Region<'a>, item: &Item<'a>, pending: &mut Vec<Suppression>) {
        match item {
            Item::Blank(_) => {
                // A blank line ends what a suppression may cover: it covers nothing.
                self.suppressions.append(pending);
            }
            Item::Comment { line, codes } => {
                if region.kind != FileKind::SilpJson {
                    if let Some(codes) = codes {
                        pending.push(self.own_line_suppression(line, codes.clone()));
                    }
                }
            }
            Item::Silp(silp) => {
                self.cover(pending, silp.line.span());
                self.silp_line(silp);
            }
            Item::Slip { line, parse } => {
                self.cover(pending, line.span());
                self.syntax_errors(&parse.errors);
                if let Some(message) = &parse.message {
                    for rule in self.rules.with(Hook::Slip) {
                        rule.check_slip(&mut self.ctx, message);
                    }
                }
            }
            Item::Json(json) => self.json_text(json),
            Item::Nlip(message) => self.nlip_message(message),
            Item::Carrier(text) => self.carrier_text(text),
        }
    }

    /// The suppressions waiting in `pending` now cover the payload line at `target`.
    fn cover(&mut self, pending: &mut Vec<Suppression>, target: Span) {
        for mut suppression in pending.drain(..) {
            suppression.target = target.clone();
            self.suppressions.push(suppression);
        }
    }

    fn silp_line(&mut self, silp: &SilpLine<'a>) {
        let line = &silp.line;
        if let (Some(hash), Some(codes)) = (silp.comment, &silp.suppression) {
            let end = line.start + line.text.trim_end().len();
            self.suppressions.push(Suppression {
                comment: line.start + hash..end,
                removal: line.start + silp.payload.len()..end,
                codes: codes.clone(),
                target: line.span(),
            });
        }
        match &silp.body {
            SilpBody::Probe { probe, errors } => {
                self.syntax_errors(errors);
                if let Some(probe) = probe {
                    for rule in self.rules.with(Hook::Ping) {
                        rule.check_ping(&mut self.ctx, probe);
                    }
                }
            }
            SilpBody::Code(parse) => {
                self.syntax_errors(&parse.errors);
                // Code payloads write no `req_id`: without rules there is nothing to do.
                if let Some(tree) = parse.payload.as_ref().filter(|_| !self.rules.is_empty()) {
                    self.code_rules(tree);
                    self.ir_rules(&from_code::decode(tree));
                }
            }
        }
    }

    fn code_rules(&mut self, tree: &Payload) {
        for rule in self.rules.with(Hook::Code) {
            rule.check_code(&mut self.ctx, tree);
        }
    }

    fn ir_rules(&mut self, ir: &Ir) {
        for rule in self.rules.with(Hook::Ir) {
            rule.check_ir(&mut self.ctx, ir);
        }
    }

    /// A suppression comment on a line of its own, not yet covering anything.
    fn own_line_suppression(&self, line: &Line, codes: Codes) -> Suppression {
        let trimmed = line.text.trim_start();
        let hash = line.start + line.text.len() - trimmed.len();
        let text = self.ctx.text();
        let end = line.start + line.text.len();
        let end = end + terminator_len(text, end);
        // The whole line goes, with a fence's container prefix (`> `) but not a
        // byte-order mark.
        let bytes = text.as_bytes();
        let line_start = memchr::memrchr2(b'\n', b'\r', &bytes[..line.start])
            .map(|i| i + 1)
            .filter(|&i| bytes[i..line.start].iter().all(|b| b" \t>".contains(b)))
            .unwrap_or(line.start);
        Suppression {
            comment: hash..line.start + line.text.trim_end().len(),
            removal: line_start..end,
            codes,
            target: line.start..line.start,
        }
    }

    fn prose(&mut self, span: Span) {
        if span.is_empty() {
            return;
        }
        for rule in self.rules.with(Hook::Prose) {
            rule.check_prose(&mut self.ctx, span.clone());
        }
    }

    /// The suppression comments of a `silp-json` fence: each covers the JSON text
    /// after it, up to the next comment line or the end of the fence.
    fn json_comments(&mut self, block: &Block<'a>) {
        let comments: Vec<(&Line, &Option<Codes>)> = block
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Comment { line, codes } => Some((line, codes)),
                _ => None,
            })
            .collect();
        for (i, (line, codes)) in comments.iter().enumerate() {
            let Some(codes) = codes else {
                continue;
            };
            let until = comments
                .get(i + 1)
                .map_or(block.region.span.end, |(next, _)| next.start);
            let mut suppression = self.own_line_suppression(line, codes.clone());
            suppression.target = line.start + line.text.len()..until;
            self.suppressions.push(suppression);
        }
    }

    /// Drops the diagnostics that a suppression covers, then lets rules see which
    /// suppressions were used (SL801).
    fn apply_suppressions(&mut self) {
        if self.suppressions.is_empty() {
            return;
        }
        let mut used: Vec<Vec<bool>> = self
            .suppressions
            .iter()
            .map(|s| vec![false; s.codes.len()])
            .collect();
        let groups = suppressions_by_target(&self.suppressions);
        self.ctx.retain(|rule, start| {
            let after = groups.partition_point(|(target, _)| target.start <= start);
            let Some((target, codes)) = after.checked_sub(1).map(|g| &groups[g]) else {
                return true;
            };
            match codes.get(rule.code) {
                Some(&(i, j)) if start <= target.end => {
                    used[i][j] = true;
                    false
                }
                _ => true,
            }
        });
        let report: Vec<(Suppression, Vec<bool>)> = self.suppressions.drain(..).zip(used).collect();
        for rule in self.rules.with(Hook::Suppressions) {
            rule.check_suppressions(&mut self.ctx, &report);
        }
    }

    fn syntax_errors(&mut self, errors: &[SyntaxError]) {
        if errors.is_empty() {
            return;
        }
        for rule in self.rules.with(Hook::SyntaxErrors) {
            rule.check_syntax_errors(&mut self.ctx, errors);
        }
    }

    /// A JSON text holding one payload object, or (when `allow_array`) an array of
    /// them; an object holding an MCP wrapper is the wrapper's.
    fn json_text(&mut self, json: &JsonText<'a>) {
        self.syntax_errors(&json.parse.errors);
        let Some(root) = &json.parse.value else {
            return;
        };
        let mut carried_strings = HashSet::new();
        let is_array = matches!(root.value, JsonValue::Array(_)) && json.allow_array;
        // The MCP wrapper exists from draft -01 on: under -00 it is a payload object.
        let wrappers = self.ctx.settings().draft >= Draft::D01;
        for (value, carrier) in json.values() {
            match carrier {
                Some(carrier) if wrappers => self.carrier(carrier, &mut carried_strings),
                Some(_) => self.json_payload(value),
                None if value.is_object() => self.json_payload(value),
                None if is_array => {
                    self.syntax_errors(&[not_an_object(value, "an array element")]);
                }
                None => {
                    let place = if json.allow_array {
                        "the document"
                    } else {
                        "the line"
                    };
                    self.syntax_errors(&[not_an_object(value, place)]);
                }
            }
        }
        if json.has_escapes && !self.rules.is_empty() {
            self.escaped_strings(root, &carried_strings);
        }
    }

    /// The JSON text of a carrier file: each message's envelope, then what it
    /// carries.
    fn carrier_text(&mut self, text: &CarrierText<'a>) {
        self.syntax_errors(&text.parse.errors);
        let Some(root) = &text.parse.value else {
            return;
        };
        let mut carried_strings = HashSet::new();
        for carrier in &text.carriers {
            self.carrier(carrier, &mut carried_strings);
        }
        if text.has_escapes && !self.rules.is_empty() {
            self.escaped_strings(root, &carried_strings);
        }
    }

    /// An MCP wrapper, A2A message or Agent Card entry, then the payload it carries;
    /// the start of a string carried is added to `carried_strings`.
    fn carrier(&mut self, carrier: &Carrier<'a>, carried_strings: &mut HashSet<usize>) {
        for rule in self.rules.with(Hook::Carrier) {
            rule.check_carrier(&mut self.ctx, carrier);
        }
        if let Some(carried) = carrier.carried() {
            self.carried(carried, carried_strings);
        }
    }

    /// A payload carried in JSON: an object linted as a JSON payload, a string's
    /// payload in place, or its decoded text with findings covering the string.
    fn carried(&mut self, carried: &Carried<'a>, carried_strings: &mut HashSet<usize>) {
        match carried {
            Carried::Object(content) => self.json_payload(content),
            Carried::InPlace { string, block } => {
                carried_strings.insert(string.start);
                self.block(block);
            }
            Carried::Escaped(escaped) => {
                let string = &escaped.string;
                carried_strings.insert(string.start);
                // Only findings leave a decoded string, so its `req_id`s do not count.
                if self.rules.is_empty() {
                    return;
                }
                let document = escaped.parse();
                let ctx = Context::distinct(document.text, self.ctx.settings());
                let mut inner = Linter::new(self.rules, ctx, Gather::Diagnostics);
                inner.document(&document);
                inner.apply_suppressions();
                let (mut kept, left_out) = inner.ctx.into_kept_and_left_out();
                sort_and_dedup(&mut kept);
                self.cover_string(kept, &left_out, string);
            }
        }
    }

    /// An NLIP message: its envelope, then the SILP/SLIP payloads it carries.
    fn nlip_message(&mut self, message: &NlipMessage<'a>) {
        self.syntax_errors(&message.parse.errors);
        let Some(root) = &message.parse.value else {
            return;
        };
        if !root.is_object() {
            self.syntax_errors(&[not_an_object(root, "an NLIP message")]);
            return;
        }
        for rule in self.rules.with(Hook::Nlip) {
            rule.check_nlip(&mut self.ctx, root);
        }
        let mut carried_strings = HashSet::new();
        for carried in &message.carried {
            self.carried(carried, &mut carried_strings);
        }
        for carrier in &message.carriers {
            self.carrier(carrier, &mut carried_strings);
        }
        if message.has_escapes && !self.rules.is_empty() {
            self.escaped_strings(root, &carried_strings);
        }
    }

    /// Keeps diagnostics found in a string's decoded text, moved to cover the whole
    /// string: its bytes differ from the decoded ones, so no finer place or fix holds.
    /// What the decoded text left out counts here, after what it kept.
    fn cover_string(&mut self, kept: Vec<Diagnostic>, left_out: &[LeftOut], string: &Span) {
        for mut diagnostic in kept {
            diagnostic.span = string.clone();
            diagnostic.fix = None;
            diagnostic.related.clear();
            self.ctx.push(diagnostic);
        }
        for past in left_out {
            self.ctx.count_left_out(past, string);
        }
    }

    /// JSON strings written with escapes (`"P\u0430ris"`, `"\u200b"`): the raw-text
    /// rules see the characters a receiver reads. Their diagnostics cover the whole
    /// string and carry no fix, as for an escaped NLIP payload.
    /// Strings starting at `skip` are payloads linted on their own.
    fn escaped_strings(&mut self, root: &JsonNode, skip: &HashSet<usize>) {
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            match &node.value {
                JsonValue::String(_) if skip.contains(&node.span.start) => {}
                JsonValue::String(decoded) => self.escaped_string(decoded, &node.span),
                JsonValue::Object(members) => {
                    for member in members {
                        self.escaped_string(&member.key, &member.key_span);
                        stack.push(&member.value);
                    }
                }
                JsonValue::Array(items) => stack.extend(items),
                JsonValue::Null | JsonValue::Bool(_) | JsonValue::Number(_) => {}
            }
        }
    }

    fn escaped_string(&mut self, decoded: &str, string: &Span) {
        if is_verbatim(decoded, string) || decoded.is_ascii() {
            return;
        }
        // A space first, so a leading U+FEFF is not taken for a byte-order mark.
        let text = format!(" {decoded}");
        let mut inner = Context::distinct(&text, self.ctx.settings());
        for rule in self.rules.with(Hook::Text) {
            rule.check_text(&mut inner, 1..text.len());
        }
        let (kept, left_out) = inner.into_kept_and_left_out();
        self.cover_string(kept, &left_out, string);
    }

    fn json_payload(&mut self, object: &JsonNode) {
        if self.rules.is_empty() {
            if let (Some(req_ids), Some(req_id)) =
                (&mut self.req_ids, from_json::written_req_id(object))
            {
                req_ids.push((req_id.node, req_id.span));
            }
            return;
        }
        let is_ir_document = from_json::is_ir_document(object);
        for rule in self.rules.with(Hook::Json) {
            rule.check_json(&mut self.ctx, object, is_ir_document);
        }
        let ir = from_json::decode(object);
        if let (Some(req_ids), Some(req_id)) = (&mut self.req_ids, &ir.meta.req_id) {
            req_ids.push((req_id.node.clone(), req_id.span.clone()));
        }
        self.ir_rules(&ir);
    }
}

/// Each code a target's suppressions list (upper case), with the index of the
/// first suppression listing it and the code's position in its list.
type CodeIndex = HashMap<String, (usize, usize)>;

/// The suppressions that cover something, grouped by what they cover, in file
/// order: each target with the codes its suppressions list (upper case), each
/// code with the first suppression and position that lists it. Targets are payload
/// lines, or the JSON of a fence between comment lines, so two are equal or
/// disjoint, and the one holding a position is found by binary search.
fn suppressions_by_target(suppressions: &[Suppression]) -> Vec<(Span, CodeIndex)> {
    let mut order: Vec<usize> = (0..suppressions.len())
        .filter(|&i| !suppressions[i].target.is_empty())
        .collect();
    order.sort_by_key(|&i| (suppressions[i].target.start, suppressions[i].target.end, i));
    let mut groups: Vec<(Span, CodeIndex)> = Vec::new();
    for i in order {
        let target = &suppressions[i].target;
        if groups.last().is_none_or(|(last, _)| last != target) {
            groups.push((target.clone(), HashMap::new()));
        }
        if let Some((_, codes)) = groups.last_mut() {
            for (j, (code, _)) in suppressions[i].codes.iter().enumerate() {
                codes.entry(code.to_ascii_uppercase()).or_insert((i, j));
            }
        }
    }
    groups
}

fn not_an_object(node: &JsonNode, place: &str) -> SyntaxError {
    SyntaxError::new(
        node.span.clone(),
        format!(
            "expected {place} to be a payload object, found {}",
            node.type_name()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meaning::{document_meanings, payload_meanings};
    use crate::syntax::parse;

    /// A run's lint of a file keeps the same diagnostics without gathering
    /// `req_id`s, in each kind of file and in an escaped NLIP payload.
    #[test]
    fn diagnostics_alone_are_those_of_the_whole_lint() {
        let settings = Settings::default();
        let payload = r#"{"intent": "!START", "meta": {"req_id": "a1b2c3d4"}, "extra": 1}"#;
        for (text, kind) in [
            (format!("{payload}\n{payload}\n"), FileKind::SilpJsonl),
            (format!("[{payload}, {payload}]"), FileKind::SilpJson),
            ("Start(x)\nif !rain(t+1): Cancel(y)\n".to_string(), FileKind::Silp),
            (
                format!("```silp-json\n{payload}\n```\n\n```silp\nBegin(x)\n```\n"),
                FileKind::Markdown,
            ),
            (
                r#"{"messagetype": "request", "format": "text", "subformat": "silp", "content": "cancel(flight)\nemial(ops)"}"#.to_string(),
                FileKind::Nlip,
            ),
        ] {
            let whole = lint_text(&text, kind, &settings);
            assert!(!whole.diagnostics.is_empty(), "{kind:?}");
            let alone = lint_text_diagnostics(&text, kind, &settings);
            assert_eq!(format!("{alone:?}"), format!("{:?}", whole.diagnostics), "{kind:?}");
        }
    }

    /// A payload of at least `LARGE_BUFFER_BYTES` is checked by its rules while a
    /// second thread decodes and hashes it: it still gets a fix for each of its
    /// calls, in order, the IR rules' findings beside the code rules', and the
    /// meaning a lint-free decoding gives it.
    #[test]
    fn a_large_payload_checked_beside_its_decoding_gets_every_fix_and_its_meaning() {
        let settings = Settings::default();
        let text = format!("{}Start(y)\n", "Start(y); cancel(é); ".repeat(60_000));
        assert!(text.len() >= crate::memory::LARGE_BUFFER_BYTES);
        let options = FixLintOptions { meanings: true };
        let linted = lint_text_for_fixes(&text, FileKind::Silp, &settings, options);
        let fixed: Vec<usize> = (linted.fixes.iter())
            .filter(|fix| fix.rule.code == "SL104")
            .map(|fix| fix.span.start)
            .collect();
        let starts: Vec<usize> = text.match_indices("Start").map(|(at, _)| at).collect();
        assert_eq!(fixed, starts);
        let meanings = linted.meanings.unwrap();
        assert!(meanings[0].meaning.is_some());
        assert_eq!(meanings, payload_meanings(&text, FileKind::Silp));
        let report = linted.report;
        // The code rules' findings (SL104) and the IR rules' (SL405) both.
        let codes: std::collections::BTreeSet<&str> = report.iter().map(|d| d.code()).collect();
        assert_eq!(codes, ["SL104", "SL405"].into());
    }

    /// A file linted in pieces on several threads gets the diagnostics, fixes,
    /// req_ids and suppression findings of a walk in one go, in the same order; the
    /// fix engine's walk with a report gets a report's diagnostics and every fix: with
    /// suppression comments at the cuts, CRLF and lone CR lines, a BOM, escaped
    /// strings in JSONL, and a rule past its per-file limit in the file and in one
    /// piece (its reports kept and counted as one walk keeps and counts them).
    #[test]
    fn a_page_walked_a_block_at_a_time_finds_what_its_parse_finds() {
        let settings = Settings::default();
        let page = "# Prompts\n\nStart(x)\u{200b} in prose.\n\n```silp\n# silp-lint: ignore[SL104]\nCancel(y)\nbegn(z)\n```\n\n\
            > ```slip\n> SLIP v1 a b Reqest\n> ```\n\n- item\n\n  ```silp-json\n  # a comment\n  {\"intent\":\"!cancel\",\"meta\":{\"req_id\":\"a1b2c3d4\"}}\n  ```\n\n\
            ```silp-json\n{\"intent\":\"!START\",\"meta\":{\"req_id\":\"a1b2c3d4\"}}\n```\n\n```silp\n\u{200b}start(a)\n";
        let rules = RuleTable::enabled(&settings);
        // A report's walk gathers `req_id`s; the fix engine's, meanings.
        for fix_engine in [false, true] {
            let context = || match fix_engine {
                false => Context::new(page, &settings),
                true => Context::with_fixes(page, &settings),
            };
            let gather = if fix_engine {
                Gather::Meanings
            } else {
                Gather::ReqIds
            };
            let shown = |lint: FileLint| {
                format!(
                    "{:?} {:?} {:?} {} {:?}",
                    lint.diagnostics, lint.fixes, lint.req_ids, lint.most_reported, lint.meanings
                )
            };
            let document = parse(page, FileKind::Markdown);
            let mut whole = walk(&document, context(), &rules, gather);
            if gather == Gather::Meanings {
                whole.meanings = Some(document_meanings(&document));
            }
            let blocks = walk_blocks(page, FileKind::Markdown, context(), &rules, gather);
            assert!(whole.diagnostics.len() > 4, "{}", shown(whole));
            assert!(!whole.fixes.is_empty() || !fix_engine, "{}", shown(whole));
            assert_eq!(shown(blocks), shown(whole));
        }
    }

    #[test]
    fn pieces_linted_in_parallel_find_what_one_walk_finds() {
        let settings = Settings::default();
        let silp = "Start(x)\r\n# silp-lint: ignore[SL104]\r\nCancel(y)\n\n# silp-lint: ignore[SL101]\n# a comment\nbegin(z) # silp-lint: ignore[SL104]\rif !rain(t+1): Cancel(w)\n//ping silp/1\n\u{200b}start(a)\n";
        let jsonl = "{\"intent\":\"!cancel\",\"meta\":{\"req_id\":\"a1b2c3d4\"}}\n\n{\"intent\":\"!START\",\"act\":\"x\\u200b\"}\r\nnot json\n";
        let slip = "SLIP v1 a b Reqest\n# silp-lint: ignore[SL601]\nSLIP v1 a b RequestTask x\nSLIP v2 a b c\n";
        for (start, unit, kind, repeats) in [
            ("\u{feff}", silp, FileKind::Silp, 40),
            ("", jsonl, FileKind::SilpJsonl, 40),
            ("", slip, FileKind::Slip, 40),
            // Past MAX_PER_RULE of SL104.
            (
                "",
                "Cancel(x)\n",
                FileKind::Silp,
                2 * crate::rules::MAX_PER_RULE + 500,
            ),
            // Past it, with every other finding suppressed.
            (
                "",
                "Cancel(x)\n# silp-lint: ignore[SL104]\nCancel(y)\n",
                FileKind::Silp,
                crate::rules::MAX_PER_RULE * 7 / 10,
            ),
        ] {
            let text = format!("{start}{}", unit.repeat(repeats));
            let rules = RuleTable::enabled(&settings);
            // A report's walk gathers `req_id`s; the fix engine's, meanings.
            for limited in [true, false] {
                let walk = |piece_bytes| {
                    let (ctx, gather) = if limited {
                        (Context::new(&text, &settings), Gather::ReqIds)
                    } else {
                        (Context::with_fixes(&text, &settings), Gather::Meanings)
                    };
                    walk_lines(&text, kind, ctx, &rules, gather, piece_bytes)
                };
                let shown = |lint: FileLint| {
                    format!(
                        "{:?} {:?} {:?} {} {:?}",
                        lint.diagnostics,
                        lint.fixes,
                        lint.req_ids,
                        lint.most_reported,
                        lint.meanings
                    )
                };
                let whole = walk(usize::MAX);
                if !limited {
                    let meanings = whole.meanings.as_ref();
                    assert_eq!(meanings, Some(&payload_meanings(&text, kind)), "{kind:?}");
                }
                let whole = shown(whole);
                assert!(whole.contains("SL"), "{kind:?}");
                for piece_bytes in [1, 37, 1000, 150_000] {
                    assert_eq!(
                        shown(walk(piece_bytes)),
                        whole,
                        "{kind:?} in pieces of {piece_bytes}"
                    );
                }
            }
            // The fix engine's walk lists what a report's walk lists, and
            // collects the fix of every finding, past the limit too.
            let walk = |ctx, piece_bytes| {
                walk_lines(&text, kind, ctx, &rules, Gather::Meanings, piece_bytes)
            };
            let report = walk(Context::new(&text, &settings), usize::MAX);
            for piece_bytes in [37, usize::MAX] {
                let both = walk(Context::with_fixes(&text, &settings), piece_bytes);
                let diagnostics = |lint: &FileLint| format!("{:?}", lint.diagnostics);
                assert_eq!(diagnostics(&both), diagnostics(&report), "{kind:?}");
                assert_eq!(both.capped(), report.capped(), "{kind:?}");
                let fixable: usize = (report.diagnostics.iter())
                    .filter(|d| d.fix.is_some())
                    .count();
                if report.capped() {
                    // Every `Cancel(x)` is fixed; no suppressed `Cancel(y)` is.
                    let sl104 = text.matches("Cancel(x)").count();
                    assert_eq!(both.fixes.len(), sl104, "{kind:?}");
                } else {
                    assert_eq!(both.fixes.len(), fixable, "{kind:?}");
                }
            }
        }
    }

    /// A piece made once a rule has reported to its limit in the text counts that
    /// rule's findings without keeping them, and keeps the others': the later
    /// pieces of a file with a finding on every line hold nothing of it.
    #[test]
    fn a_piece_made_past_a_rules_limit_counts_its_findings_without_keeping_them() {
        use crate::rules::{registry, MAX_PER_RULE};
        let sl104 = registry::find("SL104").expect("SL104").meta();
        let sl101 = registry::find("SL101").expect("SL101").meta();
        let settings = Settings::default();
        let text = "Cancel(x)\n";
        let mut file = Context::new(text, &settings);
        for _ in 0..MAX_PER_RULE {
            file.report(sl104, 0..6, "message");
        }
        let piece = || {
            let mut piece = file.piece();
            piece.report(sl104, 0..6, "message");
            piece.report(sl104, 0..6, "message");
            piece.report(sl101, 0..6, "message");
            piece
        };
        let shown = |diagnostics: Vec<Diagnostic>| -> Vec<String> {
            (diagnostics.iter())
                .map(|d| format!("{} {}", d.code(), d.message))
                .collect()
        };
        let left_out = "SL104 2 more SL104 diagnostics in this file are not shown";
        assert_eq!(
            shown(piece().into_diagnostics()),
            ["SL101 message", left_out]
        );
        let piece = piece();
        file.absorb(vec![piece]);
        assert_eq!(file.most_reported(), MAX_PER_RULE + 2);
        let diagnostics = shown(file.into_diagnostics());
        assert_eq!(diagnostics.len(), MAX_PER_RULE + 2);
        assert_eq!(diagnostics[MAX_PER_RULE..], ["SL101 message", left_out]);
    }

    /// A suppression used only by a finding past its rule's limit is used: a
    /// report does not call it unused (SL801, whose fix would delete it), nor
    /// counts that finding among those it leaves out; the fix engine's lint gives
    /// the same report and leaves the finding unfixed.
    #[test]
    fn a_suppression_used_past_the_limit_is_used() {
        let settings = Settings::default();
        let many = "Cancel(x)\n".repeat(crate::rules::MAX_PER_RULE);
        let options = FixLintOptions { meanings: false };
        // What follows the rule's first 10,000 findings, and the one finding
        // past them that is not suppressed, which gets a fix and is left out of
        // the report.
        for (tail, unsuppressed) in [
            ("# silp-lint: ignore[SL104]\nCancel(y)\n", None),
            (
                "Cancel(y) # silp-lint: ignore[SL104]\nCancel(z)\n",
                Some("Cancel(z)"),
            ),
            ("Cancel(y)\n", Some("Cancel(y)")),
        ] {
            let text = format!("{many}{tail}");
            let report = lint_text_diagnostics(&text, FileKind::Silp, &settings);
            assert!(report.iter().all(|d| d.code() != "SL801"), "{tail}");
            let left_out: Vec<(&str, usize)> = (report.iter())
                .filter(|d| d.message.contains("more SL104"))
                .map(|d| (d.message.as_str(), d.span.start))
                .collect();
            let expected: Vec<(&str, usize)> = unsuppressed
                .map(|call| {
                    let message = "1 more SL104 diagnostics in this file are not shown";
                    (message, text.rfind(call).unwrap())
                })
                .into_iter()
                .collect();
            assert_eq!(left_out, expected, "{tail}");
            let linted = lint_text_for_fixes(&text, FileKind::Silp, &settings, options);
            assert_eq!(format!("{:?}", linted.report), format!("{report:?}"));
            let fixes = crate::rules::MAX_PER_RULE + usize::from(unsuppressed.is_some());
            assert_eq!(linted.fixes.len(), fixes, "{tail}");
        }
    }

    /// The fix engine's lint finds, in every fixture, exactly the diagnostics with a
    /// fix that a report lists, and the report itself. Asked for the payloads'
    /// meanings, it gives those the meaning check would parse the text for.
    #[test]
    fn the_fix_engine_lints_the_fixes_a_report_lists() {
        let settings = Settings::default();
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let (mut files, mut fixes) = (0, 0);
        for rule in std::fs::read_dir(fixtures).unwrap() {
            for file in std::fs::read_dir(rule.unwrap().path()).unwrap() {
                let path = file.unwrap().path();
                let Some(kind) = FileKind::from_path(&path.to_string_lossy()) else {
                    continue;
                };
                let text = std::fs::read_to_string(&path).unwrap();
                let with_fix = |diagnostics: Vec<Diagnostic>| -> Vec<_> {
                    diagnostics.into_iter().filter_map(PendingFix::of).collect()
                };
                let reported = with_fix(lint_text(&text, kind, &settings).diagnostics);
                let lint = |meanings| {
                    let options = FixLintOptions { meanings };
                    lint_text_for_fixes(&text, kind, &settings, options)
                };
                // It gives the fixes and exactly what a report lists.
                let report = format!("{:?}", lint_text_diagnostics(&text, kind, &settings));
                let plain = lint(false);
                assert!(plain.meanings.is_none(), "{path:?}");
                assert_eq!(format!("{:?}", plain.report), report, "{path:?}");
                assert_eq!(plain.fixes, reported, "{path:?}");
                // Asked for meanings, it finds the same and the meanings a parse of
                // its own finds.
                let with_meanings = lint(true);
                let meanings = payload_meanings(&text, kind);
                assert!(!meanings.is_empty(), "{path:?}");
                assert_eq!(with_meanings.meanings, Some(meanings), "{path:?}");
                assert_eq!(format!("{:?}", with_meanings.report), report, "{path:?}");
                assert_eq!(with_meanings.fixes, reported, "{path:?}");
                files += 1;
                fixes += reported.len();
            }
        }
        assert!(files > 40 && fixes > 50, "{files} files, {fixes} fixes");
    }

    #[test]
    fn suppressions_are_found_by_target_and_code_with_the_first_one_winning() {
        let text = "# silp-lint: ignore[SL104, sl101]\n# silp-lint: ignore[SL101]\nBegin(x) # silp-lint: ignore[SL101]\n\nbegin(y)\n";
        let lint = lint_text(text, FileKind::Silp, &Settings::default());
        let codes: Vec<(&str, &str)> = lint
            .diagnostics
            .iter()
            .map(|d| (d.code(), &text[d.span.clone()]))
            .collect();
        // Line 3's SL101 and SL104 are suppressed by the first comment; the other two
        // comments' SL101 suppressed nothing (SL801), and line 5 is not covered.
        assert_eq!(
            codes,
            [
                ("SL801", "# silp-lint: ignore[SL101]"),
                ("SL801", "# silp-lint: ignore[SL101]"),
                ("SL101", "begin")
            ]
        );
        let many: String = (0..crate::rules::MAX_PER_RULE + 10)
            .map(|i| format!("SL9{i:05},"))
            .collect();
        let text = format!("# silp-lint: ignore[{many}SL101]\nbegin(x)\n");
        let lint = lint_text(&text, FileKind::Silp, &Settings::default());
        assert!(lint.diagnostics.iter().all(|d| d.code() == "SL801"));
        assert_eq!(
            lint.diagnostics.len(),
            crate::rules::MAX_PER_RULE + 1,
            "capped"
        );
    }

    #[test]
    fn a_rule_keeps_at_most_its_cap_of_diagnostics_per_file_and_counts_the_rest() {
        let text = "Cancel(x)\n".repeat(crate::rules::MAX_PER_RULE + 250);
        let lint = lint_text(&text, FileKind::Silp, &Settings::default());
        assert!(lint.capped());
        let sl104: Vec<&Diagnostic> = lint
            .diagnostics
            .iter()
            .filter(|d| d.code() == "SL104")
            .collect();
        assert_eq!(sl104.len(), crate::rules::MAX_PER_RULE + 1);
        let summary = sl104.last().unwrap();
        assert_eq!(
            summary.message,
            "250 more SL104 diagnostics in this file are not shown"
        );
        assert_eq!(
            summary.span.start,
            10 * crate::rules::MAX_PER_RULE,
            "at the first left out"
        );
    }

    /// The scan for `req_id`s reads past escapes that cannot spell the key, and
    /// gives up (so the file is parsed) where one may, or cannot be read.
    #[test]
    fn the_req_id_scan_reads_past_escapes_that_cannot_spell_the_key() {
        let hashes = |values: &[&str]| -> Option<Vec<u64>> {
            Some(values.iter().map(|v| req_id_hash(v.as_bytes())).collect())
        };
        let cases: [(&str, FileKind, Option<Vec<u64>>); 7] = [
            (
                r#"{"intent":"!START","act":"x\u200b","meta":{"req_id":"a1b2c3d4"}}"#,
                FileKind::SilpJsonl,
                hashes(&["a1b2c3d4"]),
            ),
            (
                r#"{"content":"{\u0022meta\u0022:{\u0022req_id\u0022:\u0022a1\u0022}}","format":"text","subformat":"silp-json"}"#,
                FileKind::Nlip,
                hashes(&[]),
            ),
            (
                r#"{"intent":"!START","meta":{"r\u0065q_id":"a1b2c3d4"}}"#,
                FileKind::SilpJsonl,
                None,
            ),
            (
                r#"{"intent":"!START","meta":{"req\u005Fid":"a1b2c3d4"}}"#,
                FileKind::SilpJsonl,
                None,
            ),
            (
                r#"{"intent":"!START","act":"\u20"}"#,
                FileKind::SilpJsonl,
                None,
            ),
            (
                r#"{"intent":"!START","act":"\u+072"}"#,
                FileKind::SilpJsonl,
                None,
            ),
            (
                r#"{"intent":"!START","meta":{"req_id":"a\u0031"}}"#,
                FileKind::SilpJsonl,
                None,
            ),
        ];
        for (text, kind, expected) in cases {
            let scanned = req_id_hashes(text.as_bytes());
            assert_eq!(scanned, expected, "{text}");
            // Whatever the scan reads, it misses none of the ids a parse finds.
            let parsed = req_ids_of(text, kind, &Settings::default());
            for fact in parsed {
                let hash = req_id_hash(fact.value.as_bytes());
                assert!(scanned.as_ref().is_none_or(|s| s.contains(&hash)), "{text}");
            }
        }
        let escaped_key = r#"{"intent":"!START","meta":{"r\u0065q_id":"a1b2c3d4"}}"#;
        let parsed = req_ids_of(escaped_key, FileKind::SilpJsonl, &Settings::default());
        assert_eq!(
            parsed.len(),
            1,
            "a key spelled with an escape is a `req_id`"
        );
    }

    /// A `.silp.jsonl` text linted in pieces of `piece_bytes`.
    fn walk_jsonl<'a>(
        text: &'a str,
        ctx: Context<'a>,
        rules: &RuleTable,
        piece_bytes: usize,
    ) -> FileLint {
        let kind = FileKind::SilpJsonl;
        walk_lines(text, kind, ctx, rules, Gather::Diagnostics, piece_bytes)
    }

    /// The diagnostics of the rule `code`, in order.
    fn of_rule<'l>(lint: &'l FileLint, code: &str) -> Vec<&'l Diagnostic> {
        let of_code = |d: &&Diagnostic| d.code() == code;
        lint.diagnostics.iter().filter(of_code).collect()
    }

    /// Findings in escaped text, moved to cover their strings, count towards
    /// their rule's limit as any others do: a line with an escaped zero-width space
    /// on every line of a file, linted whole or in pieces, and by the fix engine.
    #[test]
    fn findings_in_escaped_strings_keep_to_the_limit_of_their_rule() {
        use crate::rules::MAX_PER_RULE;
        let line = "{\"intent\":\"!START\",\"act\":\"x\\u200b\"}\n";
        let text = line.repeat(MAX_PER_RULE + 30);
        let settings = Settings::default();
        let rules = RuleTable::enabled(&settings);
        for (ctx, piece_bytes) in [
            (Context::new(&text, &settings), usize::MAX),
            (Context::new(&text, &settings), 1000),
            (Context::with_fixes(&text, &settings), 1000),
        ] {
            let lint = walk_jsonl(&text, ctx, &rules, piece_bytes);
            let sl201 = of_rule(&lint, "SL201");
            assert_eq!(sl201.len(), MAX_PER_RULE + 1, "in pieces of {piece_bytes}");
            let summary = sl201.last().unwrap();
            assert_eq!(
                summary.message,
                "30 more SL201 diagnostics in this file are not shown"
            );
            let first_left_out = line.len() * MAX_PER_RULE + line.find("\"x").unwrap();
            assert_eq!(summary.span.start, first_left_out);
            assert_eq!(lint.most_reported, MAX_PER_RULE + 30);
        }
    }

    /// SL405 builds no message for what it does not show: past the cap its
    /// findings are still counted, and those shown keep their messages.
    #[test]
    fn a_rule_without_fixes_counts_what_it_leaves_out_without_messages() {
        let extra = 30;
        let text = format!(
            "book({}x)\n",
            "x,".repeat(crate::rules::MAX_PER_RULE + extra)
        );
        let lint = lint_text(&text, FileKind::Silp, &Settings::default());
        let sl405: Vec<&Diagnostic> = lint
            .diagnostics
            .iter()
            .filter(|d| d.code() == "SL405")
            .collect();
        assert_eq!(sl405.len(), crate::rules::MAX_PER_RULE + 1);
        let (summary, shown) = sl405.split_last().unwrap();
        assert!(shown.iter().all(|d| d.message
            == "a second entity with id `act`: the JSON frontend keeps only the last one"
            && d.related.len() == 1));
        assert_eq!(
            summary.message,
            format!("{extra} more SL405 diagnostics in this file are not shown")
        );
    }

    /// SL401 words no violation past its limit, but counts each, in pieces as in
    /// one walk: the summary is placed at the first left out, and those shown
    /// keep their messages.
    #[test]
    fn schema_violations_past_the_limit_are_counted_and_placed() {
        let extra = 30;
        let line = "{\"intent\":\"!START\",\"meta\":{\"req_id\":\"ab12cd34\"},\"bogus\":1}\n";
        let text = line.repeat(MAX_PER_RULE + extra);
        let settings = Settings::default();
        let rules = RuleTable::enabled(&settings);
        for piece_bytes in [usize::MAX, 1000] {
            let ctx = Context::new(&text, &settings);
            let lint = walk_jsonl(&text, ctx, &rules, piece_bytes);
            let sl401 = of_rule(&lint, "SL401");
            assert_eq!(sl401.len(), MAX_PER_RULE + 1, "in pieces of {piece_bytes}");
            let (summary, shown) = sl401.split_last().unwrap();
            assert!(shown.iter().all(|d| d
                .message
                .starts_with("unknown field `bogus` in the IR document: the schema allows only")));
            assert_eq!(
                summary.message,
                format!("{extra} more SL401 diagnostics in this file are not shown")
            );
            let first_left_out = line.len() * MAX_PER_RULE + line.find("\"bogus").unwrap();
            assert_eq!(summary.span.start, first_left_out);
        }
    }

    /// A payload carried in an escaped string is linted on its own, where a rule
    /// past its limit goes on counting: what it left out counts in the file too,
    /// not as the one diagnostic that says how many.
    #[test]
    fn findings_an_escaped_payload_left_out_count_in_the_file() {
        let extra = 5;
        let content: Vec<String> = (0..MAX_PER_RULE + extra)
            .map(|i| format!("Zq{i:05}x(a)"))
            .collect();
        let message = serde_json::json!({
            "format": "text",
            "subformat": "silp",
            "content": content.join("\n"),
        });
        let lint = lint_text(&message.to_string(), FileKind::Nlip, &Settings::default());
        let sl104 = of_rule(&lint, "SL104");
        assert_eq!(sl104.len(), MAX_PER_RULE + 1);
        let (summary, shown) = sl104.split_last().unwrap();
        assert_eq!(
            shown[0].message,
            "function name `Zq00000x` is not lower case"
        );
        assert_eq!(
            summary.message,
            format!("{extra} more SL104 diagnostics in this file are not shown")
        );
    }

    #[test]
    fn an_escaped_string_of_many_invisible_characters_is_one_finding() {
        let text = format!(
            "{{\"intent\":\"!START\",\"act\":\"{}\"}}",
            "\\u200b".repeat(100_000)
        );
        let lint = lint_text(&text, FileKind::SilpJson, &Settings::default());
        let codes: Vec<&str> = lint.diagnostics.iter().map(|d| d.code()).collect();
        assert_eq!(codes, ["SL201"]);
        assert!(!lint.capped());
        let nlip = format!(
            "{{\"format\":\"text\",\"subformat\":\"silp\",\"content\":\"start({}x)\"}}",
            "\\u200b,".repeat(100_000)
        );
        let lint = lint_text(&nlip, FileKind::Nlip, &Settings::default());
        let zero_width = lint.diagnostics.iter().filter(|d| d.code() == "SL201");
        assert_eq!(zero_width.count(), 1);
    }
}
