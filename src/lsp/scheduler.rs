//! Lint scheduling: one job per document at a time, on the blocking pool unless it
//! re-lints a keystroke's few lines (a change during a lint marks the document
//! dirty and the job runs again on the newest text), the cross-file rules over
//! every open document whose lint is current, and the delivery of the results:
//! queued for publishing to a client that takes them pushed, kept as the document's
//! report for one that pulls them. Results for a version that is no longer current
//! are dropped, both when a lint ends and just before publishing.

use super::session::{settings_for, Delivery, LintState, OpenDocument, Report, Session, State};
use super::to_lsp;
use crate::diagnostics::Diagnostic;
use crate::lint::{cross_file, LintedFile};
use crate::relint::{relint, relint_window, Edit};
use crate::source::Span;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use tokio::sync::mpsc;
use tower_lsp_server::ls_types::{self as lsp, Uri};

/// What the publisher sends to the client, in order.
#[derive(Debug)]
pub enum Outgoing {
    Diagnostics(Publish),
    Log(lsp::MessageType, String),
    /// Asks a pulling client to pull again: a report changed without an edit.
    Refresh,
}

/// Diagnostics ready to send; `version: None` clears a closed document.
#[derive(Debug)]
pub struct Publish {
    pub key: String,
    pub uri: Uri,
    pub version: Option<i32>,
    pub diagnostics: Vec<lsp::Diagnostic>,
}

/// The largest window of lines (in bytes) re-linted on the server's own thread: a
/// keystroke's few lines lint in microseconds, where handing them to the blocking
/// pool and back took half a millisecond. A larger window goes to the pool, so no
/// message waits behind it.
const WINDOW_LINTED_IN_PLACE: usize = 16 * 1024;

/// Marks a document dirty and makes sure a lint job will pick up its newest text.
pub fn request_lint(session: &Arc<Session>, state: &mut State, key: &str) {
    let Some(doc) = state.docs.get_mut(key) else {
        return;
    };
    doc.dirty = true;
    if !doc.linting {
        doc.linting = true;
        tokio::spawn(lint_job(session.clone(), key.to_string()));
    }
}

/// Reads the configuration files again and re-lints every open document with its
/// new settings; returns the errors of broken configuration files.
pub fn reload_configuration(session: &Arc<Session>) -> Vec<String> {
    let mut errors = Vec::new();
    let mut state = session.lock();
    state.resolver = Arc::new(crate::config::Resolver::discover(state.overrides.clone()));
    let resolver = state.resolver.clone();
    let keys: Vec<String> = state.docs.keys().cloned().collect();
    for key in keys {
        if let Some(doc) = state.docs.get_mut(&key) {
            let (settings, error) = settings_for(&resolver, &doc.uri);
            errors.extend(error);
            doc.settings = settings;
            // The earlier result was computed with other settings.
            doc.lint = None;
        }
        request_lint(session, &mut state, &key);
    }
    errors.sort();
    errors.dedup();
    errors
}

