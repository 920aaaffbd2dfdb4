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
use crate::syntax::document::{gather_line_items, Item, SilpBody, SilpLine};
use crate::syntax::lines::split_trailing_comment;
use crate::syntax::region::{regions, PIECE_BYTES};
use crate::syntax::slip::{self, Message};
use crate::syntax::{ping, Document};

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
    let same_tokens = code::token_stream(payload).eq(code::token_stream(&printed));
    let same_payload = split_trailing_comment(&formatted).0 == printed
        && split_comment(&formatted).1 == comment
        && !ping::is_probe(&printed);
    (same_tokens && same_payload).then_some(formatted)
}

/// The canonical form of one `.slip` line (without its terminator), or `None` when it
/// is already canonical or must be left as it is (blank, comment, syntax error).
pub fn format_slip_line(line: &str) -> Option<String> {
    format_message_line(line, &*slip::parse_message(line, 0).message?)
}

/// The canonical form of the `.slip` line that was parsed into `message`, or
/// `None` when the line has a syntax error, is canonical already, or the rewrite
/// would not read back the same tokens. A message's syntax errors are a missing
/// field ([`Message::is_complete`]) and an unterminated quote (which no rewrite
/// reads back without).
pub fn format_message_line(line: &str, message: &Message) -> Option<String> {
    if !message.is_complete() {
        return None;
    }
    let formatted = print_slip(message);
    if formatted == line {
        return None;
    }
    slip::reads_back_as(&formatted, message).then_some(formatted)
}

/// The edits that bring every payload of a parsed document to canonical form, in
/// file order, one per changed line (see [`format_edits`], which reads the same
/// lines without the document).
pub fn format_document(document: &Document) -> Vec<Edit> {
    document
        .blocks
        .iter()
        .flat_map(|block| &block.items)
        .filter_map(item_edit)
        .collect()
}

/// The edits that bring every payload of a file's text read as `kind` to canonical
/// form, in file order, one per changed line. Only `.silp`, `.slip` and the `silp`
/// and `slip` blocks of Markdown pages are formatted; payloads with syntax errors
/// are left as they are.
///
/// Each of those payloads is one line, formatted on its own, so the lines are
/// parsed one at a time and dropped: a file's tree is never held whole (10 MB of
/// payload lines made a tree of about 450 MiB). A region over [`PIECE_BYTES`] is
/// formatted in pieces on the thread pool, as `check` lints it.
pub fn format_edits(text: &str, kind: FileKind) -> Vec<Edit> {
    line_edits(text, kind, PIECE_BYTES)
}

/// [`format_edits`], a region over `piece_bytes` in pieces of that size.
fn line_edits(text: &str, kind: FileKind, piece_bytes: usize) -> Vec<Edit> {
    let formatted = regions(text, kind)
        .into_iter()
        .filter(|region| matches!(region.kind, FileKind::Silp | FileKind::Slip))
        .collect();
    gather_line_items(formatted, piece_bytes, |item, edits| {
        edits.extend(item_edit(&item));
    })
}

/// The edit that brings one payload line to canonical form; `None` when it is
/// already, has a syntax error, or is no code or SLIP payload.
fn item_edit(item: &Item) -> Option<Edit> {
    let (line, formatted) = match item {
        Item::Silp(SilpLine {
            line,
            body: SilpBody::Code(parse),
            ..
        }) if parse.errors.is_empty() => {
            (line, format_code_line(line.text, parse.payload.as_ref()?))
        }
        Item::Slip { line, parse } if parse.errors.is_empty() => (
            line,
            format_message_line(line.text, parse.message.as_ref()?),
        ),
        _ => return None,
    };
    Some(Edit::minimal(line.start, line.text, &formatted?))
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
    use crate::syntax::parse;

    /// The edits of the line walk, whole or in pieces as small as one byte, are
    /// those of the parsed document, for every kind: line breaks of each sort,
    /// byte-order marks, comments, syntax errors and Markdown fences included.
    #[test]
    fn lines_formatted_one_at_a_time_are_formatted_as_in_the_document() {
        let silp =
            "\u{feff}cancel( x )\r\n# c\n\nif  !rain( t+1 ) :start( hike ) else : b(c @ d)\n\
                    start(\n  book(h , city = S)  # note\rfetch(a);email( b )\r\nCancel(x)";
        let slip = "SLIP v1  a  b   ACK  \"x  y\"\r\n# c\nSLIP v1 a b\n\nSLIP  v1 x y Unknown  z";
        let page = "# t\n\n```silp\ncancel( x )\n```\n\n> ```slip\n> SLIP v1  a b ACK\n> ```\n";
        let json = "{\"intent\": \"!START\"}\n";
        let cases = [
            (silp, FileKind::Silp),
            (slip, FileKind::Slip),
            (page, FileKind::Markdown),
            (json, FileKind::SilpJsonl),
            (json, FileKind::SilpJson),
        ];
        let mut changed_lines = Vec::new();
        for (text, kind) in cases {
            let whole = format_document(&parse(text, kind));
            for piece_bytes in [1, 7, 30, PIECE_BYTES] {
                assert_eq!(
                    line_edits(text, kind, piece_bytes),
                    whole,
                    "{kind:?} in pieces of {piece_bytes}"
                );
            }
            changed_lines.push(whole.len());
        }
        // Four code lines (not `start(`, a syntax error, nor `Cancel(x)`, already
        // canonical), two SLIP lines, the two fenced lines, and no JSON.
        assert_eq!(changed_lines, [4, 2, 2, 0, 0]);
    }

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

    /// The formatting by its definition: a line that parses without errors,
    /// printed with single spaces, when that reads back as the same tokens without
    /// errors. Parsing the rewrite builds its whole token list again, which
    /// [`format_message_line`] does not.
    fn format_by_parsing(line: &str) -> Option<String> {
        let parse = slip::parse_message(line, 0);
        let message = parse.message.filter(|_| parse.errors.is_empty())?;
        let formatted = print_slip(&message);
        let again = slip::parse_message(&formatted, 0);
        let same = again.errors.is_empty()
            && again.message.is_some_and(|m| {
                m.tokens()
                    .map(|(t, _)| t)
                    .eq(message.tokens().map(|(t, _)| t))
            });
        (formatted != line && same).then_some(formatted)
    }

    proptest::proptest! {
        #[test]
        fn a_slip_line_formats_as_its_definition_says(
            line in "(SLIP|v1|a|b|\"|\"x y\"|x\"|\t| |  |Accept|thread7){0,12}|\
                     SLIP( |\t|  )(v1( |  )(a( b( |\t)(Accept(( |  )(\"|x\"|\"x y\"|thread7|y))*)?)?)?)?( )?"
        ) {
            proptest::prop_assert_eq!(format_slip_line(&line), format_by_parsing(&line));
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
