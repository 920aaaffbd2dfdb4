//! The rules: one file per rule, whose doc comment is the user documentation that
//! `silp-lint rule CODE` prints, and `registry.rs`, which lists them.
//!
//! A rule implements [`Rule`] and overrides the hooks for what it inspects: raw text,
//! syntax trees of each payload language, or the semantic model (the IR). Its
//! `declare_rule!` lists those hooks, and [`RuleTable`] calls each hook only on the
//! enabled rules that list it.

pub mod registry;

// One module per rule, named after the rule.
mod a2a_extension_violation;
mod bidi_control;
mod confusable_character;
mod duplicate_entity_id;
mod duplicate_req_id;
mod excluded_verb;
mod fallback_without_payload;
mod function_name_case;
mod invalid_agent_id;
mod invalid_heartbeat;
mod invalid_operator;
mod invalid_req_id;
mod invalid_session_id;
mod invalid_syntax;
mod invisible_character;
mod json_frontend_violation;
mod lossy_frontend_negation;
mod malformed_action_code;
mod mcp_wrapper_violation;
mod nlip_envelope_violation;
mod nlip_format_case;
mod nlip_key_case;
mod non_alphanumeric_anchor;
mod non_canonical_form;
mod non_portable_payload;
mod non_space_delimiter;
mod nonstandard_syntax;
mod not_round_trippable;
mod null_optional_field;
mod schema_violation;
mod short_req_id;
mod ucr_hash_mismatch;
mod undecodable_payload;
mod undefined_seq_keyword;
mod unknown_anchor;
mod unknown_seq_item;
mod unknown_verb;
mod unsupported_frontend;
mod unsupported_slip_version;
mod unsupported_version;
mod unused_suppression;
mod zero_width_character;

use crate::diagnostics::{Diagnostic, Fix, PendingFix, Related, RuleMeta, Severity};
use crate::ir::Ir;
use crate::settings::Settings;
use crate::source::Span;
use crate::syntax::code;
use crate::syntax::document::Carrier;
use crate::syntax::json::JsonNode;
use crate::syntax::ping::Probe;
use crate::syntax::slip::Message;
use crate::syntax::suppression::{may_hold_suppression, Suppression};
use crate::syntax::SyntaxError;
use std::collections::{HashMap, HashSet};

/// Declares a rule's struct, its [`RuleMeta`] (from its doc comment and registry
/// position) and its [`Declared`] impl. A rule not listed in `registry.rs` has no
/// id and does not compile.
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        pub struct $name:ident {
            code: $code:literal,
            name: $rule_name:literal,
            severity: $severity:ident,
            $(protocol_error: $protocol_error:literal,)?
            hooks: [$($hook:ident),* $(,)?]
            $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        pub struct $name;

        impl $name {
            pub const META: $crate::diagnostics::RuleMeta = $crate::diagnostics::RuleMeta {
                id: $crate::rules::registry::id::$name,
                code: $code,
                name: $rule_name,
                severity: $crate::diagnostics::Severity::$severity,
                doc: concat!($($doc, "\n"),*),
                protocol_error: declare_rule!(@option $($protocol_error)?),
            };
        }

        impl $crate::rules::Declared for $name {
            fn meta(&self) -> &'static $crate::diagnostics::RuleMeta {
                &Self::META
            }

            fn hooks(&self) -> &'static [$crate::rules::Hook] {
                &[$($crate::rules::Hook::$hook),*]
            }
        }
    };
    (@option) => { None };
    (@option $value:literal) => { Some($value) };
}
pub(crate) use declare_rule;

/// What `declare_rule!` implements for every rule: its fixed facts.
pub trait Declared {
    fn meta(&self) -> &'static RuleMeta;
    /// The hooks of [`Rule`] the rule overrides, as `declare_rule!` lists them: a
    /// walk calls a hook only on the rules that have it (a test checks each list
    /// against the rule's source).
    fn hooks(&self) -> &'static [Hook];
}

/// The hooks of [`Rule`], one per kind of thing a rule can inspect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hook {
    SyntaxErrors,
    Text,
    Prose,
    Code,
    Ping,
    Slip,
    Json,
    Nlip,
    Carrier,
    Ir,
    Suppressions,
    Run,
}

impl Hook {
    pub const ALL: [Hook; 12] = [
        Hook::SyntaxErrors,
        Hook::Text,
        Hook::Prose,
        Hook::Code,
        Hook::Ping,
        Hook::Slip,
        Hook::Json,
        Hook::Nlip,
        Hook::Carrier,
        Hook::Ir,
        Hook::Suppressions,
        Hook::Run,
    ];

