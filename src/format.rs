//! The formatter behind `silp-lint fmt` and SL504: canonical spacing for
//! code-frontend payloads (`.silp` lines) and Slipstream lines (`.slip`), also inside
//! fenced `silp` and `slip` blocks of Markdown pages.
//!
//! What it changes, and what it keeps:
//! - A code payload is printed as the reference compiler prints it (languages.md §2):
//!   `if ` condition `: ` actions ` else: ` alternatives, ` and ` between
//!   constraints, `; ` between calls, nothing around `,` `=` `@` and comparison
//!   operators, `, ` before a comparison's time. The nonstandard forms SL505 reports
//!   keep their keywords and get the same spacing: `if c then a()`, `a() else b()`,
//!   `a() -> b -> c()`, `a() with NAME`; changing them is SL505's fix, not fmt's.
//! - A SLIP line is its tokens joined by single spaces; quoted payloads are kept
//!   verbatim.
//! - Leading and trailing white space of a payload line is removed; a trailing
//!   `# comment` keeps its text and gets exactly one space before the `#`.
//! - Blank lines, comment lines, `//ping` probes and every payload with a syntax error
//!   are left exactly as they are, as are line endings (LF, CRLF, CR) and a BOM.
//! - JSON files and payloads carried inside NLIP messages are not formatted. Like
//!   other formatters, fmt does not read configuration `select`/`ignore` or
//!   suppression comments: it always prints the canonical form.
//!
//! Every rewritten line is checked before it is used: it must lex to the same tokens
//! and keep the same comment boundary, so formatting can never change what a payload
//! means. A line that fails the check is left as it is.

use crate::diagnostics::{apply_edits, Edit};
use crate::source::FileKind;
use crate::syntax::code::{self, Arg, Call, ConditionEnd, Constraint, Payload, Separator};
use crate::syntax::document::{Item, SilpBody, SilpLine};
use crate::syntax::lines::split_trailing_comment;
use crate::syntax::slip::{self, Message};
use crate::syntax::{parse, ping, Document};

/// The canonical text of a code payload's syntax tree.
pub fn print_code(payload: &Payload) -> String {
    let mut out = String::with_capacity(payload.span.len() + 8);
    if let Some(condition) = &payload.condition {
        out.push_str("if ");
        for (i, constraint) in condition.constraints.iter().enumerate() {
            if i > 0 {
                out.push_str(" and ");
            }
            print_constraint(&mut out, constraint);
        }
        out.push_str(match condition.end {
            Some(ConditionEnd::Colon(_)) => ": ",
            Some(ConditionEnd::Then(_)) => " then ",
            None => " ",
        });
    }
    for (i, call) in payload.actions.iter().enumerate() {
        if i > 0 {
            out.push_str(match payload.separators.get(i - 1) {
                Some(Separator::Arrow(_)) => " -> ",
                _ => "; ",
            });
        }
        print_call(&mut out, call);
    }
    if let Some(branch) = &payload.else_branch {
        out.push_str(if branch.colon.is_some() {
            " else: "
        } else {
            " else "
        });
        for (i, alternative) in branch.alternatives.iter().enumerate() {
            if i > 0 {
                out.push_str("; ");
            }
            print_call(&mut out, alternative);
        }
    }
    if let Some((_, name)) = &payload.with {
        out.push_str(" with ");
        out.push_str(name.text);
    }
    out
}

fn print_constraint(out: &mut String, constraint: &Constraint) {
    match constraint {
        Constraint::Negation { name, time, .. } => {
            out.push('!');
            out.push_str(name.text);
            if let Some(time) = time {
                out.push('(');
                out.push_str(time.text);
                out.push(')');
            }
        }
        Constraint::Comparison {
            name,
            op,
            value,
            time,
            ..
        } => {
            out.push_str(name.text);
            out.push_str(op.text);
            out.push_str(value.text);
            if let Some(time) = time {
                out.push_str(", ");
                out.push_str(time.text);
            }
        }
        Constraint::Predicate { name, args, .. } => {
            out.push_str(name.text);
            out.push('(');
            for (i, arg) in args.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(arg.text);
            }
            out.push(')');
        }
    }
}

fn print_call(out: &mut String, call: &Call) {
    out.push_str(call.name.text);
    if let Some(args) = &call.args {
        out.push('(');
        for (i, arg) in args.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            print_arg(out, arg);
        }
        out.push(')');
    }
}

fn print_arg(out: &mut String, arg: &Arg) {
    if let Some(key) = &arg.key {
        out.push_str(key.text);
        out.push('=');
    }
    out.push_str(arg.value.text);
    if let Some(location) = &arg.location {
        out.push('@');
        out.push_str(location.text);
    }
}

