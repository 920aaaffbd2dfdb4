use super::{declare_rule, Context, Rule};
use crate::diagnostics::{Edit, Fix};
use crate::format::{canonical_code_line, format_message_line, format_silp_line};
use crate::source::Span;
use crate::syntax::code::Payload;
use crate::syntax::slip::Message;

declare_rule! {
    /// ## What it does
    /// Reports a code-frontend or SLIP payload that parses but is not written the way
    /// `silp-lint fmt` prints it: a space after `,` or around `=`, `@` and comparison
    /// operators, a missing space after `:` or `;`, runs of spaces, tabs, or white
    /// space at the start or end of the line.
    ///
    /// The canonical code form is the reference compiler's: `if ` condition `: `
    /// actions ` else: ` alternatives, ` and ` between constraints, `; ` between
    /// calls, `, ` before a comparison's time, and nothing else. A SLIP line has single
    /// spaces between its tokens; quoted payloads are kept as written. A trailing
    /// `# comment` keeps its text, one space before the `#`.
    ///
    /// Any Unicode white space between code-frontend tokens is white space, as
    /// languages.md says ("any white space between tokens is accepted"): an
    /// ideographic space (U+3000) from a CJK input method, or a no-break space, is
    /// reported here, not as a syntax error (SL001).
    ///
    /// ## Why is this bad?
    /// Payloads are compared, hashed (the reference derives `req_id` from the text)
    /// and diffed as text: two spellings of one payload give different ids and noisy
    /// reviews. The canonical form is also the shortest, so it costs the fewest tokens.
    ///
    /// ## Example
    /// ```silp
    /// if budget <= 500 and loc(hotel, downtown):book(hotel, city = Shanghai)
    /// ```
    ///
    /// Use instead:
    /// ```silp
    /// if budget<=500 and loc(hotel,downtown): book(hotel,city=Shanghai)
    /// ```
    ///
    /// ## Fix
    /// Rewrites the line to canonical form (safe: the payload keeps every token, so
    /// it decodes to the same IR). `silp-lint fmt` applies the same rewrite to whole
    /// files. Lines with syntax errors are not reported, nor are payloads carried
    /// inside JSON (NLIP and A2A messages, MCP wrappers: fmt leaves JSON alone; an A2A
    /// message's spacing is SL608's).
    pub struct NonCanonicalForm {
        code: "SL504",
        name: "non-canonical-form",
        severity: Info,
        hooks: [Code, Slip],
    }
}

impl Rule for NonCanonicalForm {
    fn check_code(&self, ctx: &mut Context, payload: &Payload) {
        if !ctx.enabled(&Self::META) || ctx.in_carried_payload() {
            return;
        }
        let line = ctx.payload_line(payload.span.start);
        if !alone_on_line(ctx, &line, &payload.span, true) {
            return;
        }
        let text = ctx.slice(&line);
        // Most payloads are canonical: the tree printed back says so without a reparse.
        if canonical_code_line(text, payload) == text {
            return;
        }
        if let Some(formatted) = format_silp_line(text) {
            report(ctx, payload.span.clone(), line, &formatted);
        }
    }

    fn check_slip(&self, ctx: &mut Context, message: &Message) {
        // An A2A message's spacing is SL608's, a MUST of the extension.
        if !ctx.enabled(&Self::META) || ctx.in_carried_payload() || ctx.in_a2a_message() {
            return;
        }
        let line = ctx.payload_line(message.span.start);
        if !alone_on_line(ctx, &line, &message.span, false) {
            return;
        }
        // The message was parsed from this line: formatted from it, not parsed again.
        if let Some(formatted) = format_message_line(ctx.slice(&line), message) {
            report(ctx, message.span.clone(), line, &formatted);
        }
    }
}

/// Whether the payload at `span` is the only thing on its line (but for blanks and,
/// in `.silp` lines, a trailing comment): payloads carried inside other text, such as
/// a JSON string of an NLIP message, are not formatted.
fn alone_on_line(ctx: &Context, line: &Span, span: &Span, comment: bool) -> bool {
    let before = ctx.slice(&(line.start..span.start.max(line.start)));
    let after = ctx.slice(&(span.end.min(line.end)..line.end)).trim_start();
    before.trim().is_empty()
        && span.end <= line.end
        && (after.is_empty() || (comment && after.starts_with('#')))
}

fn report(ctx: &mut Context, span: Span, line: Span, formatted: &str) {
    let edit = Edit::minimal(line.start, ctx.slice(&line), formatted);
    ctx.report(
        &NonCanonicalForm::META,
        span,
        "payload is not in canonical form",
    )
    .help(format!("`silp-lint fmt` writes it as `{formatted}`"))
    .fix(Fix::safe("Rewrite in canonical form", vec![edit]));
}
