//! The fix engine behind `check --fix`: apply the fixes rules attach to their
//! diagnostics, round after round, until nothing more can be fixed.
//!
//! Each round lints the text, takes the allowed fixes (safe ones, and unsafe ones when
//! asked) in file order, skips any fix whose edits overlap or touch one already
//! taken (it is retried after the next lint, against the new text), applies them and
//! checks the result. The loop stops when a round applies nothing, or after
//! [`MAX_ROUNDS`].
//!
//! The check compares every payload before and after the round: each payload that
//! parsed must still parse, and must still decode to the same IR (or the same SLIP
//! tokens) unless one of the fixes that touched it is allowed to change its meaning
//! (an unsafe fix, or a safe normalisation such as an upper-cased action code; see
//! [`MEANING_PRESERVING`]). A round that fails the check is refused: the whole file
//! is left as it was and the reason is returned.

use crate::diagnostics::{apply_edits, is_valid_span, Applicability, Diagnostic, Edit, PendingFix};
use crate::lint::{lint_text_for_fixes, sort_and_dedup, FixLint, FixLintOptions};
use crate::meaning::{payload_meanings, PayloadMeaning};
use crate::rules::MAX_PER_RULE;
use crate::settings::Settings;
use crate::source::{FileKind, LineIndex, Span};
use crate::syntax::document::is_line_oriented;
use crate::syntax::region::{regions, PIECE_BYTES};
use indexmap::IndexSet;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The most lint-and-fix rounds one file gets.
pub const MAX_ROUNDS: usize = 10;

/// Rules whose safe fixes keep every payload's decoded meaning exactly: formatting
/// (SL504), nonstandard syntax (SL505), removing `null` optional fields (SL408) and
/// lower-casing function names (SL104). The other safe fixes normalise a value
/// (`!cancel` → `!CANCEL`, an excluded verb → its replacement, a req_id's case, an
/// anchor's case), so the IR they decode to differs by design.
pub const MEANING_PRESERVING: [&str; 4] = ["SL104", "SL408", "SL504", "SL505"];

/// Whether a fix of this applicability may be applied.
fn allowed(fix: &PendingFix, unsafe_fixes: bool) -> bool {
    fix.applicability == Applicability::Safe || unsafe_fixes
}

/// The result of fixing one text.
#[derive(Debug)]
pub struct Fixed {
    /// The text after every applied fix.
    pub text: String,
    /// How many diagnostics' fixes were applied.
    pub applied: usize,
    /// How many of them each rule had, by code.
    pub by_rule: BTreeMap<&'static str, usize>,
    /// Why fixes were left out: the meaning check refused them (the rest of the
    /// file's fixes were applied).
    pub refused: Vec<String>,
    /// What a report of `text` lists ([`crate::lint::lint_text_diagnostics`]),
    /// from the lint that found `text` needed no more fixes: `check --fix` reports
    /// it rather than linting the file again. `None` for a file fixed in pieces
    /// where a rule may report past its limit (see [`joined_report`]).
    pub report: Option<Vec<Diagnostic>>,
    /// The most diagnostics one rule reported in `text` ([`FixLint::most_reported`];
    /// for a text fixed in pieces, at most that), for joining the reports of pieces.
    most_reported: usize,
}

/// Fixes `text` (a file of `kind`) to a fixed point; `Err` says why the fixes were
/// refused, in which case nothing of the file should change.
pub fn fix_text(
    text: &str,
    kind: FileKind,
    settings: &Settings,
    unsafe_fixes: bool,
) -> Result<Fixed, String> {
    let lint = |text: &str, options| lint_text_for_fixes(text, kind, settings, options);
    if text.len() > PIECE_BYTES {
        if let Some(fixed) = fix_in_pieces(text, kind, unsafe_fixes, &lint, FIX_PIECE_BYTES) {
            return Ok(fixed);
        }
    }
    fix_with(text, kind, unsafe_fixes, &lint)
}

/// How much of a large line-oriented file one thread fixes at a time: small
/// enough that a piece's fixes are little to hold, and that the piece's own lint
/// is never cut again.
const FIX_PIECE_BYTES: usize = PIECE_BYTES / 4;

/// Fixes a line-oriented file piece by piece on all threads, each piece of whole
/// lines to its own fixed point, as [`fix_with`] would fix the whole: a piece's
/// lines are linted alone as they are when `check` cuts a file into pieces (a
/// suppression comment is never a piece's last line), and a fix never reaches past
/// its line. `None` when the joined result might not be the whole-file engine's, so
/// the caller fixes the file whole: when a piece would read its first character as
/// a byte-order mark, or when a piece had a fix refused (a refusal names places and
/// counts payloads of the whole file).
fn fix_in_pieces(
    text: &str,
    kind: FileKind,
    unsafe_fixes: bool,
    lint: &(dyn Fn(&str, FixLintOptions) -> FixLint + Sync),
    piece_bytes: usize,
) -> Option<Fixed> {
    if !is_line_oriented(kind) {
        return None;
    }
    let [region] = &regions(text, kind)[..] else {
        return None;
    };
    let pieces = region.pieces(piece_bytes);
    if pieces.len() < 2
        || pieces
            .iter()
            .any(|piece| text[piece.clone()].starts_with('\u{feff}'))
    {
        return None;
    }
    // The first refusal in any piece sends the file back whole, so the other
    // pieces stop at their next round, and those not started never start (160,000
    // refused fixes in 2 MB: the pieces took 0.94 s of 2.7 s, all of it thrown away).
    let refused = AtomicBool::new(false);
    // Once the pieces fixed so far may report past a rule's limit, no piece's report
    // is joined ([`joined_report`]): each is dropped as its piece ends, not held
    // to the end (23 MB with a finding on every line held 346 MiB).
    let reported = AtomicUsize::new(0);
    let mut fixed: Vec<Fixed> = pieces
        .into_par_iter()
        .map(|piece| {
            let mut fixed =
                fix_rounds(&text[piece], kind, unsafe_fixes, lint, Some(&refused))?.ok()?;
            let before = reported.fetch_add(fixed.most_reported, Ordering::Relaxed);
            if before + fixed.most_reported > MAX_PER_RULE {
                fixed.report = None;
            }
            Some(fixed)
        })
        .collect::<Option<_>>()?;
    // At most what one rule reported in the joined text.
    let most_reported = fixed.iter().map(|piece| piece.most_reported).sum();
    let report = joined_report(&mut fixed, region.span.start, most_reported);
    let mut joined = String::with_capacity(fixed.iter().map(|piece| piece.text.len()).sum());
    joined.push_str(&text[..region.span.start]);
    let mut applied = 0;
    let mut by_rule = BTreeMap::new();
    for piece in fixed {
        joined.push_str(&piece.text);
        applied += piece.applied;
        for (code, count) in piece.by_rule {
            *by_rule.entry(code).or_insert(0) += count;
        }
    }
    Some(Fixed {
        text: joined,
        applied,
        by_rule,
        refused: Vec::new(),
        report,
        most_reported,
    })
}

