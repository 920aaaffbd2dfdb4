//! Rendering diagnostics for people (ariadne reports, concise lines) and machines
//! (JSON, JSON lines, GitHub workflow commands). Positions are computed here from
//! byte spans: 1-based lines, columns in characters.

use crate::diagnostics::{Applicability, Diagnostic, Edit, Severity};
use crate::source::{LineIndex, Location, Locator, Span};
use std::borrow::Cow;
use std::cell::OnceCell;
use std::io::{self, Write};

mod json_writer;
mod long_lines;
mod plain_reports;
use json_writer::{JsonWriter, Layout};
use long_lines::{LongLines, Windowed};

/// The diagnostics of one file, with the text their spans index into.
pub struct FileDiagnostics<'a> {
    pub path: &'a str,
    pub text: &'a str,
    pub diagnostics: &'a [Diagnostic],
}

/// The output formats of `check --output-format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// Reports with the source lines and labels (the default); a line over 400
    /// bytes is shown only around the labels.
    Human,
    /// One line per diagnostic: `path:line:col: CODE message`.
    Concise,
    /// A JSON array of diagnostic objects.
    Json,
    /// One JSON diagnostic object per line.
    JsonLines,
    /// GitHub Actions workflow commands (annotations on pull requests).
    Github,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
}

/// A diagnostic as the JSON formats print it. serde_json would write the same
/// bytes (the tests compare), but [`JsonDiagnostic::write`] writes them directly.
#[cfg_attr(test, derive(serde::Serialize))]
struct JsonDiagnostic<'a> {
    code: &'a str,
    name: &'a str,
    severity: Severity,
    message: &'a str,
    help: Option<&'a str>,
    path: &'a str,
    start: Location,
    end: Location,
    fix: Option<JsonFix<'a>>,
    #[cfg_attr(test, serde(skip_serializing_if = "Option::is_none"))]
    protocol_error: Option<&'a str>,
}

#[cfg_attr(test, derive(serde::Serialize))]
struct JsonFix<'a> {
    applicability: Applicability,
    message: &'a str,
    edits: Vec<JsonEdit<'a>>,
}

#[cfg_attr(test, derive(serde::Serialize))]
struct JsonEdit<'a> {
    start: Location,
    end: Location,
    content: &'a str,
}

impl JsonDiagnostic<'_> {
    /// Writes the diagnostic as one JSON object.
    fn write(&self, json: &mut JsonWriter) {
        json.open(b'{');
        json.string_member("code", self.code);
        json.string_member("name", self.name);
        json.string_member("severity", self.severity.as_str());
        json.string_member("message", self.message);
        json.key("help");
        match self.help {
            Some(help) => json.string(help),
            None => json.null(),
        }
        json.string_member("path", self.path);
        json.key("start");
        write_location(json, self.start);
        json.key("end");
        write_location(json, self.end);
        json.key("fix");
        match &self.fix {
            Some(fix) => {
                json.open(b'{');
                json.string_member("applicability", fix.applicability.as_str());
                json.string_member("message", fix.message);
                json.key("edits");
                json.open(b'[');
                for edit in &fix.edits {
                    json.element();
                    json.open(b'{');
                    json.key("start");
                    write_location(json, edit.start);
                    json.key("end");
                    write_location(json, edit.end);
                    json.string_member("content", edit.content);
                    json.close(b'}');
                }
                json.close(b']');
                json.close(b'}');
            }
            None => json.null(),
        }
        if let Some(protocol_error) = self.protocol_error {
            json.string_member("protocol_error", protocol_error);
        }
        json.close(b'}');
    }
}

fn write_location(json: &mut JsonWriter, location: Location) {
    json.open(b'{');
    json.number_member("line", location.line);
    json.number_member("column", location.column);
    json.number_member("offset", location.offset);
    json.close(b'}');
}

fn json_diagnostics<'a>(file: &'a FileDiagnostics<'a>) -> impl Iterator<Item = JsonDiagnostic<'a>> {
    let locator = Locator::new(file.text);
    file.diagnostics.iter().map(move |d| {
        let locate = |offset| locator.location(offset);
        let edit = |e: &'a Edit| JsonEdit {
            start: locate(e.span.start),
            end: locate(e.span.end),
            content: &e.content,
        };
        JsonDiagnostic {
            code: d.rule.code,
            name: d.rule.name,
            severity: d.severity,
            message: &d.message,
            help: d.help.as_deref(),
            path: file.path,
            start: locate(d.span.start),
            end: locate(d.span.end),
            fix: d.fix.as_ref().map(|f| JsonFix {
                applicability: f.applicability,
                message: &f.message,
                edits: f.edits.iter().map(edit).collect(),
            }),
            protocol_error: d.rule.protocol_error,
        }
    })
}

/// Writes `files` (already sorted by path, diagnostics by position) in `format`.
pub fn write(
    out: &mut dyn Write,
    files: &[FileDiagnostics],
    format: OutputFormat,
    color: bool,
) -> io::Result<()> {
    let mut writer = Writer::new(out, format, color);
    for file in files {
        writer.file(file)?;
    }
    writer.finish()
}

/// Writes diagnostics file by file, so a run need not hold every file's text at
/// once; `finish` closes what the format opened (a JSON array, a SARIF log).
pub struct Writer<'o> {
    out: &'o mut dyn Write,
    format: OutputFormat,
    color: bool,
    /// Elements of the output's one array written so far: JSON's objects, the
    /// SARIF log's results.
    array_elements: usize,
}

/// One file's diagnostics rendered on their own, so that a run can render files on
/// several threads and write them in path order (`Writer::write_rendered`).
pub struct RenderedFile {
    bytes: Vec<u8>,
    /// How many elements of the output's array (JSON objects, SARIF results)
    /// `bytes` holds, each after a `,\n`.
    array_elements: usize,
}