    /// The [`Rule`] method of the hook, which the test of declared hooks looks for.
    #[cfg(test)]
    pub fn method(self) -> &'static str {
        match self {
            Hook::SyntaxErrors => "check_syntax_errors",
            Hook::Text => "check_text",
            Hook::Prose => "check_prose",
            Hook::Code => "check_code",
            Hook::Ping => "check_ping",
            Hook::Slip => "check_slip",
            Hook::Json => "check_json",
            Hook::Nlip => "check_nlip",
            Hook::Carrier => "check_carrier",
            Hook::Ir => "check_ir",
            Hook::Suppressions => "check_suppressions",
            Hook::Run => "check_run",
        }
    }
}

/// The rules that settings enable, resolved once into a list per hook, so that a
/// walk calls each hook only on the rules that have it.
pub struct RuleTable {
    by_hook: [Vec<&'static dyn Rule>; Hook::ALL.len()],
    any: bool,
}

impl RuleTable {
    /// The rules `settings` enable.
    pub fn enabled(settings: &Settings) -> RuleTable {
        let mut by_hook: [Vec<&'static dyn Rule>; Hook::ALL.len()] = Default::default();
        let mut any = false;
        for &rule in registry::RULES {
            if settings.enabled(rule.meta()) {
                any = true;
                for &hook in rule.hooks() {
                    by_hook[hook as usize].push(rule);
                }
            }
        }
        RuleTable { by_hook, any }
    }

    /// No rules: a walk only collects `req_id`s.
    pub fn none() -> RuleTable {
        RuleTable {
            by_hook: Default::default(),
            any: false,
        }
    }

    pub fn is_empty(&self) -> bool {
        !self.any
    }

    /// The enabled rules that have `hook`, in code order.
    pub fn with(&self, hook: Hook) -> &[&'static dyn Rule] {
        &self.by_hook[hook as usize]
    }
}

/// A lint rule. Every hook defaults to doing nothing; a rule overrides the ones for
/// what it inspects. Hooks receive spans that are byte offsets into the whole file.
pub trait Rule: Declared + Sync {
    /// Syntax errors from any parser (SL001).
    fn check_syntax_errors(&self, _ctx: &mut Context, _errors: &[SyntaxError]) {}
    /// Raw text of a file or an embedded block, before anything normalises it;
    /// called only for text holding a non-ASCII character, as every rule that reads
    /// raw text looks for Unicode characters (invisible, bidi, look-alike).
    fn check_text(&self, _ctx: &mut Context, _span: Span) {}
    /// Text around the payloads (a Markdown page's prose and other blocks): for the
    /// rules whose finding matters wherever it is, invisible and bidi characters.
    fn check_prose(&self, _ctx: &mut Context, _span: Span) {}
    /// One code-frontend payload's syntax tree.
    fn check_code(&self, _ctx: &mut Context, _payload: &code::Payload) {}
    /// One `//ping` probe.
    fn check_ping(&self, _ctx: &mut Context, _probe: &Probe) {}
    /// One Slipstream message.
    fn check_slip(&self, _ctx: &mut Context, _message: &Message) {}
    /// One JSON payload object (an IR document or a JSON-frontend payload).
    fn check_json(&self, _ctx: &mut Context, _object: &JsonNode, _is_ir_document: bool) {}
    /// One NLIP message (the root object of an `.nlip.json` file).
    fn check_nlip(&self, _ctx: &mut Context, _message: &JsonNode) {}
    /// One MCP wrapper, A2A message or Agent Card extension entry (or a value of a
    /// carrier file that is none of them), before the payload it carries.
    fn check_carrier(&self, _ctx: &mut Context, _carrier: &Carrier) {}
    /// The semantic model of one payload, from whichever frontend it was written in.
    fn check_ir(&self, _ctx: &mut Context, _ir: &Ir) {}
    /// Each suppression comment of the file, with which of its codes were used.
    fn check_suppressions(&self, _ctx: &mut Context, _suppressions: &[(Suppression, Vec<bool>)]) {}
    /// One file of a run, seeing the facts of every file (cross-file rules).
    fn check_run(&self, _run: &RunContext, _file: usize, _found: &mut RunFindings) {}
}

/// The most diagnostics of one rule a file keeps (counted before suppressions): a
/// file with a finding on every character must not take gigabytes to report, and
/// `--fix` (ten rounds) must still clear a file of a hundred thousand.
pub const MAX_PER_RULE: usize = 10_000;

/// The findings of one rule that a context counted past [`MAX_PER_RULE`]
/// without keeping them.
pub struct LeftOut {
    pub rule: &'static RuleMeta,
    pub count: usize,
    /// Where the first of them is.
    pub first: Span,
}

/// The diagnostic that says how many more of a rule's diagnostics a file has than
/// the `per_rule` it keeps, at `span`, the first one left out.
fn left_out(
    meta: &'static RuleMeta,
    settings: &Settings,
    omitted: usize,
    per_rule: usize,
    span: Span,
) -> Diagnostic {
    Diagnostic {
        rule: meta,
        severity: settings.severity(meta),
        message: format!(
            "{omitted} more {} diagnostics in this file are not shown",
            meta.code
        ),
        help: Some(
            format!(
                "silp-lint reports at most {per_rule} diagnostics of one rule per file; fix these and run it again"
            )
            .into(),
        ),
        span,
        fix: None,
        related: Vec::new(),
    }
}

/// What a rule sees while checking one file: its text and settings, and where
/// diagnostics go.
pub struct Context<'a> {
    text: &'a str,
    settings: &'a Settings,
    diagnostics: Vec<Diagnostic>,
    /// How many diagnostics each rule reported, by rule id, and the first span of
    /// those past [`MAX_PER_RULE`], which are counted, not kept.
    reported: Vec<(u32, Option<Span>)>,
    /// For text whose diagnostics all end up on one span (a JSON string written
    /// with escapes): the messages reported so far, so a repeat is not kept.
    distinct: Option<HashSet<(&'static str, String)>>,
    /// The lines of the Markdown fence being linted, without their container's
    /// prefix (`> `, indentation); empty in a payload file, whose lines are whole.
    region_lines: Vec<Span>,
    /// Whether the region's payloads are carried inside a JSON string.
    carried: bool,
    /// Whether the region is an A2A message's SLIP text.
    a2a: bool,
    /// The rule and span of each diagnostic past its rule's limit, which is not
    /// kept: for the suppression it may use, so that a suppression used by such a
    /// finding alone is not called unused (SL801, whose fix would delete it), and
    /// so that the findings left out are counted without the suppressed ones.
    /// `None` until the first such diagnostic, then whether the text may hold a
    /// suppression at all: a line of a million calls past the limit of SL405
    /// keeps none of their places in a text without one.
    past_limit: Option<Option<Vec<(&'static RuleMeta, Span)>>>,
    /// In a context that collects fixes ([`Context::with_fixes`]): the fix of each
    /// diagnostic reported with one, past its rule's limit too, without its
    /// messages (a million of them at once for that line).
    fixes: Vec<PendingFix>,
    collects_fixes: bool,
    /// Whether the last diagnostic is yet to be settled ([`Context::settle_last`]).
    unsettled: bool,
    /// In a [`Context::with_fixes`]: whether the last diagnostic is past its rule's
    /// limit, recorded only for the fix it may get.
    last_past_limit: bool,
}

impl<'a> Context<'a> {
    pub fn new(text: &'a str, settings: &'a Settings) -> Context<'a> {
        Context {
            text,
            settings,
            diagnostics: Vec::new(),
            reported: Vec::new(),
            distinct: None,
            region_lines: Vec::new(),
            carried: false,
            a2a: false,
            past_limit: None,
            fixes: Vec::new(),
            collects_fixes: false,
            unsettled: false,
            last_past_limit: false,
        }
    }

    /// A context that keeps what [`Context::new`] keeps, for a report, and also
    /// collects the fix of every diagnostic with one ([`Context::take_fixes`]),
    /// past [`MAX_PER_RULE`] too, so one run fixes a file however many fixes it
    /// needs: the fix engine's lint of a text, which gives the next round its
    /// fixes and, once nothing more is to be fixed, `check --fix` its report.
    pub fn with_fixes(text: &'a str, settings: &'a Settings) -> Context<'a> {
        Context {
            collects_fixes: true,
            ..Context::new(text, settings)
        }
    }

