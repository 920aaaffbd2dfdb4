//! Markdown pages: fenced `silp`, `slip` and `silp-json` blocks are linted with
//! positions in the page; prose and other fences are not.

use silp_lint::lint::lint_text;
use silp_lint::settings::Settings;
use silp_lint::source::FileKind;

fn found(text: &str) -> Vec<(&'static str, String)> {
    lint_text(text, FileKind::Markdown, &Settings::default())
        .diagnostics
        .iter()
        .map(|d| (d.rule.code, text[d.span.clone()].to_string()))
        .collect()
}

#[test]
fn payload_fences_are_linted_in_place() {
    let page = "# Travel\n\nSay begin(hike) in prose: not linted.\n\n```silp\nif !rain(t+1): begin(hike)\n```\n\n```python\nbegin(x)\n```\n\n~~~slip\nSLIP v1 alice bob EvalAprove\n~~~\n\n```silp-json\n{\"intent\": \"!DELETE\", \"meta\": {\"req_id\": \"a1b2c3d4\"}}\n```\n";
    assert_eq!(
        found(page),
        [
            ("SL101", "begin".to_string()),
            ("SL601", "EvalAprove".to_string()),
            ("SL101", "\"!DELETE\"".to_string()),
        ]
    );
}

#[test]
fn suppressions_work_inside_fences() {
    let page = "```silp\n# silp-lint: ignore[SL101] legacy verb\nbegin(hike)\nbegin(again)\n```\n";
    assert_eq!(found(page), [("SL101", "begin".to_string())]);
    let lint = lint_text(page, FileKind::Markdown, &Settings::default());
    assert_eq!(lint.diagnostics[0].span.start, page.rfind("begin").unwrap());
}

#[test]
fn an_unterminated_fence_is_reported_and_its_content_still_linted() {
    let page = "Intro\n\n```slip\nSLIP v1 a b Nope\n";
    let got = found(page);
    assert_eq!(got[0], ("SL001", "```slip".to_string()));
    assert_eq!(got[1], ("SL601", "Nope".to_string()));
}

/// A page ending in `` >``` `` with no line break, in a fence that no block quote
/// contains: that line is the fence's text, not its end (fuzzing found the lint
/// panicking on it). It is linted as the payload it is, and the fence is
/// reported as unclosed; `fmt` and `--fix` leave the page as it is.
#[test]
fn a_quote_marker_before_a_fence_at_the_end_of_a_page_is_text() {
    let page = "```silp\nstart(x)\n> ```";
    assert_eq!(
        found(page),
        [("SL001", "```silp".to_string()), ("SL001", ">".to_string()),]
    );
    assert_eq!(
        formatted_and_fixed(page),
        (page.to_string(), page.to_string())
    );
    let json = "```silp-json\n>```";
    assert_eq!(found(json)[0], ("SL001", "```silp-json".to_string()));
    assert_eq!(
        formatted_and_fixed(json),
        (json.to_string(), json.to_string())
    );
}

#[test]
fn crlf_pages_keep_exact_positions() {
    let page = "# T\r\n\r\n```silp\r\nbegin(x)\r\n```\r\n";
    assert_eq!(found(page), [("SL101", "begin".to_string())]);
}

#[test]
fn an_indented_fence_keeps_its_indentation_through_check_fmt_and_fix() {
    use silp_lint::format::format_edits;
    // Fences inside list items are indented; the indentation is Markdown's
    // (CommonMark strips up to the fence's indent from each content line).
    let page = "- step one\n\n  ```slip\n  SLIP v1 a b RequestTask\n  SLIP v1  a b RequestTask\n  ```\n\n1. step two\n\n   ```silp\n   start(hike)\n   start(hike, cards)\n   ```\n";
    let found: Vec<(&str, String)> = found(page);
    assert_eq!(
        found,
        [
            ("SL504", "SLIP v1  a b RequestTask".to_string()),
            ("SL504", "start(hike, cards)".to_string()),
            ("SL405", "cards".to_string()),
        ]
    );
    let mut formatted = page.to_string();
    let mut edits = format_edits(page, FileKind::Markdown);
    edits.sort_by_key(|edit| std::cmp::Reverse(edit.span.start));
    for edit in edits {
        formatted.replace_range(edit.span, &edit.content);
    }
    assert_eq!(
        formatted,
        "- step one\n\n  ```slip\n  SLIP v1 a b RequestTask\n  SLIP v1 a b RequestTask\n  ```\n\n1. step two\n\n   ```silp\n   start(hike)\n   start(hike,cards)\n   ```\n"
    );
    assert!(format_edits(&formatted, FileKind::Markdown).is_empty());
}