/// The report of the pieces `fixed` joined, the first starting at byte `start`:
/// each piece's report, its places moved to where the piece lies, as a lint of the
/// joined text would find them (its pieces are linted alone in the same way).
/// `None` when a rule might report past its limit in the joined text
/// (`most_reported`, at most what one rule reported there), which would keep that
/// rule's first reports in the whole file: `check --fix` lints it again.
fn joined_report(
    fixed: &mut [Fixed],
    start: usize,
    most_reported: usize,
) -> Option<Vec<Diagnostic>> {
    if most_reported > MAX_PER_RULE {
        return None;
    }
    let reports: Vec<Vec<Diagnostic>> = fixed
        .iter_mut()
        .map(|piece| piece.report.take())
        .collect::<Option<_>>()?;
    let mut joined = Vec::with_capacity(reports.iter().map(Vec::len).sum());
    let mut offset = start;
    for (piece, report) in fixed.iter().zip(reports) {
        joined.extend(report.into_iter().map(|mut d| {
            d.shift(offset as isize);
            d
        }));
        offset += piece.text.len();
    }
    sort_and_dedup(&mut joined);
    Some(joined)
}

/// [`fix_text`] with the linting step given (what a test supplies): `lint(text,
/// options)` returns the fixes and the report of a text of `kind`, and what
/// `options` asks for, as [`lint_text_for_fixes`] does. A lint that gives no
/// meanings when asked leaves the engine to parse for them.
///
/// A round holds the text it started from, its fixes, and the meanings of the
/// payloads of the text before and after them. The lint of a round's result
/// gives its meanings, which check the round, and its fixes, which are the next
/// round's: the result is parsed once. No round holds a tree while it lints: the
/// lint of a line-oriented file takes it a line at a time, so a large file costs
/// memory for its fixes, not for its parse.
pub fn fix_with(
    text: &str,
    kind: FileKind,
    unsafe_fixes: bool,
    lint: &dyn Fn(&str, FixLintOptions) -> FixLint,
) -> Result<Fixed, String> {
    match fix_rounds(text, kind, unsafe_fixes, lint, None) {
        Some(fixed) => fixed,
        None => unreachable!("only a piece gives up"),
    }
}

/// [`fix_with`], for one piece of a file when `piece_refused` is given: the
/// first refusal sets it, and `None` is returned at once, or at the next round
/// once another piece set it. Without it, `Some(Ok)` or `Some(Err)`.
fn fix_rounds(
    text: &str,
    kind: FileKind,
    unsafe_fixes: bool,
    lint: &dyn Fn(&str, FixLintOptions) -> FixLint,
    piece_refused: Option<&AtomicBool>,
) -> Option<Result<Fixed, String>> {
    let given_up = || piece_refused.is_some_and(|refused| refused.load(Ordering::Relaxed));
    if given_up() {
        return None;
    }
    let mut current_text = text.to_string();
    // The first lint of a large text gives its meanings too: hashing each payload
    // costs its lint about a sixth more, while parsing the text again for them,
    // should it need fixing, would cost about half a lint (one line of a million
    // calls: 0.5 s). A small file's first lint, most often of a file with nothing
    // to fix, does not. Its report is what `check --fix` lists for a file with
    // nothing to fix, instead of linting it again.
    let first = lint(
        text,
        FixLintOptions {
            meanings: text.len() >= PIECE_BYTES,
        },
    );
    // The current text's fixes: a round's result is linted to check it, and that
    // lint's fixes are the next round's.
    let mut current_fixes = first.fixes;
    // The meanings of the current text's payloads, once known.
    let mut current_meanings: Option<Vec<PayloadMeaning>> = first.meanings;
    // A report of the current text: each round's result is linted for one, since
    // that lint is the last when nothing more is fixed.
    let mut current_report = first.report;
    // The most diagnostics one rule reported in the current text.
    let mut current_most_reported = first.most_reported;
    let mut applied = 0;
    let mut by_rule = BTreeMap::new();
    let mut refused: Vec<Refusal> = Vec::new();
    // Fixes refused in an earlier round, which the next lint reports again.
    let mut refused_fixes: IndexSet<FixKey> = IndexSet::new();
    let mut applied_when_cleared = 0;
    for _ in 0..MAX_ROUNDS {
        if given_up() {
            return None;
        }
        let mut fixes = std::mem::take(&mut current_fixes);
        let text: &str = &current_text;
        // The how-manieth such fix each is, needed only once a fix is refused: to
        // leave it out of this round, or to remember it when it is refused.
        let mut nths: Option<Vec<usize>> = None;
        // The fixes refused before, left out of this round, each with its place
        // among the text's fixes: should they be tried once more against this text,
        // they are put back rather than the text linted again for them.
        let mut held_back: Vec<(usize, PendingFix)> = Vec::new();
        if !refused_fixes.is_empty() {
            let all_nths = fix_nths(text, &fixes);
            let mut kept = Vec::with_capacity(fixes.len());
            let mut kept_nths = Vec::with_capacity(fixes.len());
            for (place, (fix, nth)) in fixes.into_iter().zip(all_nths).enumerate() {
                let same = SameFix { text, fix: &fix };
                if refused_fixes.contains(&FixKeyRef { same, nth }) {
                    held_back.push((place, fix));
                } else {
                    kept.push(fix);
                    kept_nths.push(nth);
                }
            }
            fixes = kept;
            nths = Some(kept_nths);
        }
        let mut chosen = choose(text, &fixes, unsafe_fixes);
        // A round with no fix to apply needs no meaning check (a clean file).
        let before = current_meanings
            .take()
            .or_else(|| (!chosen.is_empty()).then(|| payload_meanings(text, kind)));
        // A fix the meaning check refuses is left out and the round tried again
        // with the others, so one bad fix does not hold back the rest of the file.
        let next = loop {
            let Some(before) = before.as_deref().filter(|_| !chosen.is_empty()) else {
                break None;
            };
            let mut edits: Vec<&Edit> = chosen.iter().flat_map(|f| f.edits()).collect();
            sort_by_position(&mut edits, |e| &e.span);
            let next = apply_edits(text, &edits);
            drop(edits);
            if next == text {
                break None;
            }
            let mut linted = lint(&next, FixLintOptions { meanings: true });
            let after = linted
                .meanings
                .take()
                .unwrap_or_else(|| payload_meanings(&next, kind));
            match verify(text, before, &after, &chosen) {
                Ok(()) => break Some((next, after, linted)),
                Err(refusals) => {
                    if let Some(refused) = piece_refused {
                        refused.store(true, Ordering::Relaxed);
                        return None;
                    }
                    let refused_places = Refused::new(refusals.iter().map(|r| r.touching.clone()));
                    let (mut bad, mut good): (Vec<&PendingFix>, Vec<&PendingFix>) =
                        chosen.iter().partition(|f| refused_places.touched_by(f));
                    if bad.is_empty() {
                        // No fix touches what was refused: none of this round holds.
                        bad = std::mem::take(&mut good);
                    }
                    let nths = nths.get_or_insert_with(|| fix_nths(text, &fixes));
                    refused_fixes.extend(bad.iter().map(|&fix| {
                        let nth = nths[index_in(&fixes, fix)];
                        FixKey::new(SameFix { text, fix }, nth)
                    }));
                    refused.extend(refusals);
                    chosen = good;
                }
            }
        };
        let Some((next, after, linted)) = next else {
            // Fixes refused against an earlier text are tried once more against
            // this one (a second `--fix` would try them), while that makes progress.
            if applied > applied_when_cleared && !refused_fixes.is_empty() {
                refused_fixes.clear();
                refused.clear();
                applied_when_cleared = applied;
                current_meanings = before;
                current_fixes = with_held_back(fixes, held_back);
                continue;
            }
            break;
        };
        applied += chosen.len();
        for fix in &chosen {
            *by_rule.entry(fix.code()).or_insert(0) += 1;
        }
        current_text = next;
        current_meanings = Some(after);
        current_fixes = linted.fixes;
        current_report = linted.report;
        current_most_reported = linted.most_reported;
    }
    if applied == 0 {
        if let Some(first) = refused.first() {
            return Some(Err(first.to_string()));
        }
    }
    Some(Ok(Fixed {
        text: current_text,
        applied,
        by_rule,
        refused: refused.iter().map(Refusal::to_string).collect(),
        report: Some(current_report),
        most_reported: current_most_reported,
    }))
}