    /// In a context that collects fixes, settles the last diagnostic once its own
    /// fix could no longer be attached (before another is recorded, and before the
    /// diagnostics are taken or filtered): its fix is collected; past its rule's
    /// limit it is moved out, keeping of it only its fix and its place
    /// ([`Context::past_limit`]).
    fn settle_last(&mut self) {
        if !std::mem::take(&mut self.unsettled) || !self.collects_fixes {
            return;
        }
        if !std::mem::take(&mut self.last_past_limit) {
            if let Some(fix) = self.diagnostics.last().and_then(PendingFix::copied_from) {
                self.fixes.push(fix);
            }
            return;
        }
        let Some(diagnostic) = self.diagnostics.pop() else {
            return;
        };
        self.note_past_limit(diagnostic.rule, &diagnostic.span);
        if let Some(fix) = PendingFix::of(diagnostic) {
            self.fixes.push(fix);
        }
    }

    /// Keeps the place of a diagnostic of `rule` at `span` past the rule's limit,
    /// when the text may hold a suppression ([`Context::past_limit`]).
    fn note_past_limit(&mut self, rule: &'static RuleMeta, span: &Span) {
        if let Some(places) = self.decide_past_limit() {
            places.push((rule, span.clone()));
        }
    }

    /// Decides whether the places past the limit are kept (whether the text may
    /// hold a suppression), once: before a text is linted in pieces, so that each
    /// piece takes the decision rather than searching the whole text itself.
    pub fn decide_past_limit(&mut self) -> Option<&mut Vec<(&'static RuleMeta, Span)>> {
        let text = self.text;
        self.past_limit
            .get_or_insert_with(|| may_hold_suppression(text).then(Vec::new))
            .as_mut()
    }