/// Lints a document until its text stops changing, then queues what to publish.
async fn lint_job(session: Arc<Session>, key: String) {
    loop {
        let (snapshot, previous, version, settings) = {
            let mut state = session.lock();
            let Some(doc) = state.docs.get_mut(&key) else {
                return;
            };
            if !doc.dirty {
                doc.linting = false;
                session.settled.notify_waiters();
                return;
            }
            doc.dirty = false;
            let previous = doc
                .lint
                .as_ref()
                .map(|state| (state.text.clone(), state.lint.clone()));
            (
                doc.snapshot.clone(),
                previous,
                doc.version,
                doc.settings.clone(),
            )
        };
        let linted = snapshot.text.clone();
        // After an edit only a window of lines around it is linted again: here when
        // it is a keystroke's few lines, else on the blocking pool, as is the first
        // lint (and any other), which reads the version's cached parse (a large
        // line-oriented document is walked a line at a time instead).
        // A panic is caught here as the pool catches it: the job must go on, or the
        // document would never be linted again.
        let in_place = std::panic::catch_unwind(AssertUnwindSafe(|| {
            previous.as_ref().and_then(|(old, lint)| {
                let edit = Edit {
                    old,
                    previous: lint,
                    new: &snapshot.text,
                    index: &snapshot.index,
                };
                relint_window(&edit, snapshot.kind, &settings, WINDOW_LINTED_IN_PLACE)
            })
        }));
        let result = match in_place {
            Ok(Some(lint)) => Ok(lint),
            Err(_) => Err("a rule panicked".to_string()),
            Ok(None) => tokio::task::spawn_blocking(move || match previous {
                Some((old, lint)) => relint(
                    &old,
                    &lint,
                    &snapshot.text,
                    &snapshot.index,
                    snapshot.kind,
                    &settings,
                ),
                None => snapshot.lint(&settings),
            })
            .await
            .map_err(|error| error.to_string()),
        };
        let lint = match result {
            Ok(lint) => lint,
            Err(error) => {
                session.send(Outgoing::Log(
                    lsp::MessageType::ERROR,
                    format!("silp-lint: linting {key} failed: {error}"),
                ));
                continue;
            }
        };
        let mut state = session.lock();
        let Some(doc) = state.docs.get_mut(&key) else {
            return;
        };
        // A newer text (or the same version of a document closed and opened again).
        if doc.dirty || doc.version != version || !Arc::ptr_eq(&doc.snapshot.text, &linted) {
            continue;
        }
        doc.lint = Some(LintState {
            version,
            text: doc.snapshot.text.clone(),
            lint: Arc::new(lint),
        });
        for publish in cross_and_collect(&mut state, Some(&key)) {
            if !deliver(&session, &mut state, publish) {
                return;
            }
        }
    }
}

/// Hands a document's diagnostics to the client the way it takes them: queued for
/// publishing, or kept as the document's report for its next pull (the client
/// asked to pull again when the report changed and its version did not, as when
/// another document's `req_id`s or the configuration changed). A clearing publish
/// is a pulling client's own business. `false` once the server shuts down.
pub fn deliver(session: &Session, state: &mut State, publish: Publish) -> bool {
    let Delivery::Pull { refresh } = state.delivery else {
        return session.send(Outgoing::Diagnostics(publish));
    };
    let Some(version) = publish.version else {
        return true;
    };
    let next_id = state.next_result_id;
    let Some(doc) = state.docs.get_mut(&publish.key) else {
        return true;
    };
    let unedited = match &mut doc.report {
        Some(report) if *report.diagnostics == publish.diagnostics => {
            report.version = version;
            return true;
        }
        Some(report) => report.version == version,
        None => false,
    };
    doc.report = Some(Report {
        version,
        result_id: next_id.to_string(),
        diagnostics: Arc::new(publish.diagnostics),
    });
    state.next_result_id += 1;
    !(refresh && unedited) || session.send(Outgoing::Refresh)
}

/// A comparable summary of a diagnostic, to tell whether cross-file results changed.
type DiagnosticKey<'d> = (&'static str, Span, &'d str, Vec<(Option<&'d str>, Span)>);

fn diagnostic_key(d: &Diagnostic) -> DiagnosticKey<'_> {
    (
        d.rule.code,
        d.span.clone(),
        d.message.as_str(),
        d.related
            .iter()
            .map(|r| (r.path.as_deref(), r.span.clone()))
            .collect(),
    )
}