/// Renders one file's diagnostics in `format`.
pub fn render_file(
    file: &FileDiagnostics,
    format: OutputFormat,
    color: bool,
) -> io::Result<RenderedFile> {
    let mut out = Vec::new();
    let mut array_elements = 0;
    match format {
        OutputFormat::Json => {
            for diagnostic in json_diagnostics(file) {
                // Each line of the object two spaces in, as an element of the array.
                out.extend_from_slice(b",\n  ");
                diagnostic.write(&mut JsonWriter::new(&mut out, Layout::Pretty { depth: 1 }));
                array_elements += 1;
            }
        }
        OutputFormat::JsonLines => {
            for diagnostic in json_diagnostics(file) {
                diagnostic.write(&mut JsonWriter::new(&mut out, Layout::Compact));
                out.push(b'\n');
            }
        }
        OutputFormat::Concise => {
            let locator = Locator::new(file.text);
            // `path:line:column: code message`, appended piece by piece: through
            // `writeln!` the formatting machinery cost more than the line's bytes.
            let mut number = itoa::Buffer::new();
            for d in file.diagnostics {
                let at = locator.location(d.span.start);
                out.extend_from_slice(file.path.as_bytes());
                out.push(b':');
                out.extend_from_slice(number.format(at.line).as_bytes());
                out.push(b':');
                out.extend_from_slice(number.format(at.column).as_bytes());
                out.extend_from_slice(b": ");
                out.extend_from_slice(d.rule.code.as_bytes());
                out.push(b' ');
                out.extend_from_slice(d.message.as_bytes());
                out.push(b'\n');
            }
        }
        OutputFormat::Github => {
            let locator = Locator::new(file.text);
            let mut number = itoa::Buffer::new();
            for d in file.diagnostics {
                let start = locator.location(d.span.start);
                let end = locator.location(d.span.end);
                let level = match d.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Info | Severity::Hint => "notice",
                };
                out.extend_from_slice(b"::");
                out.extend_from_slice(level.as_bytes());
                out.extend_from_slice(b" file=");
                push_escaped(&mut out, annotation_path(file.path), Escape::Property);
                for (name, value) in [
                    (&b",line="[..], start.line),
                    (b",col=", start.column),
                    (b",endLine=", end.line),
                    (b",endColumn=", end.column),
                ] {
                    out.extend_from_slice(name);
                    out.extend_from_slice(number.format(value).as_bytes());
                }
                out.extend_from_slice(b",title=");
                push_escaped(&mut out, d.rule.code, Escape::Property);
                out.extend_from_slice(b"::");
                push_escaped(&mut out, &d.message, Escape::Data);
                // The help goes on a second line of the same annotation.
                if let Some(help) = &d.help {
                    out.extend_from_slice(b"%0Ahelp: ");
                    push_escaped(&mut out, help, Escape::Data);
                }
                out.push(b'\n');
            }
        }
        OutputFormat::Sarif => array_elements = write_sarif_results(&mut out, file)?,
        OutputFormat::Human if file.diagnostics.is_empty() => {}
        OutputFormat::Human => {
            // One source serves the whole file: its lines, indexed once, and
            // ariadne's index when a report needs ariadne.
            let source = HumanSource::new(file, color);
            for d in file.diagnostics {
                human(&mut out, &source, d, color)?;
            }
        }
    }
    Ok(RenderedFile {
        bytes: out,
        array_elements,
    })
}

impl<'o> Writer<'o> {
    pub fn new(out: &'o mut dyn Write, format: OutputFormat, color: bool) -> Writer<'o> {
        Writer {
            out,
            format,
            color,
            array_elements: 0,
        }
    }

    /// Writes one file's diagnostics.
    pub fn file(&mut self, file: &FileDiagnostics) -> io::Result<()> {
        let rendered = render_file(file, self.format, self.color)?;
        self.write_rendered(rendered)
    }

    /// Writes a file `render_file` rendered in this writer's format.
    pub fn write_rendered(&mut self, rendered: RenderedFile) -> io::Result<()> {
        let mut bytes = &rendered.bytes[..];
        if rendered.array_elements > 0 {
            if self.array_elements == 0 {
                // The array opens before its first element instead of a separator.
                match self.format {
                    OutputFormat::Sarif => self.out.write_all(SARIF_LOG_OPENING)?,
                    _ => self.out.write_all(b"[")?,
                }
                self.out.write_all(b"\n")?;
                bytes = &bytes[2..];
            }
            self.array_elements += rendered.array_elements;
        }
        self.out.write_all(bytes)
    }

    /// Closes the output.
    pub fn finish(self) -> io::Result<()> {
        match self.format {
            OutputFormat::Json if self.array_elements == 0 => writeln!(self.out, "[]"),
            OutputFormat::Json => writeln!(self.out, "\n]"),
            OutputFormat::Sarif => {
                if self.array_elements == 0 {
                    self.out.write_all(SARIF_LOG_OPENING)?;
                    self.out.write_all(b"]")?;
                } else {
                    self.out.write_all(b"\n      ]")?;
                }
                write_sarif_log_closing(self.out)
            }
            _ => Ok(()),
        }
    }
}

fn sarif_level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info | Severity::Hint => "note",
    }
}