#[test]
fn invisible_and_bidi_characters_are_reported_in_prose_too() {
    let page = "\u{feff}# Notes \u{1F468}\u{200D}\u{1F469}\n\nPay to \u{202E}evil\u{202C} now; see P\u{0430}ris.\n\n```python\nx = 'a\u{200B}b'\n```\n\n```silp\nstart(hike)\n```\n";
    assert_eq!(
        found(page),
        [
            ("SL203", "\u{202E}".to_string()),
            ("SL203", "\u{202C}".to_string()),
            ("SL201", "\u{200B}".to_string()),
        ]
    );
}

/// A page after `fmt`, then after `--fix` of what remains (safe fixes).
fn formatted_and_fixed(page: &str) -> (String, String) {
    let formatted = silp_lint::format::format_text(page, FileKind::Markdown);
    let fixed =
        silp_lint::fix::fix_text(page, FileKind::Markdown, &Settings::default(), false).unwrap();
    (formatted, fixed.text)
}

#[test]
fn fences_deep_in_list_items_and_on_the_marker_line_are_linted() {
    // CommonMark: a fence may sit up to three columns past its item's content
    // column (four spaces under `1.` is common), or open on the marker line.
    let page = "1. item\n\n    ```silp\n    begin(x)\n    ```\n\n- a\n  - b\n\n    ```silp\n    begin(y)\n    ```\n\n- ```slip\n  SLIP v1 a b Bogus\n  ```\n";
    assert_eq!(
        found(page),
        [
            ("SL101", "begin".to_string()),
            ("SL101", "begin".to_string()),
            ("SL601", "Bogus".to_string()),
        ]
    );
}

#[test]
fn fences_in_block_quotes_are_linted_formatted_and_fixed_without_touching_the_quote() {
    let page = "> Example:\n>\n> ```silp\n> start(x) ;begin(y)\n> # silp-lint: ignore[SL302]\n> cancel(z)\n> ```\n>\n> ```silp-json\n> {\"intent\": \"!CANCEL\",\n>  \"meta\": {\"req_id\": \"ab12\"}}\n> ```\n";
    assert_eq!(
        found(page),
        [
            ("SL504", "start(x) ;begin(y)".to_string()),
            ("SL101", "begin".to_string()),
            ("SL801", "# silp-lint: ignore[SL302]".to_string()),
            ("SL302", "\"ab12\"".to_string()),
        ]
    );
    let (formatted, fixed) = formatted_and_fixed(page);
    assert_eq!(
        formatted,
        page.replace("start(x) ;begin(y)", "start(x); begin(y)")
    );
    // The unused suppression goes with its `> ` prefix; the quote stays whole.
    assert_eq!(
        fixed,
        page.replace("start(x) ;begin(y)", "start(x); begin(y)")
            .replace("> # silp-lint: ignore[SL302]\n", "")
    );
}

#[test]
fn fences_that_commonmark_does_not_see_are_not_linted() {
    // Inside raw HTML, and with a backtick in a backtick fence's info string.
    let page = "<div>\n```silp\nbegin(x)\n```\n</div>\n\n```silp `x`\nbegin(y)\n```\n";
    assert_eq!(found(page), []);
}

#[test]
fn suppressions_work_inside_json_fences_and_cover_the_json_after_them() {
    let page = "```silp-json\n# silp-lint: ignore[SL302] scoped session\n{\"intent\": \"!CANCEL\",\n \"meta\": {\"req_id\": \"ab12\"}}\n```\n\n```silp-json\n# silp-lint: ignore[SL101]\n{\"intent\": \"!CANCEL\", \"meta\": {\"req_id\": \"cd34\"}}\n```\n";
    assert_eq!(
        found(page),
        [
            ("SL801", "# silp-lint: ignore[SL101]".to_string()),
            ("SL302", "\"cd34\"".to_string()),
        ]
    );
    let (_, fixed) = formatted_and_fixed(page);
    assert_eq!(fixed, page.replace("# silp-lint: ignore[SL101]\n", ""));
}