    /// In a context that collects fixes, room for `more` fixes before the next
    /// rules run: what a large payload's rules may give, about one per call. A
    /// vector grown by doubling to a million fixes touched 72 MB more than it kept,
    /// memory the fix engine's lint then no longer had for its tree and IR; room
    /// never used is never touched.
    pub fn make_room_for_fixes(&mut self, more: usize) {
        if self.collects_fixes {
            self.fixes.reserve(more);
        }
    }

    /// In a context that collects fixes, the fix of every diagnostic reported with
    /// one, in the order reported.
    pub fn take_fixes(&mut self) -> Vec<PendingFix> {
        self.settle_last();
        std::mem::take(&mut self.fixes)
    }

    /// A context whose diagnostics will all be moved onto one span: it keeps one
    /// diagnostic per rule and message (32 MB of escaped `\u200b` is one finding,
    /// not millions).
    pub fn distinct(text: &'a str, settings: &'a Settings) -> Context<'a> {
        Context {
            distinct: Some(HashSet::new()),
            ..Context::new(text, settings)
        }
    }

    /// The payload line holding byte `at`: in a Markdown fence without its
    /// container's prefix, which is not the payload's to rewrite.
    pub fn payload_line(&self, at: usize) -> Span {
        let i = self.region_lines.partition_point(|line| line.start <= at);
        match i.checked_sub(1).map(|i| &self.region_lines[i]) {
            Some(line) if at <= line.end => line.clone(),
            _ => crate::syntax::lines::line_around(self.text, at),
        }
    }

    /// Sets the region being linted: a fence's lines (empty for a file body, whose
    /// lines are whole), whether its payloads are carried in a JSON string, and
    /// whether they are an A2A message's SLIP text.
    pub fn set_region(&mut self, lines: Vec<Span>, carried: bool, a2a: bool) {
        self.region_lines = lines;
        self.carried = carried;
        self.a2a = a2a;
    }

    /// Whether the payloads being linted are carried inside a JSON string (an NLIP
    /// message, an MCP wrapper, an A2A message), where they are not lines of their
    /// own.
    pub fn in_carried_payload(&self) -> bool {
        self.carried
    }

    /// Whether the SLIP line being linted is an A2A message's text, where the
    /// SLIP-A2A extension's token profile applies.
    pub fn in_a2a_message(&self) -> bool {
        self.a2a
    }

    /// Whether a rule of the A2A token profile (SL605, SL609) checks the SLIP line
    /// being linted: in an A2A message always, elsewhere when a selector names it.
    pub fn a2a_profile_applies(&self, rule: &RuleMeta) -> bool {
        self.enabled(rule) && (self.a2a || self.settings.rules.explicitly_selected(rule))
    }