/// A SARIF 2.1.0 log has one run: its results, then the tool with every rule's
/// documentation and default level. serde_json writes an object's keys in sorted
/// order, and `results` comes before `tool`, so the log is written as it goes:
/// this opening, each file's results as they are rendered, then the closing. The
/// bytes are those of the whole log pretty-printed at once.
const SARIF_LOG_OPENING: &[u8] = b"{
  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",
  \"runs\": [
    {
      \"columnKind\": \"unicodeCodePoints\",
      \"results\": [";

/// The rest of the log after the results: the tool, then the version.
fn write_sarif_log_closing(out: &mut dyn Write) -> io::Result<()> {
    use serde_json::json;
    let level = sarif_level;
    let rules: Vec<serde_json::Value> = crate::rules::registry::RULES
        .iter()
        .map(|rule| {
            let meta = rule.meta();
            let doc = meta.documentation();
            json!({
                "id": meta.code,
                "name": meta.name,
                "shortDescription": {"text": meta.summary()},
                "fullDescription": {"text": meta.what_it_does()},
                "help": {"text": doc, "markdown": doc},
                "defaultConfiguration": {"level": level(meta.severity)},
            })
        })
        .collect();
    let tool = json!({"driver": {
        "name": "silp-lint",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    }});
    out.write_all(b",\n      \"tool\": ")?;
    write_pretty_at(&mut *out, &tool, 3)?;
    out.write_all(b"\n    }\n  ],\n  \"version\": \"2.1.0\"\n}\n")
}

/// `value` pretty-printed as it is at `depth` containers into a pretty document:
/// the formatter is told it opened that many (into a sink) and indents so.
fn write_pretty_at<W: Write>(
    out: W,
    value: &impl serde::Serialize,
    depth: usize,
) -> io::Result<()> {
    let mut formatter = serde_json::ser::PrettyFormatter::new();
    for _ in 0..depth {
        serde_json::ser::Formatter::begin_array(&mut formatter, &mut io::sink())?;
    }
    let mut serializer = serde_json::Serializer::with_formatter(out, formatter);
    value.serialize(&mut serializer)?;
    Ok(())
}

/// Writes one file's SARIF results to `out`, each after a `,\n` and pretty-printed
/// as an element of the log's `results`; returns how many. Each object's keys are
/// in sorted order, the order serde_json gave them when the log was built as a
/// `serde_json::Value`.
fn write_sarif_results(out: &mut Vec<u8>, file: &FileDiagnostics) -> io::Result<usize> {
    let locator = Locator::new(file.text);
    let uri = artifact_uri(file.path);
    // Lines and columns from 1, columns in Unicode code points (`columnKind`).
    let region = |json: &mut JsonWriter, key: &str, span: &Span| {
        let start = locator.location(span.start);
        let end = locator.location(span.end);
        json.key(key);
        json.open(b'{');
        json.number_member("endColumn", end.column);
        json.number_member("endLine", end.line);
        json.number_member("startColumn", start.column);
        json.number_member("startLine", start.line);
        json.close(b'}');
    };
    let artifact_location = |json: &mut JsonWriter| {
        json.key("artifactLocation");
        json.open(b'{');
        json.string_member("uri", &uri);
        json.close(b'}');
    };
    let text = |json: &mut JsonWriter, key: &str, parts: &[&str]| {
        json.key(key);
        json.open(b'{');
        json.key("text");
        json.string_of(parts);
        json.close(b'}');
    };
    for d in file.diagnostics {
        out.extend_from_slice(b",\n        ");
        let json = &mut JsonWriter::new(out, Layout::Pretty { depth: 4 });
        json.open(b'{');
        if let Some(fix) = &d.fix {
            json.open_array_of_one_object("fixes");
            json.open_array_of_one_object("artifactChanges");
            artifact_location(json);
            json.key("replacements");
            json.open(b'[');
            for edit in &fix.edits {
                json.element();
                json.open(b'{');
                region(json, "deletedRegion", &edit.span);
                text(json, "insertedContent", &[&edit.content]);
                json.close(b'}');
            }
            json.close(b']');
            json.close_array_of_one_object();
            text(json, "description", &[&fix.message]);
            json.close_array_of_one_object();
        }
        json.string_member("level", sarif_level(d.severity));
        json.open_array_of_one_object("locations");
        json.key("physicalLocation");
        json.open(b'{');
        artifact_location(json);
        region(json, "region", &d.span);
        json.close(b'}');
        json.close_array_of_one_object();
        match &d.help {
            Some(help) => text(json, "message", &[&d.message, " (", help, ")"]),
            None => text(json, "message", &[&d.message]),
        }
        json.string_member("ruleId", d.rule.code);
        // A rule's id is its place in the registry, where `tool.driver.rules`
        // lists it.
        json.number_member("ruleIndex", d.rule.id.index());
        json.close(b'}');
    }
    Ok(file.diagnostics.len())
}

/// A relative URI reference for a path (forward slashes, reserved bytes escaped).
fn artifact_uri(path: &str) -> String {
    let mut uri = String::with_capacity(path.len());
    let absolute = path.starts_with('/');
    if absolute {
        uri.push_str("file://");
    }
    for byte in path.bytes() {
        match byte {
            b'\\' => uri.push('/'),
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                uri.push(byte as char)
            }
            other => uri.push_str(&format!("%{other:02X}")),
        }
    }
    uri.strip_prefix("./").map(str::to_string).unwrap_or(uri)
}

/// The `file` of a GitHub annotation: the path as given, without a leading `./`,
/// which GitHub does not match against the repository's files (the annotation would
/// not show on the pull request).
fn annotation_path(path: &str) -> &str {
    path.trim_start_matches("./")
}

/// Workflow-command escaping, as GitHub's toolkit does.
#[derive(Clone, Copy, PartialEq)]
enum Escape {
    /// A message: `%`, CR and LF.
    Data,
    /// A property's value: those, `:` and `,`.
    Property,
}

/// Appends `text` escaped as a workflow command's data or property.
fn push_escaped(out: &mut Vec<u8>, text: &str, escape: Escape) {
    let property = escape == Escape::Property;
    for &byte in text.as_bytes() {
        match byte {
            b'%' => out.extend_from_slice(b"%25"),
            b'\r' => out.extend_from_slice(b"%0D"),
            b'\n' => out.extend_from_slice(b"%0A"),
            b':' if property => out.extend_from_slice(b"%3A"),
            b',' if property => out.extend_from_slice(b"%2C"),
            _ => out.push(byte),
        }
    }
}