/// A text's fixes in position order again: those `kept` for a round, with those
/// `held_back` from it put back at their places.
fn with_held_back<T>(kept: Vec<T>, held_back: Vec<(usize, T)>) -> Vec<T> {
    let mut all = Vec::with_capacity(kept.len() + held_back.len());
    let mut kept = kept.into_iter();
    for (place, fix) in held_back {
        all.extend(kept.by_ref().take(place - all.len()));
        all.push(fix);
    }
    all.extend(kept);
    all
}

/// A fix's rule and edits, each with the text of `text` it replaces: two fixes
/// alike in these make the same change, whatever their diagnostics say. Spans
/// move as other fixes apply; these do not.
#[derive(Clone, Copy)]
struct SameFix<'a> {
    text: &'a str,
    fix: &'a PendingFix,
}

impl<'a> SameFix<'a> {
    /// Each edit's replaced text and new content.
    fn edits(self) -> impl ExactSizeIterator<Item = (&'a str, &'a str)> {
        self.fix.edits().iter().map(move |e| {
            let replaced = self.text.get(e.span.clone()).unwrap_or_default();
            (replaced, e.content.as_str())
        })
    }
}

impl PartialEq for SameFix<'_> {
    fn eq(&self, other: &Self) -> bool {
        same_fix(
            self.fix.code(),
            self.edits(),
            other.fix.code(),
            other.edits(),
        )
    }
}

impl Eq for SameFix<'_> {}

impl Hash for SameFix<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_fix(self.fix.code(), self.edits(), state);
    }
}

/// Whether two fixes' rules and edits ([`SameFix`]) are alike, whichever form
/// holds them.
fn same_fix<'a, 'b>(
    rule: &str,
    edits: impl ExactSizeIterator<Item = (&'a str, &'a str)>,
    other_rule: &str,
    other_edits: impl ExactSizeIterator<Item = (&'b str, &'b str)>,
) -> bool {
    rule == other_rule
        && edits.len() == other_edits.len()
        && edits
            .zip(other_edits)
            .all(|(a, b)| a.0 == b.0 && a.1 == b.1)
}

/// Hashes a fix's rule and edits ([`SameFix`]) alike whichever form holds them,
/// so a borrowed key finds its owned copy.
fn hash_fix<'e, H: Hasher>(
    rule: &str,
    edits: impl ExactSizeIterator<Item = (&'e str, &'e str)>,
    state: &mut H,
) {
    rule.hash(state);
    state.write_usize(edits.len());
    for (replaced, content) in edits {
        replaced.hash(state);
        content.hash(state);
    }
}

/// A fix of one round's text and the how-manieth alike fix of the text it is:
/// what identifies it in the next round's lint. (Without that count, one refused
/// deletion of a character would hold back the same deletion everywhere else in
/// the file until the next run.)
struct FixKeyRef<'a> {
    same: SameFix<'a>,
    nth: usize,
}

impl Hash for FixKeyRef<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.same.hash(state);
        state.write_usize(self.nth);
    }
}

impl indexmap::Equivalent<FixKey> for FixKeyRef<'_> {
    fn equivalent(&self, key: &FixKey) -> bool {
        let same = self.same;
        self.nth == key.nth && same_fix(same.fix.code(), same.edits(), key.rule, key.edits())
    }
}