    /// The whole file's text; spans index into it.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The text of `span` (empty when the span is not on char boundaries).
    pub fn slice(&self, span: &Span) -> &'a str {
        self.text.get(span.clone()).unwrap_or("")
    }

    pub fn settings(&self) -> &'a Settings {
        self.settings
    }

    /// Whether the rule is selected; rules check this before costly work.
    pub fn enabled(&self, rule: &RuleMeta) -> bool {
        self.settings.enabled(rule)
    }

    /// Records a diagnostic of `rule` unless the rule is turned off.
    /// Records a diagnostic of `rule` at the rule's severity; see
    /// [`Context::report_at_default`].
    pub fn report(
        &mut self,
        rule: &'static RuleMeta,
        span: Span,
        message: impl Into<String>,
    ) -> Reported<'_> {
        self.report_at_default(rule, rule.severity, span, message)
    }

    /// Records a diagnostic of `rule` unless the rule is turned off, at the
    /// configured severity or else at `default` (for findings whose severity
    /// depends on the draft revision or the case).
    pub fn report_at_default(
        &mut self,
        rule: &'static RuleMeta,
        default: Severity,
        span: Span,
        message: impl Into<String>,
    ) -> Reported<'_> {
        if !self.settings.enabled(rule) {
            return Reported(None);
        }
        self.settle_last();
        let message: String = message.into();
        // A message this lint drops (the fix engine's, or past the rule's limit) is
        // not made printable: quoting the soft hyphen of each of 160,000 syntax
        // errors was 5% of a `--fix` run.
        let message = match self
            .keeps_message(rule)
            .then(|| crate::unicode::visible(&message))
        {
            Some(std::borrow::Cow::Owned(visible)) => visible,
            _ => message,
        };
        if let Some(seen) = &mut self.distinct {
            if !seen.insert((rule.code, message.clone())) {
                return Reported(None);
            }
        }
        if !self.count(rule, &span) {
            return Reported(None);
        }
        self.diagnostics.push(Diagnostic {
            rule,
            severity: self
                .settings
                .rules
                .configured_severity(rule)
                .unwrap_or(default),
            message,
            help: None,
            span,
            fix: None,
            related: Vec::new(),
        });
        self.unsettled = true;
        Reported(self.diagnostics.last_mut())
    }

    /// Counts a diagnostic of `rule` at `span` towards the rule's limit in this
    /// file; whether it is to be kept: below the limit, or past it in a context
    /// that collects fixes, for its fix (settled by [`Context::settle_last`]).
    /// Past the limit, only its place is kept ([`Context::past_limit`]).
    fn count(&mut self, rule: &'static RuleMeta, span: &Span) -> bool {
        if self.count_within_limit(rule, span) {
            return true;
        }
        if self.collects_fixes {
            self.last_past_limit = true;
            return true;
        }
        self.note_past_limit(rule, span);
        false
    }

    /// Counts a diagnostic of `rule` at `span`; whether the rule is still within
    /// its limit in this file. Past it, the first such span is noted for the
    /// diagnostic that says how many were left out.
    fn count_within_limit(&mut self, rule: &'static RuleMeta, span: &Span) -> bool {
        let index = rule.id.index();
        if self.reported.len() <= index {
            self.reported.resize(index + 1, (0, None));
        }
        let (count, first_omitted) = &mut self.reported[index];
        *count += 1;
        if *count as usize <= MAX_PER_RULE {
            return true;
        }
        first_omitted.get_or_insert_with(|| span.clone());
        false
    }

    /// Whether a diagnostic of `rule` reported now would be kept (the rule is on,
    /// and below its limit in this file or its fix collected): rules check it
    /// before costly messages and fixes.
    pub fn keeps(&self, rule: &RuleMeta) -> bool {
        self.settings.enabled(rule) && (self.collects_fixes || self.below_limit(rule))
    }

    /// Whether `rule` has reported fewer than its limit in this file.
    fn below_limit(&self, rule: &RuleMeta) -> bool {
        self.reported
            .get(rule.id.index())
            .is_none_or(|(count, _)| (*count as usize) < MAX_PER_RULE)
    }

    /// Whether a diagnostic of `rule` reported now would keep its message (and its
    /// fix's title): the rule is on and below its limit in this file, or the
    /// context is [`Context::distinct`], which tells findings apart by their
    /// messages; past the limit, the fix engine's lint keeps only its fix. Rules
    /// whose findings can number a million check it before building messages (a
    /// line of a million calls: a million SL405 and SL104 messages per lint, each
    /// dropped).
    pub fn keeps_message(&self, rule: &RuleMeta) -> bool {
        self.settings.enabled(rule) && (self.distinct.is_some() || self.below_limit(rule))
    }

    /// The message and fix title `build` gives, when a diagnostic of `rule`
    /// reported now keeps them ([`Context::keeps_message`]); else two empty
    /// strings, built for nothing: past the limit the fix engine keeps the edit
    /// alone.
    pub fn message_and_title(
        &self,
        rule: &RuleMeta,
        build: impl FnOnce() -> (String, String),
    ) -> (String, String) {
        if self.keeps_message(rule) {
            build()
        } else {
            (String::new(), String::new())
        }
    }

    /// Adds a diagnostic made elsewhere (a payload linted on its own and mapped
    /// back), counted towards its rule's limit in this file as a report is: a
    /// line of escaped text on every line of a file gave each line's finding.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.settle_last();
        if !self.count(diagnostic.rule, &diagnostic.span) {
            return;
        }
        self.diagnostics.push(diagnostic);
        self.unsettled = true;
    }

    /// Removes the diagnostics that `keep` rejects by their rule and start
    /// (suppressed ones). `keep` is also asked about each diagnostic past its
    /// rule's limit, so the suppression it matches counts as used.
    pub fn retain(&mut self, mut keep: impl FnMut(&'static RuleMeta, usize) -> bool) {
        self.settle_last();
        self.diagnostics.retain(|d| keep(d.rule, d.span.start));
        if let Some(Some(places)) = &mut self.past_limit {
            places.retain(|(rule, span)| keep(rule, span.start));
        }
        self.fixes.retain(|fix| keep(fix.rule, fix.span.start));
    }

    /// The diagnostics, with one more for each rule that reported past
    /// [`MAX_PER_RULE`], saying how many were left out.
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        let settings = self.settings;
        let (mut diagnostics, left_out_by_rule) = self.into_kept_and_left_out();
        diagnostics.extend(
            left_out_by_rule
                .into_iter()
                .map(|past| left_out(past.rule, settings, past.count, MAX_PER_RULE, past.first)),
        );
        diagnostics
    }

    /// The diagnostics kept, and what each rule that reported past
    /// [`MAX_PER_RULE`] left out.
    pub fn into_kept_and_left_out(mut self) -> (Vec<Diagnostic>, Vec<LeftOut>) {
        self.settle_last();
        // Where the places past the limit were kept (a text that may hold a
        // suppression), the findings left out are those still there: a finding a
        // suppression covers is not one that is not shown.
        let unsuppressed = self.past_limit.take().flatten().map(|places| {
            let mut by_rule: Vec<(usize, Option<Span>)> = vec![(0, None); self.reported.len()];
            for (rule, span) in places {
                let (count, first) = &mut by_rule[rule.id.index()];
                *count += 1;
                first.get_or_insert(span);
            }
            by_rule
        });
        let mut left_out_by_rule = Vec::new();
        for (index, (rule, (count, first_omitted))) in
            registry::RULES.iter().zip(self.reported).enumerate()
        {
            let Some(first) = first_omitted else {
                continue;
            };
            let (count, first) = match &unsuppressed {
                None => (count as usize - MAX_PER_RULE, first),
                Some(by_rule) => match &by_rule[index] {
                    (count, Some(first)) => (*count, first.clone()),
                    (_, None) => continue,
                },
            };
            left_out_by_rule.push(LeftOut {
                rule: rule.meta(),
                count,
                first,
            });
        }
        (self.diagnostics, left_out_by_rule)
    }

    /// Counts the findings `left_out` of a payload linted on its own towards
    /// their rule's limit in this file, at `span`: they come after the payload's
    /// kept diagnostics ([`Context::push`]ed first), so past the limit here too.
    /// A kept diagnostic saying how many were left out would count as one.
    pub fn count_left_out(&mut self, left_out: &LeftOut, span: &Span) {
        self.settle_last();
        for _ in 0..left_out.count {
            if !self.count_within_limit(left_out.rule, span) {
                self.note_past_limit(left_out.rule, span);
            }
        }
    }

    /// A context for a piece of the same text linted beside this one (on another
    /// thread), after what this one holds: the same file, settings, limit and
    /// region, nothing reported yet but the rules this one has reported to their
    /// limit, which the piece counts without keeping (their reports would be left
    /// out when absorbed). Not for a [`Context::distinct`] one, whose repeats span
    /// the pieces.
    pub fn piece(&self) -> Context<'a> {
        debug_assert!(self.distinct.is_none());
        let full = MAX_PER_RULE as u32;
        Context {
            text: self.text,
            settings: self.settings,
            diagnostics: Vec::new(),
            reported: (self.reported.iter())
                .map(|&(count, _)| (if count >= full { full } else { 0 }, None))
                .collect(),
            distinct: None,
            region_lines: self.region_lines.clone(),
            carried: self.carried,
            a2a: self.a2a,
            past_limit: (self.past_limit.as_ref()).map(|kept| kept.as_ref().map(|_| Vec::new())),
            fixes: Vec::new(),
            collects_fixes: self.collects_fixes,
            unsettled: false,
            last_past_limit: false,
        }
    }

    /// Takes over what the [`Context::piece`]s of the text after this one's
    /// reported, in order, keeping and counting what this context would have had
    /// it reported them itself.
    pub fn absorb(&mut self, mut pieces: Vec<Context<'a>>) {
        self.settle_last();
        pieces.iter_mut().for_each(Context::settle_last);
        // Room for all at once: each piece's reports are freed as they move in.
        self.diagnostics
            .reserve_exact(pieces.iter().map(|piece| piece.diagnostics.len()).sum());
        for piece in pieces {
            self.absorb_piece(piece);
        }
    }

    /// A piece keeps each rule's first reports up to the limit, in order, and
    /// counts the rest, so the reports this context keeps are among them.
    fn absorb_piece(&mut self, piece: Context<'a>) {
        if self.reported.len() < piece.reported.len() {
            self.reported.resize(piece.reported.len(), (0, None));
        }
        self.fixes.extend(piece.fixes);
        // The piece's kept reports count here; those past the limit keep only
        // their place (their fixes are among the piece's).
        for diagnostic in piece.diagnostics {
            if !self.count_within_limit(diagnostic.rule, &diagnostic.span) {
                self.note_past_limit(diagnostic.rule, &diagnostic.span);
                continue;
            }
            self.diagnostics.push(diagnostic);
        }
        if let Some(Some(places)) = piece.past_limit {
            for (rule, span) in places {
                self.note_past_limit(rule, &span);
            }
        }
        // The reports the piece itself left out came after all it kept.
        for ((count, first_omitted), (kept_and_omitted, piece_first_omitted)) in
            self.reported.iter_mut().zip(piece.reported)
        {
            if let Some(span) = piece_first_omitted {
                *count += kept_and_omitted - MAX_PER_RULE as u32;
                first_omitted.get_or_insert(span);
            }
        }
    }

    /// The most diagnostics one rule reported, counted as its limit counts them:
    /// before suppressions, past the limit too.
    pub fn most_reported(&self) -> usize {
        self.reported
            .iter()
            .map(|&(count, _)| count as usize)
            .max()
            .unwrap_or(0)
    }
}