/// A file as its reports read it: without its byte-order mark, lines indexed once.
struct HumanSource<'t> {
    path: String,
    text: &'t str,
    /// How many bytes the file's byte-order mark takes (0 without one).
    bom: usize,
    diagnostics: &'t [Diagnostic],
    /// The text as ariadne reads it, made for the first report ariadne draws.
    ariadne: OnceCell<AriadneSource<'t>>,
    /// The text's lines, when one is long: the reports that show one read their
    /// own text, not `ariadne`.
    long_lines: Option<LongLines>,
    /// The text's lines for reports drawn without ariadne (`plain_reports`):
    /// `None` with colour, with a long line, or with other line breaks than `\n`.
    plain_lines: Option<LineIndex>,
}

/// What ariadne reads of a file.
struct AriadneSource<'t> {
    /// The lines the reports show, when `source` holds only those.
    shown: Option<ShownLines>,
    source: ariadne::Source<Cow<'t, str>>,
}

impl<'t> HumanSource<'t> {
    fn new(file: &FileDiagnostics<'t>, color: bool) -> HumanSource<'t> {
        // Editors hide a byte-order mark, so the reports' columns leave it out too.
        let (text, bom) = match file.text.strip_prefix('\u{feff}') {
            Some(rest) => (rest, '\u{feff}'.len_utf8()),
            None => (file.text, 0),
        };
        let long_lines = LongLines::new(text);
        let plain_lines =
            (!color && long_lines.is_none() && long_lines::breaks_only_at_line_feeds(text))
                .then(|| LineIndex::new(text));
        HumanSource {
            path: file.path.to_string(),
            text,
            bom,
            diagnostics: file.diagnostics,
            ariadne: OnceCell::new(),
            long_lines,
            plain_lines,
        }
    }

    /// The text as ariadne reads it: only the lines the file's reports show.
    fn ariadne(&self) -> &AriadneSource<'t> {
        self.ariadne.get_or_init(|| {
            let spans: Vec<Span> = self
                .diagnostics
                .iter()
                .flat_map(labelled_spans)
                .map(|span| without_bom(self.text, self.bom, span))
                .collect();
            let (shown, source) = match ShownLines::new(self.text, &spans) {
                Some((shown, shown_text)) => (Some(shown), Cow::Owned(shown_text)),
                None => (None, Cow::Borrowed(self.text)),
            };
            AriadneSource {
                shown,
                source: ariadne::Source::from(source),
            }
        })
    }

    /// A span of the file as a span of what ariadne reads.
    fn shift(&self, span: &Span) -> Span {
        let span = without_bom(self.text, self.bom, span);
        match &self.ariadne().shown {
            Some(shown) => shown.offset(span.start)..shown.offset(span.end),
            None => span,
        }
    }
}

/// A span of the file as a span of its `text` after a byte-order mark of `bom`
/// bytes, on char boundaries (ariadne indexes bytes of the text).
fn without_bom(text: &str, bom: usize, span: &Span) -> Span {
    clamp(
        text,
        span.start.saturating_sub(bom)..span.end.saturating_sub(bom),
    )
}

/// A file's text with the lines no report shows left empty. ariadne reads every
/// character of the text it is given to index its lines (a tenth of a human run);
/// given this, it reads only what it prints. Line numbers and columns stay those of
/// the file, and the reports are byte for byte the same: a report shows the lines
/// its labels touch, every line inside a label that spans several, and for the
/// lines between only an ellipsis and their numbers.
struct ShownLines {
    /// For each run of kept lines, in order: where it starts in the file's text and
    /// in the text ariadne reads.
    starts: Vec<(usize, usize)>,
}

impl ShownLines {
    /// The lines of `text` that hold a part of `spans`, and the text ariadne reads;
    /// `None` when `text` breaks lines with anything but `\n`, which ariadne reads
    /// as a line break too, or when most of the text is shown, where a copy would
    /// only cost memory.
    fn new(text: &str, spans: &[Span]) -> Option<(ShownLines, String)> {
        Self::at_most(text, spans, text.len() / 2)
    }

    /// As [`ShownLines::new`], for at most `limit` bytes of kept lines.
    fn at_most(text: &str, spans: &[Span], limit: usize) -> Option<(ShownLines, String)> {
        let bytes = text.as_bytes();
        if !long_lines::breaks_only_at_line_feeds(text) {
            return None;
        }
        // Whole lines to keep, as sorted byte ranges. A span is read from the byte
        // before it to the line its end starts: ariadne may show a span that
        // touches a line break (an empty one, one at the end of the text) on the
        // line on either side. Each scan for a line's ends starts past the last, so
        // this is linear in the text, even for many spans on one long line.
        let mut wanted: Vec<Span> = spans
            .iter()
            .map(|span| span.start.saturating_sub(1)..span.end)
            .collect();
        wanted.sort_unstable_by_key(|span| span.start);
        let line_end = |from: usize| {
            memchr::memchr(b'\n', &bytes[from..]).map_or(bytes.len(), |i| from + i + 1)
        };
        let mut kept: Vec<Span> = Vec::new();
        for span in wanted {
            match kept.last_mut() {
                Some(last) if span.start < last.end => {
                    // A range ends where a line starts: that line is wanted too.
                    if span.end >= last.end {
                        last.end = line_end(span.end);
                    }
                }
                last => {
                    // Kept ranges end where a line starts, so the search stops there.
                    let floor = last.map_or(0, |last| last.end);
                    let start = memchr::memrchr(b'\n', &bytes[floor..span.start])
                        .map_or(floor, |i| floor + i + 1);
                    kept.push(start..line_end(span.end));
                }
            }
        }
        if kept.iter().map(|range| range.len()).sum::<usize>() > limit {
            return None;
        }
        let blank_lines = |shown_text: &mut String, gap: &str| {
            let lines = memchr::memchr_iter(b'\n', gap.as_bytes()).count();
            shown_text.extend(std::iter::repeat_n('\n', lines));
        };
        let mut shown = ShownLines {
            starts: Vec::with_capacity(kept.len() + 1),
        };
        let mut shown_text = String::new();
        let mut at = 0;
        for range in kept {
            blank_lines(&mut shown_text, &text[at..range.start]);
            shown.starts.push((range.start, shown_text.len()));
            shown_text.push_str(&text[range.clone()]);
            at = range.end;
        }
        // The last line is kept whole: without a `\n`, an empty one would vanish.
        let rest = &text[at..];
        let last_line = rest.rfind('\n').map_or(0, |i| i + 1);
        blank_lines(&mut shown_text, &rest[..last_line]);
        shown.starts.push((at + last_line, shown_text.len()));
        shown_text.push_str(&rest[last_line..]);
        Some((shown, shown_text))
    }