/// A [`FixKeyRef`] kept past its round's text: a refused fix's, found again in
/// the next round's fixes without a copy of theirs.
#[derive(PartialEq, Eq)]
struct FixKey {
    rule: &'static str,
    edits: Box<[(String, String)]>,
    nth: usize,
}

impl FixKey {
    fn new(same: SameFix, nth: usize) -> FixKey {
        FixKey {
            rule: same.fix.code(),
            edits: same
                .edits()
                .map(|(replaced, content)| (replaced.to_string(), content.to_string()))
                .collect(),
            nth,
        }
    }

    fn edits(&self) -> impl ExactSizeIterator<Item = (&str, &str)> {
        self.edits.iter().map(|(r, c)| (r.as_str(), c.as_str()))
    }
}

impl Hash for FixKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_fix(self.rule, self.edits(), state);
        state.write_usize(self.nth);
    }
}

/// For each fix of one round's text (in position order), the how-manieth fix
/// alike ([`SameFix`]) it is, counting from 1.
fn fix_nths(text: &str, fixes: &[PendingFix]) -> Vec<usize> {
    let mut seen: HashMap<SameFix, usize> = HashMap::new();
    fixes
        .iter()
        .map(|fix| {
            let count = seen.entry(SameFix { text, fix }).or_insert(0);
            *count += 1;
            *count
        })
        .collect()
}

/// The index of `item`, an element of `items`, in `items`.
fn index_in<T>(items: &[T], item: &T) -> usize {
    let offset = item as *const T as usize - items.as_ptr() as usize;
    offset / std::mem::size_of::<T>().max(1)
}

/// The places a round's meaning check refused, asked which fixes touch one: by a
/// binary search per edit, as a file can have tens of thousands of refusals
/// beside as many fixes.
struct Refused {
    /// The refused places, by start.
    spans: Vec<Span>,
    /// The furthest end of the places up to each one.
    furthest_end: Vec<usize>,
}

impl Refused {
    fn new(places: impl Iterator<Item = Span>) -> Refused {
        let mut spans: Vec<Span> = places.collect();
        sort_by_position(&mut spans, |span| span);
        let furthest_end = spans
            .iter()
            .scan(0, |furthest, span| {
                *furthest = span.end.max(*furthest);
                Some(*furthest)
            })
            .collect();
        Refused {
            spans,
            furthest_end,
        }
    }

    /// Whether one of a fix's edits touches a refused place (shares a byte with
    /// it or meets it).
    fn touched_by(&self, fix: &PendingFix) -> bool {
        fix.edits().iter().any(|e| {
            // Of the places starting by the edit's end, one reaches its start.
            let starting_by_its_end = self.spans.partition_point(|s| s.start <= e.span.end);
            starting_by_its_end
                .checked_sub(1)
                .is_some_and(|last| self.furthest_end[last] >= e.span.start)
        })
    }
}

/// The fixes applied this round: allowed, with valid edits, and not overlapping
/// or touching an earlier one (those wait for the next round).
fn choose<'f>(text: &str, fixes: &'f [PendingFix], unsafe_fixes: bool) -> Vec<&'f PendingFix> {
    let mut candidates: Vec<(Span, &PendingFix)> = fixes
        .iter()
        .filter_map(|fix| {
            if !allowed(fix, unsafe_fixes) {
                return None;
            }
            let edits = fix.edits();
            if !edits.iter().all(|e| is_valid_span(text, &e.span)) {
                return None;
            }
            // Nearly every fix is one edit: its span, with no list to sort.
            if let [edit] = edits {
                return Some((edit.span.clone(), fix));
            }
            let mut spans: Vec<&Span> = edits.iter().map(|e| &e.span).collect();
            if spans.is_empty() {
                return None;
            }
            sort_by_position(&mut spans, |s| s);
            // A fix whose own edits overlap cannot be applied in any order.
            if spans
                .windows(2)
                .any(|w| w[1].start < w[0].end || w[1].start == w[0].start)
            {
                return None;
            }
            let start = spans.first().map_or(0, |s| s.start);
            let end = spans.iter().map(|s| s.end).max().unwrap_or(start);
            Some((start..end, fix))
        })
        .collect();
    sort_by_position(&mut candidates, |(span, _)| span);
    let mut chosen = Vec::new();
    let mut last_end: Option<usize> = None;
    for (span, fix) in candidates {
        if last_end.is_some_and(|end| span.start <= end) {
            continue;
        }
        last_end = Some(span.end);
        chosen.push(fix);
    }
    chosen
}

/// Sorts `items` by their spans' start then end, unless they are in that order
/// already, as a round's fixes and edits taken in file order nearly always are: a
/// stable sort takes a buffer half the size of the list (8 MB for a million
/// edits) even then.
fn sort_by_position<T>(items: &mut [T], span: impl Fn(&T) -> &Span) {
    let key = |item: &T| {
        let span = span(item);
        (span.start, span.end)
    };
    if !items.is_sorted_by_key(key) {
        items.sort_by_key(key);
    }
}

/// Why the meaning check refused a payload, and its bytes in the text the round
/// started from (the fixes touching it are left out). Its message is written
/// only when it is reported: a round's refusals are dropped when the refused
/// fixes are tried again.
struct Refusal {
    /// The rules of the fixes touching the payload, sorted (none: "the fixes").
    codes: Box<[&'static str]>,
    /// Where the payload starts, as a refusal message gives it.
    line: usize,
    column: usize,
    why: Why,
    touching: Span,
}

/// What a round would do to a payload.
enum Why {
    NoLongerParse,
    DecodeDifferently,
    /// The payload would disappear or be split (`what`), leaving `after` payloads
    /// in the file instead of `before`.
    Count {
        what: &'static str,
        after: usize,
        before: usize,
    },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.codes.is_empty() {
            f.write_str("refusing to apply the fixes: ")?;
        } else {
            write!(f, "refusing to apply the {} fix: ", self.codes.join(", "))?;
        }
        let (line, column) = (self.line, self.column);
        match self.why {
            Why::NoLongerParse => write!(f, "the payload at {line}:{column} would no longer parse"),
            Why::DecodeDifferently => {
                write!(f, "the payload at {line}:{column} would decode differently")
            }
            Why::Count {
                what,
                after,
                before,
            } => {
                let payloads = |n: usize| if n == 1 { "payload" } else { "payloads" };
                write!(
                    f,
                    "the file would hold {after} {} instead of {before} {} (the payload at \
                     {line}:{column} would {what})",
                    payloads(after),
                    payloads(before)
                )
            }
        }
    }
}