/// Reports one invisible or control character at byte `start` by its name and code
/// point, with the safe fix that deletes it (SL201, SL203, SL204).
pub(crate) fn report_deletable_char(
    ctx: &mut Context,
    rule: &'static RuleMeta,
    start: usize,
    c: char,
    name: &str,
    help: &'static str,
) {
    let at = start..start + c.len_utf8();
    let (message, title) = ctx.message_and_title(rule, || {
        (
            format!("{name} {}", crate::unicode::code_point(c)),
            format!("delete the {name}"),
        )
    });
    ctx.report(rule, at.clone(), message)
        .help(help)
        .fix(Fix::safe(title, vec![crate::diagnostics::Edit::delete(at)]));
}

/// A just-recorded diagnostic, to attach help text or a fix to.
pub struct Reported<'a>(Option<&'a mut Diagnostic>);

impl Reported<'_> {
    pub fn help(mut self, help: impl Into<std::borrow::Cow<'static, str>>) -> Self {
        if let Some(d) = self.0.as_mut() {
            let mut help = help.into();
            if let std::borrow::Cow::Owned(visible) = crate::unicode::visible(&help) {
                help = visible.into();
            }
            d.help = Some(help);
        }
        self
    }

    pub fn related(mut self, related: Related) -> Self {
        if let Some(d) = self.0.as_mut() {
            d.related.push(related);
        }
        self
    }

    pub fn fix(mut self, fix: Fix) -> Self {
        if let Some(d) = self.0.as_mut() {
            d.fix = Some(Box::new(fix));
        }
        self
    }
}