    /// Where `offset` of the file's text (on a kept line) is in the text ariadne
    /// reads.
    fn offset(&self, offset: usize) -> usize {
        let kept = self.starts.partition_point(|&(start, _)| start <= offset);
        let (start, shown) = self.starts[kept.saturating_sub(1)];
        shown + offset.saturating_sub(start)
    }
}

/// Writes one report to `out`: a buffer, not any writer, because ariadne writes a
/// report a character at a time and a buffer takes each without a virtual call.
fn human(out: &mut Vec<u8>, file: &HumanSource, d: &Diagnostic, color: bool) -> io::Result<()> {
    if let Some(lines) = &file.plain_lines {
        if plain_report(out, file, lines, d) {
            return Ok(());
        }
    }
    if let Some(long_lines) = &file.long_lines {
        let spans: Vec<Span> = labelled_spans(d)
            .map(|span| without_bom(file.text, file.bom, span))
            .collect();
        match long_lines.window(file.text, &spans) {
            None => {}
            Some(Windowed::Shown {
                text,
                shown,
                header,
            }) => {
                let source = ariadne::Source::from(text);
                let shift = |span: &Span| {
                    let span = without_bom(file.text, file.bom, span);
                    shown.offset(span.start)..shown.offset(span.end)
                };
                let report_start = out.len();
                write_report(out, &file.path, &source, d, color, Labels::Shown(&shift))?;
                long_lines::correct_header(out, report_start, &d.message, &file.path, &header);
                return Ok(());
            }
            Some(Windowed::TooFar { line, column }) => {
                // ariadne writes a report without labels as its first line alone.
                let source = &file.ariadne().source;
                write_report(out, &file.path, source, d, color, Labels::Omitted)?;
                writeln!(
                    out,
                    " at {}:{line}:{column}: the line is too long to show this far into the file",
                    file.path
                )?;
                if let Some(help) = &d.help {
                    writeln!(out, " Help: {help}")?;
                }
                if let Some(note) = fix_note(d) {
                    writeln!(out, " Note: {note}")?;
                }
                return Ok(());
            }
        }
    }
    let shift = |span: &Span| file.shift(span);
    write_report(
        out,
        &file.path,
        &file.ariadne().source,
        d,
        color,
        Labels::Shown(&shift),
    )
}