/// Where the bytes of a text move when sorted, non-overlapping edits apply.
struct OffsetMap<'e> {
    edits: Vec<&'e Edit>,
    /// How far the edits before each one (and after the last) move later bytes.
    shift: Vec<isize>,
    /// Where each edit's replacement starts in the new text.
    new_starts: Vec<usize>,
}

impl<'e> OffsetMap<'e> {
    fn new(mut edits: Vec<&'e Edit>) -> OffsetMap<'e> {
        sort_by_position(&mut edits, |e| &e.span);
        let mut shift = Vec::with_capacity(edits.len() + 1);
        let mut total = 0isize;
        shift.push(0);
        let mut new_starts = Vec::with_capacity(edits.len());
        for edit in &edits {
            new_starts.push(moved(edit.span.start, total));
            total += edit.content.len() as isize - edit.span.len() as isize;
            shift.push(total);
        }
        OffsetMap {
            edits,
            shift,
            new_starts,
        }
    }

    /// Where old byte `at` lands: an edit starting there comes after it, a byte
    /// inside a replaced stretch lands at the replacement's start.
    #[cfg(test)]
    fn to_new(&self, at: usize) -> usize {
        self.to_new_from(at, &mut 0)
    }

    /// [`OffsetMap::to_new`] for bytes asked in increasing order: `cursor` (0 at
    /// first) keeps the count of edits starting before the last byte asked, so a
    /// pass over a file's payloads steps through the edits once instead of
    /// searching them for each.
    fn to_new_from(&self, at: usize, cursor: &mut usize) -> usize {
        let behind = cursor
            .checked_sub(1)
            .is_some_and(|i| self.edits[i].span.start >= at);
        if behind {
            *cursor = self.edits.partition_point(|e| e.span.start < at);
        }
        while self.edits.get(*cursor).is_some_and(|e| e.span.start < at) {
            *cursor += 1;
        }
        let before = *cursor;
        match before.checked_sub(1).map(|i| (i, self.edits[i])) {
            Some((i, edit)) if edit.span.end > at => moved(edit.span.start, self.shift[i]),
            _ => moved(at, self.shift[before]),
        }
    }

    /// The old byte that new byte `at` came from (a replacement's bytes: its start).
    fn to_old(&self, at: usize) -> usize {
        let before = self.new_starts.partition_point(|&start| start <= at);
        match before.checked_sub(1) {
            Some(i) if self.new_starts[i] + self.edits[i].content.len() > at => {
                self.edits[i].span.start
            }
            _ => moved(at, -self.shift[before]),
        }
    }
}

fn moved(at: usize, by: isize) -> usize {
    (at as isize + by).max(0) as usize
}

/// Checks a round's result against the document it started from (see the module
/// docs): the payloads are paired up by where the edits move them, and each one
/// that would disappear, appear, stop parsing or (where its fixes promise to keep
/// meaning) decode differently is refused.
fn verify(
    old_text: &str,
    before: &[PayloadMeaning],
    after: &[PayloadMeaning],
    chosen: &[&PendingFix],
) -> Result<(), Vec<Refusal>> {
    let map = OffsetMap::new(chosen.iter().flat_map(|f| f.edits()).collect());
    // The chosen fixes' edits, sorted and not overlapping, so those touching a
    // payload are one run of them, found by binary search.
    let mut edits: Vec<(&Span, &PendingFix)> = chosen
        .iter()
        .flat_map(|f| f.edits().iter().map(move |e| (&e.span, *f)))
        .collect();
    sort_by_position(&mut edits, |(span, _)| span);
    let touching = |span: &Span| -> Vec<&PendingFix> {
        let first = edits.partition_point(|(e, _)| e.end < span.start);
        edits[first..]
            .iter()
            .take_while(|(e, _)| e.start <= span.end)
            .map(|(_, d)| *d)
            .collect()
    };
    let codes = |span: &Span| -> Box<[&'static str]> {
        let mut codes: Vec<&'static str> = touching(span).iter().map(|f| f.code()).collect();
        codes.sort_unstable();
        codes.dedup();
        codes.into()
    };
    // Only a refusal names a place: most rounds need no line index.
    let index = std::cell::OnceCell::new();
    let mut refusals = Vec::new();
    let mut refuse = |span: Span, why: Why| {
        let at = index
            .get_or_init(|| LineIndex::new(old_text))
            .location(old_text, span.start);
        refusals.push(Refusal {
            codes: codes(&span),
            line: at.line,
            column: at.column,
            why,
            touching: span,
        });
    };
    let count_change = |what: &'static str| Why::Count {
        what,
        after: after.len(),
        before: before.len(),
    };
    let (mut i, mut j) = (0, 0);
    let mut cursor = 0;
    while i < before.len() || j < after.len() {
        let old_at = before
            .get(i)
            .map(|b| map.to_new_from(b.span.start, &mut cursor));
        let new_at = after.get(j).map(|a| a.span.start);
        match (old_at, new_at) {
            (Some(old_at), Some(new_at)) if old_at == new_at => {
                let (b, a) = (&before[i], &after[j]);
                i += 1;
                j += 1;
                let (Some(was), Some(is)) = (&b.meaning, &a.meaning) else {
                    if b.meaning.is_some() {
                        refuse(b.span.clone(), Why::NoLongerParse);
                    }
                    continue;
                };
                if was == is {
                    continue;
                }
                let may_change = touching(&b.span).iter().any(|f| {
                    f.applicability == Applicability::Unsafe
                        || !MEANING_PRESERVING.contains(&f.code())
                });
                if !may_change {
                    refuse(b.span.clone(), Why::DecodeDifferently);
                }
            }
            (Some(old_at), new_at) if new_at.is_none_or(|new_at| old_at < new_at) => {
                refuse(before[i].span.clone(), count_change("disappear"));
                i += 1;
            }
            _ => {
                let span = &after[j].span;
                let old_span =
                    map.to_old(span.start)..map.to_old(span.end).max(map.to_old(span.start));
                refuse(old_span, count_change("be split"));
                j += 1;
            }
        }
    }
    if refusals.is_empty() {
        Ok(())
    } else {
        Err(refusals)
    }
}