/// Runs the cross-file rules over every document whose lint is current, and returns
/// what to publish: `changed` (when given) and each document whose cross-file
/// diagnostics differ from those last published.
pub fn cross_and_collect(state: &mut State, changed: Option<&str>) -> Vec<Publish> {
    let mut keys: Vec<&String> = state
        .docs
        .iter()
        .filter(|(_, doc)| doc.current_lint().is_some())
        .map(|(key, _)| key)
        .collect();
    keys.sort();
    let views: Vec<LintedFile> = keys
        .iter()
        .filter_map(|key| {
            let doc = &state.docs[*key];
            Some(LintedFile {
                path: key.as_str(),
                settings: &doc.settings,
                req_ids: &doc.current_lint()?.req_ids,
            })
        })
        .collect();
    let mut extra: Vec<Vec<Diagnostic>> = vec![Vec::new(); views.len()];
    for (file, diagnostic) in cross_file(&views) {
        if let Some(list) = extra.get_mut(file) {
            list.push(diagnostic);
        }
    }
    drop(views);
    let keys: Vec<String> = keys.into_iter().cloned().collect();
    let mut publishes = Vec::new();
    let mut updates = Vec::new();
    for (key, cross) in keys.iter().zip(extra) {
        let doc = &state.docs[key];
        let same = doc.cross.len() == cross.len()
            && doc
                .cross
                .iter()
                .zip(&cross)
                .all(|(a, b)| diagnostic_key(a) == diagnostic_key(b));
        if same && changed != Some(key.as_str()) {
            continue;
        }
        let Some(lint) = doc.current_lint() else {
            continue;
        };
        // A lint's own diagnostics come sorted; only cross-file ones need merging in,
        // ordered and deduplicated as `lint::sort_and_dedup` does (without copying).
        let mut all: Vec<&Diagnostic> = lint.diagnostics.iter().chain(&cross).collect();
        if !cross.is_empty() {
            all.sort_by_key(|d| (d.span.start, d.span.end, d.rule.code));
            all.dedup_by(|a, b| {
                a.span == b.span && a.rule.code == b.rule.code && a.message == b.message
            });
        }
        let diagnostics = published(&all, doc, state);
        publishes.push(Publish {
            key: key.clone(),
            uri: doc.uri.clone(),
            version: Some(doc.version),
            diagnostics,
        });
        updates.push((key.clone(), cross));
    }
    for (key, cross) in updates {
        if let Some(doc) = state.docs.get_mut(&key) {
            doc.cross = cross;
        }
    }
    publishes
}

/// The most diagnostics published for one document. Past it, one more diagnostic
/// (information, at the first one left out) says how many were left out: a client
/// holds every published diagnostic in memory several times over, so 10 MB with a
/// problem on every line took gigabytes. `silp-lint check` lists them all.
pub const MAX_PUBLISHED_DIAGNOSTICS: usize = 10_000;

/// A document's diagnostics (sorted) as published: at most
/// [`MAX_PUBLISHED_DIAGNOSTICS`], then a note of how many more there are.
fn published(
    diagnostics: &[&Diagnostic],
    doc: &OpenDocument,
    state: &State,
) -> Vec<lsp::Diagnostic> {
    let shown = diagnostics.len().min(MAX_PUBLISHED_DIAGNOSTICS);
    let mut out: Vec<lsp::Diagnostic> = diagnostics[..shown]
        .iter()
        .map(|d| to_lsp::diagnostic(d, doc, state))
        .collect();
    if let Some(first) = diagnostics.get(shown) {
        let at = doc
            .snapshot
            .range(&(first.span.start..first.span.start), state.encoding);
        out.push(to_lsp::left_out(
            diagnostics.len() - shown,
            MAX_PUBLISHED_DIAGNOSTICS,
            at,
        ));
    }
    out
}

/// Whether a publish is still for its document's current version (a clearing one
/// always is).
pub fn is_current(state: &State, publish: &Publish) -> bool {
    match publish.version {
        None => true,
        Some(version) => state
            .docs
            .get(&publish.key)
            .is_some_and(|doc| doc.version == version && !doc.dirty),
    }
}