/// Appends the report of `d` as ariadne would draw it without colour, when
/// `plain_reports` can draw it (see there); says whether it did.
fn plain_report(out: &mut Vec<u8>, file: &HumanSource, lines: &LineIndex, d: &Diagnostic) -> bool {
    let start = out.len();
    let heading = plain_reports::Heading {
        code: d.rule.code,
        kind: match d.severity {
            Severity::Error => "Error",
            Severity::Warning => "Warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        },
        message: &d.message,
    };
    let labels = std::iter::once((&d.span, d.rule.name))
        .chain(same_file_related(d).map(|r| (&r.span, r.message.as_str())))
        .map(|(span, message)| (without_bom(file.text, file.bom, span), message));
    let note = fix_note(d);
    let footer = [("Help", d.help.as_deref()), ("Note", note.as_deref())];
    if !plain_reports::write(out, file.text, lines, &file.path, &heading, labels, footer) {
        return false;
    }
    // As `write_report` does: reports of custom kinds are stripped of colour
    // sequences, which ariadne writes for them even without colour.
    let custom_kind = matches!(d.severity, Severity::Info | Severity::Hint);
    if custom_kind && out[start..].contains(&0x1b) {
        let plain = strip_ansi(&out[start..]);
        out.truncate(start);
        out.extend_from_slice(&plain);
    }
    true
}

/// The related locations of `d` in its own file: a report labels those.
fn same_file_related(d: &Diagnostic) -> impl Iterator<Item = &crate::diagnostics::Related> {
    d.related.iter().filter(|r| r.path.is_none())
}

/// The spans a report of `d` labels: its own, then its related ones in its file.
fn labelled_spans(d: &Diagnostic) -> impl Iterator<Item = &Span> {
    std::iter::once(&d.span).chain(same_file_related(d).map(|r| &r.span))
}

/// How a report places itself in its file.
enum Labels<'s> {
    /// With its labels, each span shifted to where `source` holds it.
    Shown(&'s dyn Fn(&Span) -> Span),
    /// Without labels: ariadne writes only the message line.
    Omitted,
}

/// Writes the report of `d`, reading its lines from `source`.
fn write_report<T: AsRef<str>>(
    out: &mut Vec<u8>,
    path: &str,
    source: &ariadne::Source<T>,
    d: &Diagnostic,
    color: bool,
    labels: Labels,
) -> io::Result<()> {
    use ariadne::{Color, Config, IndexType, Label, Report, ReportKind};
    let (kind, tint) = match d.severity {
        Severity::Error => (ReportKind::Error, Color::Red),
        Severity::Warning => (ReportKind::Warning, Color::Yellow),
        Severity::Info => (ReportKind::Custom("info", Color::Blue), Color::Blue),
        Severity::Hint => (ReportKind::Custom("hint", Color::Cyan), Color::Cyan),
    };
    let path = path.to_string();
    let span = match &labels {
        Labels::Shown(shift) => shift(&d.span),
        Labels::Omitted => 0..0,
    };
    let mut report = Report::build(kind, (path.clone(), span.clone()))
        .with_config(
            Config::new()
                .with_index_type(IndexType::Byte)
                .with_color(color),
        )
        .with_code(d.rule.code)
        .with_message(&d.message);
    match &labels {
        Labels::Shown(shift) => {
            report = report.with_label(
                Label::new((path.clone(), span))
                    .with_message(d.rule.name)
                    .with_color(tint),
            );
            for related in same_file_related(d) {
                report = report.with_label(
                    Label::new((path.clone(), shift(&related.span)))
                        .with_message(&related.message)
                        .with_color(Color::Cyan),
                );
            }
        }
        Labels::Omitted => {}
    }
    if let Some(help) = &d.help {
        report = report.with_help(help);
    }
    if let Some(note) = fix_note(d) {
        report = report.with_note(note);
    }
    let report = report.finish();
    // ariadne colours custom report kinds (info, hint) even with colour off.
    let custom_kind = matches!(d.severity, Severity::Info | Severity::Hint);
    if color || !custom_kind {
        return report.write((path, source), out);
    }
    let mut plain = Vec::new();
    report.write((path, source), &mut plain)?;
    out.extend_from_slice(&strip_ansi(&plain));
    Ok(())
}

/// The note a report with a fix ends with: what the fix does and how to apply it.
fn fix_note(d: &Diagnostic) -> Option<String> {
    let fix = d.fix.as_ref()?;
    let how = match fix.applicability {
        Applicability::Safe => "fixable with --fix",
        Applicability::Unsafe => "fixable with --fix --unsafe-fixes",
    };
    Some(format!("{} ({how})", fix.message))
}

/// `bytes` without ANSI colour sequences (`ESC [ ... m`).
fn strip_ansi(bytes: &[u8]) -> Vec<u8> {
    let mut plain = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == 0x1b && bytes.get(i + 1) == Some(&b'[') {
            match bytes[i + 2..].iter().position(|&b| b == b'm') {
                Some(end) => {
                    i += end + 3;
                    continue;
                }
                None => break,
            }
        }
        plain.push(bytes[i]);
        i += 1;
    }
    plain
}

/// A span inside the text on char boundaries (ariadne indexes bytes of the text).
fn clamp(text: &str, span: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let start = crate::source::floor_char_boundary(text, span.start);
    let end = crate::source::floor_char_boundary(text, span.end).max(start);
    start..end
}

/// What a run found, counted file by file as its reports are written: the closing
/// summary line of human output and the exit status come from it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Diagnostics by severity: error, warning, info, hint.
    by_severity: [usize; 4],
    /// Diagnostics with a safe fix.
    fixable: usize,
}

const SEVERITIES: [(Severity, &str); 4] = [
    (Severity::Error, "error"),
    (Severity::Warning, "warning"),
    (Severity::Info, "info"),
    (Severity::Hint, "hint"),
];

impl Tally {
    /// Counts one file's diagnostics.
    pub fn add(&mut self, diagnostics: &[Diagnostic]) {
        for d in diagnostics {
            if let Some(i) = SEVERITIES.iter().position(|(s, _)| *s == d.severity) {
                self.by_severity[i] += 1;
            }
            if d.fix
                .as_ref()
                .is_some_and(|f| f.applicability == Applicability::Safe)
            {
                self.fixable += 1;
            }
        }
    }

    /// Adds another tally (of other files).
    pub fn merge(&mut self, other: Tally) {
        for (mine, theirs) in self.by_severity.iter_mut().zip(other.by_severity) {
            *mine += theirs;
        }
        self.fixable += other.fixable;
    }

    /// How many diagnostics were counted.
    pub fn total(&self) -> usize {
        self.by_severity.iter().sum()
    }

    /// Whether an error or warning was counted: what makes `check` exit 1.
    pub fn fails_check(&self) -> bool {
        SEVERITIES
            .iter()
            .zip(self.by_severity)
            .any(|((severity, _), n)| n > 0 && severity.fails_check())
    }

    /// The closing summary line of human output: counts by severity and fixability.
    pub fn summary(&self) -> String {
        if self.total() == 0 {
            return "All checks passed!".to_string();
        }
        let mut parts = Vec::new();
        for ((severity, noun), n) in SEVERITIES.iter().zip(self.by_severity) {
            if n > 0 {
                let plural = if n == 1 || matches!(severity, Severity::Info) {
                    ""
                } else {
                    "s"
                };
                parts.push(format!("{n} {noun}{plural}"));
            }
        }
        let mut line = format!("Found {}.", parts.join(", "));
        if self.fixable > 0 {
            line.push_str(&format!(
                " {} fixable with the `--fix` option.",
                self.fixable
            ));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Related;
    use proptest::prelude::*;

    /// A file's source for reports that ariadne draws, each of them.
    pub(super) fn ariadne_only<'t>(file: &FileDiagnostics<'t>) -> HumanSource<'t> {
        HumanSource {
            plain_lines: None,
            ..HumanSource::new(file, false)
        }
    }

    /// Each diagnostic's human report, read from `source`.
    pub(super) fn reports(source: &HumanSource, diagnostics: &[Diagnostic]) -> Vec<String> {
        diagnostics
            .iter()
            .map(|d| {
                let mut out = Vec::new();
                human(&mut out, source, d, false).unwrap();
                String::from_utf8(out).unwrap()
            })
            .collect()
    }