/// Checks that `new` holds the same payloads as `old`, each meaning exactly the
/// same: the guard before writing a formatted file.
pub fn verify_same_meaning(old: &str, new: &str, kind: FileKind) -> Result<(), String> {
    let before = payload_meanings(old, kind);
    let after = payload_meanings(new, kind);
    if before.len() != after.len() {
        return Err(format!(
            "refusing to write: the result would hold {} payloads instead of {}",
            after.len(),
            before.len()
        ));
    }
    let index = LineIndex::new(old);
    for (b, a) in before.iter().zip(&after) {
        if b.meaning != a.meaning {
            let at = index.location(old, b.span.start);
            return Err(format!(
                "refusing to write: the payload at {}:{} would {}",
                at.line,
                at.column,
                if a.meaning.is_none() {
                    "no longer parse"
                } else {
                    "decode differently"
                }
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::{Diagnostic, Fix};

    #[test]
    fn overlapping_fixes_wait_for_the_next_round() {
        let text = r#"{"intent":"!START","meta":{"req_id":"a1b2c3d4","next_agent":null,"session_id":null}}"#;
        let fixed = fix_text(text, FileKind::SilpJson, &Settings::default(), false).unwrap();
        assert_eq!(fixed.applied, 2);
        assert_eq!(
            fixed.text,
            r#"{"intent":"!START","meta":{"req_id":"a1b2c3d4"}}"#
        );
        let value: serde_json::Value = serde_json::from_str(&fixed.text).unwrap();
        assert!(value["meta"].get("next_agent").is_none());
    }

    /// A suppression used only by a diagnostic without a fix is used all the same:
    /// the fix engine, which keeps no such diagnostic, leaves it in place and
    /// deletes only the unused ones (SL801).
    #[test]
    fn suppressions_used_by_findings_without_a_fix_stay() {
        let text = "# silp-lint: ignore[SL101]\nbegin(x)\n# silp-lint: ignore[SL101]\nstart(y)\nStart(z) # silp-lint: ignore[SL405]\n";
        for text in [text.to_string(), text.replace('\n', "\r\n")] {
            let fixed = fix_text(&text, FileKind::Silp, &Settings::default(), false).unwrap();
            let line_end = if text.contains('\r') { "\r\n" } else { "\n" };
            assert_eq!(
                fixed.text,
                [
                    "# silp-lint: ignore[SL101]",
                    "begin(x)",
                    "start(y)",
                    "start(z)",
                    ""
                ]
                .join(line_end)
            );
            assert_eq!(fixed.by_rule, BTreeMap::from([("SL104", 1), ("SL801", 2)]));
        }
    }

    /// A suppression used by a finding the fix engine's lint builds no message
    /// for (SL405 there keeps only its rule and place) is used all the same.
    #[test]
    fn a_suppression_of_a_rule_without_fixes_stays_while_fixing() {
        let text = "Book(a,b) # silp-lint: ignore[SL405]\nStart(x)\n";
        let fixed = fix_text(text, FileKind::Silp, &Settings::default(), false).unwrap();
        assert_eq!(
            fixed.text,
            "book(a,b) # silp-lint: ignore[SL405]\nstart(x)\n"
        );
        assert_eq!(fixed.by_rule, BTreeMap::from([("SL104", 2)]));
    }

    /// The refused places a fix touches are found as comparing it with each of
    /// them finds them: edits of every start and length up to 3 bytes, each
    /// against sets of refused places that nest, overlap, meet and are empty.
    #[test]
    fn a_fix_touches_the_refused_places_a_scan_finds() {
        let rule = crate::rules::registry::find("SL104").unwrap().meta();
        let places: [&[Span]; 4] = [
            &[],
            &[4..6, 6..6],
            &[2..3, 3..3, 8..12],
            &[9..10, 1..11, 5..7],
        ];
        for refused in places {
            let index = Refused::new(refused.iter().cloned());
            for start in 0..14 {
                for len in 0..4 {
                    let edit = Edit::delete(start..start + len);
                    let fix = Fix::safe("test", vec![edit.clone()]);
                    let diagnostic = Diagnostic {
                        rule,
                        severity: rule.severity,
                        message: String::new(),
                        help: None,
                        span: edit.span.clone(),
                        fix: Some(Box::new(fix)),
                        related: Vec::new(),
                    };
                    let fix = PendingFix::of(diagnostic).unwrap();
                    let scanned = refused
                        .iter()
                        .any(|span| edit.span.start <= span.end && edit.span.end >= span.start);
                    assert_eq!(
                        index.touched_by(&fix),
                        scanned,
                        "{:?} against {refused:?}",
                        edit.span
                    );
                }
            }
        }
    }

    /// A deletion refused in one round is found in the next round's fixes where
    /// other fixes moved it, and only as the same how-manieth deletion alike.
    #[test]
    fn a_refused_fix_is_known_again_where_it_moved() {
        let rule = crate::rules::registry::find("SL204").unwrap().meta();
        let deletion = |span: Span| {
            let diagnostic = Diagnostic {
                rule,
                severity: rule.severity,
                message: String::new(),
                help: None,
                span: span.clone(),
                fix: Some(Box::new(Fix::safe("delete", vec![Edit::delete(span)]))),
                related: Vec::new(),
            };
            PendingFix::of(diagnostic).unwrap()
        };
        let (before, after) = ("a\u{ad}b\u{ad}", "  a\u{ad}b\u{ad}");
        let refused = [deletion(1..3), deletion(4..6)];
        let moved = [deletion(3..5), deletion(6..8)];
        assert_eq!(fix_nths(before, &refused), [1, 2]);
        let mut keys = IndexSet::new();
        keys.insert(FixKey::new(
            SameFix {
                text: before,
                fix: &refused[1],
            },
            2,
        ));
        let known = |fix, nth| {
            keys.contains(&FixKeyRef {
                same: SameFix { text: after, fix },
                nth,
            })
        };
        assert!(known(&moved[1], 2));
        assert!(
            !known(&moved[0], 1),
            "the first deletion alike was not refused"
        );
        let other = deletion(5..6);
        assert!(
            !known(&other, 2),
            "deleting another character is another fix"
        );
    }

    #[test]
    fn fixes_held_back_go_back_to_their_places() {
        assert_eq!(
            with_held_back(vec![1, 3], vec![(0, 0), (2, 2), (4, 4)]),
            [0, 1, 2, 3, 4]
        );
        assert_eq!(with_held_back(vec![0, 1], vec![]), [0, 1]);
        assert_eq!(with_held_back(vec![], vec![(0, 0), (1, 1)]), [0, 1]);
    }

    #[test]
    fn meanings_compare_values_not_spacing() {
        let a = payload_meanings("start( a )\n", FileKind::Silp);
        let b = payload_meanings("start(a)\n", FileKind::Silp);
        assert!(a[0].meaning.is_some());
        assert_eq!(a[0].meaning, b[0].meaning);
        assert!(verify_same_meaning("start(a)", "start(b)", FileKind::Silp).is_err());
        assert!(verify_same_meaning("start(a)", "start(a", FileKind::Silp).is_err());
        assert!(verify_same_meaning("start(a)", "start(a)\nstop(b)", FileKind::Silp).is_err());
    }

    #[test]
    fn a_refused_fix_is_left_out_and_the_others_apply() {
        // Deleting the soft hyphen would leave line 1 blank: its payload would
        // disappear. The SL104 fix on line 2 still applies.
        let text = "\u{AD}\nCancel(x)\n";
        let fixed = fix_text(text, FileKind::Silp, &Settings::default(), false).unwrap();
        assert_eq!(fixed.text, "\u{AD}\ncancel(x)\n");
        assert_eq!(fixed.applied, 1);
        assert_eq!(fixed.refused.len(), 1);
        assert!(
            fixed.refused[0].contains("SL204") && fixed.refused[0].contains("1:1 would disappear"),
            "{}",
            fixed.refused[0]
        );
        // Many such lines are refused together, in one pass, and so they are in a
        // file of more than a piece, whose first lint gives the meanings checked.
        for lines in [500, PIECE_BYTES / 12 + 1] {
            let text = "\u{AD}\nCancel(x)\n".repeat(lines);
            let fixed = fix_text(&text, FileKind::Silp, &Settings::default(), false).unwrap();
            assert_eq!(fixed.text, "\u{AD}\ncancel(x)\n".repeat(lines));
            assert_eq!(fixed.refused.len(), lines);
        }
    }

    /// The whole-file engine, to compare the pieces with.
    fn fixed_whole(text: &str, kind: FileKind, unsafe_fixes: bool) -> Result<Fixed, String> {
        let settings = Settings::default();
        fix_with(text, kind, unsafe_fixes, &|text, meanings| {
            lint_text_for_fixes(text, kind, &settings, meanings)
        })
    }

    /// What `check` reports of `text`.
    fn reported(text: &str, kind: FileKind) -> Vec<Diagnostic> {
        crate::lint::lint_text_diagnostics(text, kind, &Settings::default())
    }

    /// Diagnostics as a report shows them, to compare.
    fn shown(report: Option<&[Diagnostic]>) -> Option<String> {
        report.map(|diagnostics| format!("{diagnostics:#?}"))
    }

    /// Fixed in pieces as small as one line, a file comes out as it would fixed
    /// whole: the same text, the same counts, and the report `check` would give
    /// of it.
    #[test]
    fn large_files_are_fixed_in_pieces_as_they_would_be_whole() {
        let lint = |kind| {
            move |text: &str, meanings| {
                lint_text_for_fixes(text, kind, &Settings::default(), meanings)
            }
        };
        let silp = "Start(x)\r\n# silp-lint: ignore[SL104]\r\nCancel(y)\n\n# silp-lint: ignore[SL101]\n# a comment\nbegin(z) # silp-lint: ignore[SL104]\rif !rain(t+1): Cancel(w)\n//ping silp/1\n\u{200b}start(a)\n# silp-lint: ignore[SL999]\nstart(b)\n";
        let jsonl = "{\"intent\":\"!cancel\",\"meta\":{\"req_id\":\"A1B2C3D4\"}}\n\n{\"intent\":\"!START\",\"act\":\"x\\u200b\"}\r\nnot json\n{\"intent\":\"!START\",\"note\":null}\n";
        let slip = "SLIP v1 a b Reqest\n# silp-lint: ignore[SL601]\nSLIP v1 a b RequestTask x\nSLIP v2 a b c\nSLIP v1 a b requesttask\n";
        for (start, unit, kind) in [
            ("\u{feff}", silp, FileKind::Silp),
            ("", jsonl, FileKind::SilpJsonl),
            ("", slip, FileKind::Slip),
        ] {
            let text = format!("{start}{}", unit.repeat(30));
            for unsafe_fixes in [false, true] {
                let whole = fixed_whole(&text, kind, unsafe_fixes).unwrap();
                assert!(whole.applied > 30, "{kind:?}: {whole:?}");
                assert!(whole.refused.is_empty(), "{kind:?}: {:?}", whole.refused);
                for piece_bytes in [1, 37, 1000] {
                    let pieces = fix_in_pieces(&text, kind, unsafe_fixes, &lint(kind), piece_bytes)
                        .unwrap_or_else(|| panic!("{kind:?} in pieces of {piece_bytes}"));
                    assert_eq!(
                        (&pieces.text, pieces.applied, &pieces.by_rule),
                        (&whole.text, whole.applied, &whole.by_rule),
                        "{kind:?} in pieces of {piece_bytes}, unsafe fixes {unsafe_fixes}"
                    );
                    assert_eq!(
                        shown(pieces.report.as_deref()),
                        shown(Some(&reported(&whole.text, kind))),
                        "{kind:?} in pieces of {piece_bytes}, unsafe fixes {unsafe_fixes}"
                    );
                }
            }
        }
    }

    /// Lines of every kind `fix_in_pieces` has to get right: fixes safe and
    /// unsafe, refused ones, suppressions used and unused, marks and joiners.
    const LINES: [&str; 16] = [
        "Cancel(x)",
        "Start(y); Stop(z)",
        "\u{feff}start(a)",
        "\u{ad}",
        "# silp-lint: ignore[SL104]",
        "# silp-lint: ignore[SL101]",
        "Begin(q) # silp-lint: ignore[SL104]",
        "begin(r) # silp-lint: ignore[SL104]",
        "",
        "\u{200b}stop(z)",
        "fetch(q=北京)",
        "if !rain(t+1): Cancel(w) else: start(cards@indoor)",
        "start(\u{430}b)",
        "  ",
        "//ping silp/1",
        "start(x\u{200d}y)",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]
        /// A file the pieces fix comes out as the whole-file engine fixes it.
        #[test]
        fn files_fixed_in_pieces_are_fixed_as_whole(
            lines in proptest::collection::vec((0..LINES.len(), 0..3usize), 1..40),
            piece_bytes in 1..120usize,
            unsafe_fixes: bool,
        ) {
            let text: String = lines
                .iter()
                .map(|&(line, end)| format!("{}{}", LINES[line], ["\n", "\r\n", "\r"][end]))
                .collect();
            let lint = |text: &str, meanings| {
                lint_text_for_fixes(text, FileKind::Silp, &Settings::default(), meanings)
            };
            if let Some(pieces) = fix_in_pieces(&text, FileKind::Silp, unsafe_fixes, &lint, piece_bytes) {
                let whole = fixed_whole(&text, FileKind::Silp, unsafe_fixes).unwrap();
                proptest::prop_assert!(whole.refused.is_empty());
                proptest::prop_assert_eq!(
                    (&pieces.text, pieces.applied, &pieces.by_rule),
                    (&whole.text, whole.applied, &whole.by_rule)
                );
                proptest::prop_assert_eq!(
                    shown(pieces.report.as_deref()),
                    shown(Some(&reported(&whole.text, FileKind::Silp)))
                );
            }
        }
    }

    /// The pieces' reports are joined only while no rule can have reported past
    /// its limit, suppressed findings counted: past it, `check --fix` lints the
    /// file again for a report that keeps each rule's first findings.
    #[test]
    fn pieces_reports_are_not_joined_past_a_rules_limit() {
        let lint = |text: &str, meanings| {
            lint_text_for_fixes(text, FileKind::Silp, &Settings::default(), meanings)
        };
        // Unknown verbs (no fix) up to the limit, one of them suppressed, and a
        // name to fix in each piece.
        let block = format!("{}Cancel(x)\n", "frobnicate(y)\n".repeat(50));
        let at_limit = format!(
            "# silp-lint: ignore[SL101]\n{}",
            block.repeat(MAX_PER_RULE / 50)
        );
        let fixed = fix_in_pieces(&at_limit, FileKind::Silp, false, &lint, 1000).unwrap();
        assert_eq!(fixed.applied, MAX_PER_RULE / 50);
        let report = reported(&fixed.text, FileKind::Silp);
        assert_eq!(report.len(), MAX_PER_RULE - 1, "all but the one suppressed");
        assert_eq!(shown(fixed.report.as_deref()), shown(Some(&report)));
        // One more, and a whole lint reports how many it left out.
        let past_limit = format!("{at_limit}frobnicate(y)\n");
        let fixed = fix_in_pieces(&past_limit, FileKind::Silp, false, &lint, 1000).unwrap();
        assert!(reported(&fixed.text, FileKind::Silp)
            .iter()
            .any(|d| d.message.contains("not shown")));
        assert!(fixed.report.is_none());
    }

    /// A piece that would read its first character as a byte-order mark, or that
    /// has a fix refused, sends the file to the whole-file engine.
    #[test]
    fn pieces_that_read_differently_alone_leave_the_file_whole() {
        let lint = |text: &str, meanings| {
            lint_text_for_fixes(text, FileKind::Silp, &Settings::default(), meanings)
        };
        for text in [
            "Cancel(x)\n\u{feff}start(a)\n".repeat(20),
            "\u{AD}\nCancel(x)\n".repeat(20),
        ] {
            assert!(fix_in_pieces(&text, FileKind::Silp, false, &lint, 1).is_none());
        }
        // Whole, the mark after a line break is a zero-width character to delete.
        let text = "Cancel(x)\n\u{feff}start(a)\n";
        let whole = fixed_whole(text, FileKind::Silp, false).unwrap();
        assert_eq!(whole.text, "cancel(x)\nstart(a)\n");
    }

    #[test]
    fn a_refusal_in_one_piece_stops_the_others() {
        // The first of many pieces has a fix to refuse; on one thread the pieces
        // run in order, so its refusal comes before any other piece starts.
        let text = format!("\u{AD}\n{}", "Cancel(x)\n".repeat(1000));
        let lints = std::sync::atomic::AtomicUsize::new(0);
        let lint = |text: &str, meanings| {
            lints.fetch_add(1, Ordering::Relaxed);
            lint_text_for_fixes(text, FileKind::Silp, &Settings::default(), meanings)
        };
        let one_thread = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let pieces = one_thread.install(|| fix_in_pieces(&text, FileKind::Silp, false, &lint, 100));
        assert!(pieces.is_none());
        // The first piece's first lint, and the lint of its round's result.
        assert_eq!(lints.load(Ordering::Relaxed), 2);
        let fixed = fix_text(&text, FileKind::Silp, &Settings::default(), false).unwrap();
        assert_eq!(
            fixed.text,
            format!("\u{AD}\n{}", "cancel(x)\n".repeat(1000))
        );
        assert_eq!(fixed.refused.len(), 1);
    }

    #[test]
    fn offsets_move_with_the_edits() {
        let edits = [
            Edit::replace(2..4, "xyz"),
            Edit::insert(6, "++"),
            Edit::delete(8..10),
        ];
        let map = OffsetMap::new(edits.iter().collect());
        // "ab[cd]ef|gh[ij]k" -> "abxyzef++ghk"
        assert_eq!(map.to_new(0), 0);
        assert_eq!(map.to_new(2), 2);
        assert_eq!(map.to_new(3), 2, "inside a replacement: its start");
        assert_eq!(map.to_new(4), 5);
        assert_eq!(map.to_new(6), 7, "before what is inserted there");
        assert_eq!(map.to_new(10), 11);
        // Asked in order (and out of it) through one cursor: the same places.
        let mut cursor = 0;
        for at in (0..=11).chain([3, 3, 0, 9, 6, 11, 2]) {
            assert_eq!(map.to_new_from(at, &mut cursor), map.to_new(at), "at {at}");
        }
        assert_eq!(map.to_old(5), 4);
        assert_eq!(map.to_old(3), 2, "inside a replacement: its start");
        assert_eq!(map.to_old(9), 6);
        assert_eq!(map.to_old(11), 10);
    }
}