/// The canonical text of a SLIP message: its tokens joined by single spaces.
pub fn print_slip(message: &Message) -> String {
    let mut out = String::with_capacity(message.span.len());
    let fields = [
        Some(&message.marker),
        message.version.as_ref(),
        message.src.as_ref(),
        message.dst.as_ref(),
        message.anchor.as_ref(),
    ];
    for text in fields
        .into_iter()
        .flatten()
        .map(|t| t.text)
        .chain(message.payload.iter().map(|p| p.text))
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(text);
    }
    out
}

/// Splits a `.silp` line into its payload (trailing white space removed) and its
/// trailing comment (from `#`, trailing white space removed), as the linter reads it.
fn split_comment(line: &str) -> (&str, Option<&str>) {
    let (payload, hash) = split_trailing_comment(line);
    let comment = hash.and_then(|i| line.get(i..)).map(str::trim_end);
    (payload, comment)
}

/// The canonical line for a code payload already parsed from `line`, without
/// re-checking it: the fast path SL504 uses to see that a line needs nothing.
pub fn canonical_code_line(line: &str, payload: &Payload) -> String {
    let (_, comment) = split_comment(line);
    let mut out = print_code(payload);
    if let Some(comment) = comment {
        out.push(' ');
        out.push_str(comment);
    }
    out
}

/// The canonical form of one `.silp` line (without its terminator), or `None` when
/// the line is already canonical or must be left as it is (blank, comment, probe,
/// syntax error).
pub fn format_silp_line(line: &str) -> Option<String> {
    let trimmed = line.trim_start();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return None;
    }
    let (payload, _) = split_comment(line);
    if ping::is_probe(payload) {
        return None;
    }
    let parse = code::parse_payload(payload, 0);
    if !parse.errors.is_empty() {
        return None;
    }
    format_code_line(line, &*parse.payload?)
}

/// The canonical form of a `.silp` line whose payload parsed without errors into
/// `tree`, or `None` when it is canonical already or the rewrite would not read
/// back the same.
fn format_code_line(line: &str, tree: &Payload) -> Option<String> {
    let (payload, comment) = split_comment(line);
    let printed = print_code(tree);
    let mut formatted = printed.clone();
    if let Some(comment) = comment {
        formatted.push(' ');
        formatted.push_str(comment);
    }
    if formatted == line {
        return None;
    }
    // The rewritten line must read back as the same payload: the same tokens, and
    // the comment starting where it did (a `#` word must not turn into a comment).
    let same_tokens = tokens(payload).eq(tokens(&printed));
    let same_payload = split_trailing_comment(&formatted).0 == printed
        && split_comment(&formatted).1 == comment
        && !ping::is_probe(&printed);
    (same_tokens && same_payload).then_some(formatted)
}

fn tokens(text: &str) -> impl Iterator<Item = code::Token<'_>> {
    code::lex(text, 0).into_iter().map(|(token, _)| token)
}

/// The canonical form of one `.slip` line (without its terminator), or `None` when it
/// is already canonical or must be left as it is (blank, comment, syntax error).
pub fn format_slip_line(line: &str) -> Option<String> {
    let trimmed = line.trim_start();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return None;
    }
    let parse = slip::parse_message(line, 0);
    if !parse.errors.is_empty() {
        return None;
    }
    format_message_line(line, &*parse.message?)
}

/// The canonical form of a `.slip` line that parsed without errors into `message`,
/// or `None` when it is canonical already or the rewrite would not read back the
/// same tokens.
fn format_message_line(line: &str, message: &Message) -> Option<String> {
    let formatted = print_slip(message);
    if formatted == line {
        return None;
    }
    let again = slip::parse_message(&formatted, 0);
    let same = again.errors.is_empty()
        && again.message.is_some_and(|m| {
            m.tokens()
                .map(|(t, _)| t)
                .eq(message.tokens().map(|(t, _)| t))
        });
    same.then_some(formatted)
}