/// Sends the queued messages in order, dropping diagnostics whose document moved
/// on to a newer version in the meantime.
pub async fn publisher(session: Arc<Session>, mut receiver: mpsc::UnboundedReceiver<Outgoing>) {
    while let Some(message) = receiver.recv().await {
        match message {
            Outgoing::Log(typ, text) => session.log(typ, text).await,
            Outgoing::Refresh => {
                // The client answers when it has pulled again; nothing waits on that.
                let client = session.client.clone();
                tokio::spawn(async move { client.workspace_diagnostic_refresh().await });
            }
            Outgoing::Diagnostics(publish) => {
                if is_current(&session.lock(), &publish) {
                    session
                        .client
                        .publish_diagnostics(publish.uri, publish.diagnostics, publish.version)
                        .await;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::document::Snapshot;
    use crate::lsp::server::Backend;
    use crate::lsp::session::OpenDocument;
    use crate::settings::Settings;
    use crate::source::FileKind;
    use std::str::FromStr;
    use tower_lsp_server::LspService;

    fn session() -> (Arc<Session>, mpsc::UnboundedReceiver<Outgoing>) {
        let (service, _socket) = LspService::new(Backend::new);
        let session = service.inner().session().clone();
        let outgoing = session.take_outgoing().expect("the queue, once");
        (session, outgoing)
    }

    fn open(session: &Arc<Session>, key: &str, version: i32, text: &str) {
        let mut state = session.lock();
        state.docs.insert(
            key.to_string(),
            OpenDocument {
                uri: Uri::from_str(key).unwrap(),
                version,
                snapshot: Snapshot::new(text.to_string(), FileKind::SilpJsonl),
                lint: None,
                cross: Vec::new(),
                linting: false,
                dirty: false,
                settings: Arc::new(Settings::default()),
                report: None,
            },
        );
        request_lint(session, &mut state, key);
    }

    async fn next_publish(outgoing: &mut mpsc::UnboundedReceiver<Outgoing>) -> Publish {
        match outgoing.recv().await.expect("the session is alive") {
            Outgoing::Diagnostics(publish) => publish,
            Outgoing::Log(_, text) => panic!("unexpected log: {text}"),
            Outgoing::Refresh => panic!("a refresh asked of a client that takes pushes"),
        }
    }

    fn codes(publish: &Publish) -> Vec<String> {
        publish
            .diagnostics
            .iter()
            .map(|d| match &d.code {
                Some(lsp::NumberOrString::String(code)) => code.clone(),
                other => format!("{other:?}"),
            })
            .collect()
    }

    const SHARED_ID: &str = "{\"intent\":\"!START\",\"meta\":{\"req_id\":\"a1b2c3d4\"}}\n";

    #[tokio::test]
    async fn documents_sharing_a_req_id_are_published_pointing_at_each_other() {
        let (session, mut outgoing) = session();
        open(&session, "file:///w/a.silp.jsonl", 1, SHARED_ID);
        let first = next_publish(&mut outgoing).await;
        assert_eq!(first.key, "file:///w/a.silp.jsonl");
        assert!(codes(&first).is_empty(), "alone, the id is unique");
        open(&session, "file:///w/b.silp.jsonl", 1, SHARED_ID);
        let mut published = [
            next_publish(&mut outgoing).await,
            next_publish(&mut outgoing).await,
        ];
        published.sort_by(|x, y| x.key.cmp(&y.key));
        for (publish, other) in published.iter().zip(["b.silp.jsonl", "a.silp.jsonl"]) {
            assert_eq!(codes(publish), ["SL303"], "{}", publish.key);
            let related = publish.diagnostics[0].related_information.as_ref().unwrap();
            assert!(related[0].location.uri.as_str().ends_with(other));
        }
        // Closing one: the other is published again, without the duplicate.
        let mut state = session.lock();
        state.docs.remove("file:///w/b.silp.jsonl");
        let again = cross_and_collect(&mut state, None);
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].key, "file:///w/a.silp.jsonl");
        assert!(codes(&again[0]).is_empty());
    }

    #[test]
    fn a_lint_of_an_older_version_is_never_published() {
        // One blocking thread, held by a gate until version 2 is in place: the lint
        // of version 1 cannot end before it, however the threads are scheduled.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .max_blocking_threads(1)
            .build()
            .unwrap();
        runtime.block_on(async {
            let (open_gate, gate) = std::sync::mpsc::channel::<()>();
            let gated = tokio::task::spawn_blocking(move || gate.recv());
            let (session, mut outgoing) = session();
            let key = "file:///w/c.silp.jsonl";
            open(&session, key, 1, "{\"intent\":\"!begin\"}\n");
            // The job takes version 1 and queues its lint behind the gate.
            tokio::task::yield_now().await;
            {
                let mut state = session.lock();
                let doc = state.docs.get_mut(key).unwrap();
                assert!(doc.linting && !doc.dirty, "the job took version 1");
                doc.snapshot =
                    Snapshot::new("{\"intent\":\"!START\"}\n".to_string(), FileKind::SilpJsonl);
                doc.version = 2;
                request_lint(&session, &mut state, key);
            }
            open_gate.send(()).unwrap();
            gated.await.unwrap().unwrap();
            let publish = next_publish(&mut outgoing).await;
            assert_eq!(publish.version, Some(2));
            assert!(codes(&publish).is_empty(), "{:?}", codes(&publish));
            assert!(outgoing.try_recv().is_err(), "version 1 was published too");
            let state = session.lock();
            assert!(is_current(&state, &publish));
            let stale = Publish {
                version: Some(1),
                ..publish
            };
            assert!(!is_current(&state, &stale));
        });
    }
}