/// A `req_id` written in a payload of a file, with its 1-based line and column, so
/// cross-file rules can name it without the file's text. A run holds one for every
/// use in every file until its cross-file pass, so it is kept small.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReqIdFact {
    pub value: Box<str>,
    pub span: Span,
    pub line: u32,
    pub column: u32,
}

impl ReqIdFact {
    /// The fact for `value` written at `span`, whose start is at `at`.
    pub fn new(value: impl Into<Box<str>>, span: Span, at: crate::source::Location) -> Self {
        ReqIdFact {
            value: value.into(),
            span,
            line: u32::try_from(at.line).unwrap_or(u32::MAX),
            column: u32::try_from(at.column).unwrap_or(u32::MAX),
        }
    }
}

/// A `req_id` of one file of a run, for the cross-file duplicate check.
#[derive(Clone, Copy, Debug)]
pub struct ReqIdUse<'a> {
    pub file: usize,
    pub fact: &'a ReqIdFact,
}

/// One file as cross-file rules see it: its name, settings and `req_id`s.
pub struct LintedFile<'a> {
    pub path: &'a str,
    pub settings: &'a Settings,
    pub req_ids: &'a [ReqIdFact],
}

/// What cross-file rules see: the facts of every file of a run, indexed once.
/// Each file's findings are made when that file is reported ([`RunFindings`]), so
/// a run holds ids and places until then, not the messages naming them (10,000
/// files sharing one id held 21 MiB of messages when they were made up front).
pub struct RunContext<'a> {
    pub files: &'a [LintedFile<'a>],
    /// Every use, file by file, each file's in the order written.
    pub req_ids: Vec<ReqIdUse<'a>>,
    /// Where each file's uses start in `req_ids`, and one more: the end.
    file_starts: Vec<usize>,
    /// The uses of each value written more than once, in order.
    repeated_values: Vec<Vec<usize>>,
    /// Which of `repeated_values` each use is one of, if any.
    repeated_value_of: Vec<Option<usize>>,
}