/// The edits that bring every payload of a document to canonical form, in file
/// order, one per changed line. Only `.silp`, `.slip` and the `silp` and `slip`
/// blocks of Markdown pages are formatted; payloads with syntax errors are left as
/// they are.
pub fn format_document(document: &Document) -> Vec<Edit> {
    let mut edits = Vec::new();
    for block in &document.blocks {
        for item in &block.items {
            let (line, formatted) = match item {
                Item::Silp(SilpLine {
                    line,
                    body: SilpBody::Code(parse),
                    ..
                }) if parse.errors.is_empty() => {
                    let Some(tree) = &parse.payload else {
                        continue;
                    };
                    (line, format_code_line(line.text, tree))
                }
                Item::Slip { line, parse } if parse.errors.is_empty() => {
                    let Some(message) = &parse.message else {
                        continue;
                    };
                    (line, format_message_line(line.text, message))
                }
                _ => continue,
            };
            if let Some(formatted) = formatted {
                edits.push(Edit::minimal(line.start, line.text, &formatted));
            }
        }
    }
    edits
}

/// The formatting edits of a file's text read as `kind` (see [`format_document`]).
pub fn format_edits(text: &str, kind: FileKind) -> Vec<Edit> {
    format_document(&parse(text, kind))
}

/// Whether `fmt` formats files of this kind.
pub fn formats(kind: FileKind) -> bool {
    matches!(kind, FileKind::Silp | FileKind::Slip | FileKind::Markdown)
}

/// A file's text in canonical form (the text itself when nothing changes).
pub fn format_text(text: &str, kind: FileKind) -> String {
    apply_edits(text, &format_edits(text, kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt_code(line: &str) -> String {
        format_silp_line(line).unwrap_or_else(|| line.to_string())
    }

    #[test]
    fn code_payloads_get_the_reference_spacing() {
        assert_eq!(
            fmt_code("if  !rain( t+1 ) :start( hike )  else : start(cards @ indoor)"),
            "if !rain(t+1): start(hike) else: start(cards@indoor)"
        );
        assert_eq!(
            fmt_code("\tif budget <= 500 and loc(hotel, downtown):book(hotel, city = Shanghai)"),
            "if budget<=500 and loc(hotel,downtown): book(hotel,city=Shanghai)"
        );
        assert_eq!(
            fmt_code("if x>5 ,t+1:fetch(data);email(a)"),
            "if x>5, t+1: fetch(data); email(a)"
        );
        assert_eq!(fmt_code("start( )"), "start()");
        assert_eq!(
            fmt_code("start(北京)   # 北京 comment  "),
            "start(北京) # 北京 comment"
        );
    }

    #[test]
    fn nonstandard_forms_keep_their_keywords() {
        assert_eq!(
            fmt_code("if weather>rain  then switch(x)"),
            "if weather>rain then switch(x)"
        );
        assert_eq!(
            fmt_code("if !rain(t+1):start(hike)  else start(cards@indoor)"),
            "if !rain(t+1): start(hike) else start(cards@indoor)"
        );
        assert_eq!(
            fmt_code("fetch(data)->process  ->email(result)  with  timeout"),
            "fetch(data) -> process -> email(result) with timeout"
        );
    }

    #[test]
    fn lines_that_must_not_change_are_left_alone() {
        for line in [
            "",
            "   ",
            "# comment  ",
            "  # indented comment",
            "//ping code,json   session=ab",
            "if !rain(t+1) start(hike)",
            "start(a, b",
            "start(a\u{a0}b)",
            // `#t` would become a comment after `, `.
            "if x>5,#t: start(a)",
        ] {
            assert_eq!(format_silp_line(line), None, "{line:?}");
        }
    }

    #[test]
    fn slip_lines_get_single_spaces_and_keep_quotes() {
        assert_eq!(
            format_slip_line("  SLIP\tv1   alice  bob RequestReview  \"keep   this\"  lgtm \t"),
            Some("SLIP v1 alice bob RequestReview \"keep   this\" lgtm".to_string())
        );
        assert_eq!(format_slip_line("SLIP v1 a b Accept"), None);
        assert_eq!(format_slip_line("SLIP v1  a"), None);
        assert_eq!(format_slip_line("SLIP v1 a b Fallback \"open"), None);
        assert_eq!(format_slip_line("# SLIP   v1"), None);
    }

    #[test]
    fn text_keeps_line_endings_bom_and_comments() {
        let text = "\u{feff}start( a )\r\n# c  \r\n\r\nif x >1:stop(b)  # why\rend( )";
        assert_eq!(
            format_text(text, FileKind::Silp),
            "\u{feff}start(a)\r\n# c  \r\n\r\nif x>1: stop(b) # why\rend()"
        );
        let page = "# Title\n\n```silp\nstart( a )\n```\n\n```slip\nSLIP  v1 a b Accept\n```\n";
        assert_eq!(
            format_text(page, FileKind::Markdown),
            "# Title\n\n```silp\nstart(a)\n```\n\n```slip\nSLIP v1 a b Accept\n```\n"
        );
    }
}