    fn location() -> impl Strategy<Value = Location> {
        (0..100_000usize, 0..100_000usize, 0..10_000_000usize).prop_map(|(line, column, offset)| {
            Location {
                line,
                column,
                offset,
            }
        })
    }

    fn json_edit() -> impl Strategy<Value = (Location, Location, String)> {
        (location(), location(), "\\PC*|[\u{0}-\u{1f}\"\\\\a]*")
    }

    proptest! {
        /// A SARIF log with any messages, helps and fixes is the log serde_json
        /// writes: its keys sorted, its strings escaped, its layout pretty.
        #[test]
        fn sarif_logs_are_written_as_serde_json_writes_them(
            message in "(\\PC|[\u{0}-\u{1f}\"\\\\])*",
            help in proptest::option::of("(\\PC|[\n\"])*"),
            fix in proptest::option::of(("\\PC*", proptest::collection::vec("(\\PC|[\t\\\\])*", 0..3))),
        ) {
            let text = "a(b)\ncancel(order) é北\n";
            let diagnostics = [Diagnostic {
                rule: crate::rules::registry::RULES[0].meta(),
                severity: Severity::Warning,
                message,
                help: help.map(Into::into),
                span: 2..text.len(),
                fix: fix.map(|(message, contents)| {
                    let edits = contents.into_iter().enumerate().map(|(i, content)| Edit::replace(i..i + 1, content)).collect();
                    Box::new(crate::diagnostics::Fix::safe(message, edits))
                }),
                related: Vec::new(),
            }];
            let file = FileDiagnostics { path: "dir/a b.silp", text, diagnostics: &diagnostics };
            let mut out = Vec::new();
            write(&mut out, &[file], OutputFormat::Sarif, false).unwrap();
            let out = String::from_utf8(out).unwrap();
            let log: serde_json::Value = serde_json::from_str(&out).unwrap();
            prop_assert_eq!(out, serde_json::to_string_pretty(&log).unwrap() + "\n");
        }
    }

    proptest! {
        /// Each JSON format writes a diagnostic as serde_json serializes it.
        #[test]
        fn json_diagnostics_are_written_as_serde_json_writes_them(
            message in "(\\PC|[\u{0}-\u{1f}\"\\\\])*",
            help in proptest::option::of("\\PC*"),
            path in "[a-z/ é\\\\\"]*",
            severity in prop_oneof![Just(Severity::Error), Just(Severity::Warning), Just(Severity::Info), Just(Severity::Hint)],
            (start, end) in (location(), location()),
            fix in proptest::option::of((any::<bool>(), "\\PC*", proptest::collection::vec(json_edit(), 0..3))),
            protocol_error in proptest::option::of("E[0-9]{3}"),
        ) {
            let edits: Vec<JsonEdit> = fix.iter().flat_map(|(_, _, edits)| edits).map(|(start, end, content)| JsonEdit { start: *start, end: *end, content }).collect();
            let diagnostic = JsonDiagnostic {
                code: "SL101",
                name: "some-rule",
                severity,
                message: &message,
                help: help.as_deref(),
                path: &path,
                start,
                end,
                fix: fix.as_ref().map(|(safe, message, _)| JsonFix {
                    applicability: if *safe { Applicability::Safe } else { Applicability::Unsafe },
                    message,
                    edits,
                }),
                protocol_error: protocol_error.as_deref(),
            };
            for depth in 0..3 {
                let mut ours = Vec::new();
                diagnostic.write(&mut JsonWriter::new(&mut ours, Layout::Pretty { depth }));
                let mut serde = Vec::new();
                write_pretty_at(&mut serde, &diagnostic, depth).unwrap();
                prop_assert_eq!(String::from_utf8(ours).unwrap(), String::from_utf8(serde).unwrap());
            }
            let mut ours = Vec::new();
            diagnostic.write(&mut JsonWriter::new(&mut ours, Layout::Compact));
            prop_assert_eq!(String::from_utf8(ours).unwrap(), serde_json::to_string(&diagnostic).unwrap());
        }
    }

    proptest! {
        /// ariadne given only the lines the reports show writes the reports it
        /// writes given the whole file: same lines, numbers, columns and ellipses,
        /// for spans on one line or several, with related labels, after a
        /// byte-order mark, and with multi-byte characters.
        #[test]
        fn reports_from_the_shown_lines_are_those_from_the_whole_file(
            lines in proptest::collection::vec("[a-z é北{}\"\t]{0,12}", 1..40),
            trailing_newline in any::<bool>(),
            bom in any::<bool>(),
            spans in proptest::collection::vec(
                ((0usize..500, 0usize..80), proptest::collection::vec((0usize..500, 0usize..30), 0..3)),
                1..6,
            ),
        ) {
            let mut text = if bom { "\u{feff}".to_string() } else { String::new() };
            text.push_str(&lines.join("\n"));
            if trailing_newline {
                text.push('\n');
            }
            let span = |(start, length): (usize, usize)| {
                let start = start.min(text.len());
                start..(start + length).min(text.len())
            };
            let rule = crate::rules::registry::RULES[0].meta();
            let diagnostics: Vec<Diagnostic> = spans
                .into_iter()
                .map(|(primary, related)| Diagnostic {
                    rule,
                    severity: Severity::Error,
                    message: "message".to_string(),
                    help: None,
                    span: span(primary),
                    fix: None,
                    related: related
                        .into_iter()
                        .map(|at| Related {
                            path: None,
                            span: span(at),
                            message: "related".to_string(),
                        })
                        .collect(),
                })
                .collect();
            let file = FileDiagnostics { path: "t.silp", text: &text, diagnostics: &diagnostics };
            let whole = ariadne_only(&file);
            whole.ariadne.set(AriadneSource {
                shown: None,
                source: ariadne::Source::from(Cow::Borrowed(whole.text)),
            }).ok().unwrap();
            let spans: Vec<Span> = diagnostics
                .iter()
                .flat_map(|d| std::iter::once(&d.span).chain(d.related.iter().map(|r| &r.span)))
                .map(|span| without_bom(whole.text, whole.bom, span))
                .collect();
            let (lines, shown_text) = ShownLines::at_most(whole.text, &spans, usize::MAX).unwrap();
            let shown = ariadne_only(&file);
            shown.ariadne.set(AriadneSource {
                shown: Some(lines),
                source: ariadne::Source::from(Cow::Owned(shown_text)),
            }).ok().unwrap();
            prop_assert_eq!(reports(&shown, &diagnostics), reports(&whole, &diagnostics));
        }
    }