impl<'a> RunContext<'a> {
    pub fn new(files: &'a [LintedFile<'a>]) -> RunContext<'a> {
        let mut file_starts = Vec::with_capacity(files.len() + 1);
        let mut req_ids = Vec::new();
        for (file, linted) in files.iter().enumerate() {
            file_starts.push(req_ids.len());
            req_ids.extend(linted.req_ids.iter().map(|fact| ReqIdUse { file, fact }));
        }
        file_starts.push(req_ids.len());
        let mut repeated_values: Vec<Vec<usize>> = Vec::new();
        let mut repeated_value_of: Vec<Option<usize>> = vec![None; req_ids.len()];
        for (use_, first) in crate::repeats::repeats(&req_ids, |use_| Some(&*use_.fact.value)) {
            let group = *repeated_value_of[first].get_or_insert_with(|| {
                repeated_values.push(vec![first]);
                repeated_values.len() - 1
            });
            repeated_values[group].push(use_);
            repeated_value_of[use_] = Some(group);
        }
        RunContext {
            files,
            req_ids,
            file_starts,
            repeated_values,
            repeated_value_of,
        }
    }

    /// The indexes in [`Self::req_ids`] of `file`'s uses.
    pub fn uses_in(&self, file: usize) -> std::ops::Range<usize> {
        self.file_starts[file]..self.file_starts[file + 1]
    }

    /// Every use of the value use `use_` writes (itself included, in order), when
    /// the value is written more than once in the run.
    pub fn uses_of_same_value(&self, use_: usize) -> Option<&[usize]> {
        let group = self.repeated_value_of[use_]?;
        Some(&self.repeated_values[group])
    }
}

/// The findings of cross-file rules in one file, capped per rule as a file's own
/// lint is ([`MAX_PER_RULE`]).
pub struct RunFindings<'s> {
    settings: &'s Settings,
    diagnostics: Vec<Diagnostic>,
    /// How many diagnostics each rule reported (by rule id), and the first span of
    /// those past [`MAX_PER_RULE`], counted, not kept.
    reported: HashMap<usize, (usize, Option<Span>)>,
}

impl<'s> RunFindings<'s> {
    pub fn new(settings: &'s Settings) -> RunFindings<'s> {
        RunFindings {
            settings,
            diagnostics: Vec::new(),
            reported: HashMap::new(),
        }
    }

    /// Whether a diagnostic of `rule` reported now would be kept: the rule is on
    /// for the file and below its limit there, as in [`Context::keeps`].
    pub fn keeps(&self, rule: &RuleMeta) -> bool {
        self.settings.enabled(rule)
            && self
                .reported
                .get(&rule.id.index())
                .is_none_or(|(count, _)| *count < MAX_PER_RULE)
    }

    /// Counts a diagnostic of `rule` at `span` that [`Self::keeps`] said would not
    /// be kept, for the note that says how many were left out.
    pub fn count_left_out(&mut self, rule: &'static RuleMeta, span: Span) {
        self.report(rule, span, String::new(), Vec::new());
    }

    /// Records a diagnostic unless the rule is off for the file; past
    /// [`MAX_PER_RULE`] of the rule it is only counted.
    pub fn report(
        &mut self,
        rule: &'static RuleMeta,
        span: Span,
        message: String,
        related: Vec<Related>,
    ) {
        if !self.settings.enabled(rule) {
            return;
        }
        let (count, first_omitted) = self.reported.entry(rule.id.index()).or_default();
        *count += 1;
        if *count > MAX_PER_RULE {
            first_omitted.get_or_insert(span);
            return;
        }
        self.diagnostics.push(Diagnostic {
            rule,
            severity: self.settings.severity(rule),
            message: crate::unicode::visible(&message).into_owned(),
            help: None,
            span,
            fix: None,
            related,
        });
    }

    /// The diagnostics, and one more for each rule that reported past
    /// [`MAX_PER_RULE`], saying how many were left out.
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        let mut diagnostics = self.diagnostics;
        let mut capped: Vec<_> = self
            .reported
            .into_iter()
            .filter_map(|(rule, (count, first))| Some((rule, count, first?)))
            .collect();
        capped.sort_by_key(|(rule, ..)| *rule);
        for (rule, count, span) in capped {
            let meta = registry::RULES[rule].meta();
            diagnostics.push(left_out(
                meta,
                self.settings,
                count - MAX_PER_RULE,
                MAX_PER_RULE,
                span,
            ));
        }
        diagnostics
    }
}