    #[test]
    fn texts_with_other_line_breaks_are_read_whole() {
        for text in [
            "a\r\nb",
            "a\u{2028}b",
            "a\x0Bb",
            "a\x0Cb",
            "a\u{85}b",
            "a\rb",
        ] {
            assert!(
                ShownLines::new(text, &[Span::from(0..1)]).is_none(),
                "{text:?}"
            );
        }
        let (shown, shown_text) =
            ShownLines::new("one\ntwo\nthree é\nfour", &[Span::from(5..6)]).unwrap();
        assert_eq!(shown_text, "\ntwo\n\nfour");
        assert_eq!(shown.offset(5), 2);
        assert!(ShownLines::new("one\ntwo\nthree", &[Span::from(0..9)]).is_none());
    }

    /// JSON and SARIF are written file by file; the output is exactly the whole
    /// document pretty-printed at once, with results, with fixes, with text to
    /// escape, and with none. (A SARIF log's keys are in sorted order, as
    /// serde_json writes a parsed `Value`'s.)
    #[test]
    fn streamed_json_documents_are_the_whole_document_pretty_printed() {
        let rule = crate::rules::registry::RULES[0].meta();
        let texts = ["a(b)\ncancel(order)\n", "x \"quoted\"\n\u{feff}é北\n"];
        let diagnostics: Vec<Vec<Diagnostic>> = texts
            .iter()
            .map(|text| {
                vec![
                    Diagnostic {
                        rule,
                        severity: Severity::Warning,
                        message: "a \"message\"\nover two lines".to_string(),
                        help: Some("help".into()),
                        span: 0..1,
                        fix: Some(Box::new(crate::diagnostics::Fix::safe(
                            "fix",
                            vec![Edit::replace(0..1, "y\tz"), Edit::replace(2..3, "")],
                        ))),
                        related: Vec::new(),
                    },
                    Diagnostic {
                        rule,
                        severity: Severity::Error,
                        message: "plain".to_string(),
                        help: None,
                        span: 2..text.len(),
                        fix: None,
                        related: Vec::new(),
                    },
                ]
            })
            .collect();
        let files: Vec<FileDiagnostics> = texts
            .iter()
            .zip(&diagnostics)
            .map(|(text, diagnostics)| FileDiagnostics {
                path: "dir/a b.silp",
                text,
                diagnostics,
            })
            .collect();
        for format in [OutputFormat::Json, OutputFormat::Sarif] {
            for files in [&files[..], &files[..1], &[]] {
                let mut out = Vec::new();
                write(&mut out, files, format, false).unwrap();
                let out = String::from_utf8(out).unwrap();
                let whole = match format {
                    OutputFormat::Json => {
                        let all: Vec<JsonDiagnostic> =
                            files.iter().flat_map(json_diagnostics).collect();
                        serde_json::to_string_pretty(&all).unwrap()
                    }
                    _ => {
                        let log: serde_json::Value = serde_json::from_str(&out).unwrap();
                        serde_json::to_string_pretty(&log).unwrap()
                    }
                } + "\n";
                assert_eq!(out, whole, "{format:?} with {} files", files.len());
            }
        }
    }

    /// Each rule's SARIF full description is its "What it does" section, which
    /// its short description opens.
    #[test]
    fn sarif_rules_are_described_by_what_they_do() {
        let mut out = Vec::new();
        write(&mut out, &[], OutputFormat::Sarif, false).unwrap();
        let log: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let rules = log["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap();
        assert_eq!(rules.len(), crate::rules::registry::RULES.len());
        for rule in rules {
            let full = rule["fullDescription"]["text"].as_str().unwrap();
            let short = rule["shortDescription"]["text"].as_str().unwrap();
            assert!(full.starts_with(short.split(' ').next().unwrap()), "{rule}");
            assert!(
                !full.contains("## ") && !full.contains("Why is this bad?"),
                "{rule}"
            );
        }
    }

    /// A GitHub annotation escapes its properties (`%`, CR, LF, `:` and `,`) and
    /// its message (`%`, CR and LF), as the toolkit does, the help on a second line.
    #[test]
    fn github_annotations_escape_properties_and_messages() {
        let rule = crate::rules::registry::RULES[0].meta();
        let diagnostics = [Diagnostic {
            rule,
            severity: Severity::Warning,
            message: "50% off:\r\nnow, here".to_string(),
            help: Some("a:b".into()),
            span: 2..3,
            fix: None,
            related: Vec::new(),
        }];
        let file = FileDiagnostics {
            path: "./a:b,c%d/x.silp",
            text: "ab\ncd",
            diagnostics: &diagnostics,
        };
        let mut out = Vec::new();
        write(&mut out, &[file], OutputFormat::Github, false).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!(
                "::warning file=a%3Ab%2Cc%25d/x.silp,line=1,col=3,endLine=2,endColumn=1,\
                 title={}::50%25 off:%0D%0Anow, here%0Ahelp: a:b\n",
                rule.code
            )
        );
    }
}
