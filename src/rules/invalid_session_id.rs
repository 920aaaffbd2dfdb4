use super::{declare_rule, Context, Rule};
use crate::ir::Ir;
use crate::syntax::ping::Probe;

declare_rule! {
    /// ## What it does
    /// Reports a session id — `meta.session_id`, or `session=` in a `//ping` probe —
    /// that is not exactly 2 characters.
    ///
    /// ## Why is this bad?
    /// The draft identifies stateful sessions by 2-character ids; a receiver cannot
    /// match any other id to a session and treats the payload as stateless or
    /// answers `session_expired`.
    ///
    /// ## Example
    /// ```silp
    /// //ping code,json session=abc
    /// ```
    ///
    /// Use instead:
    /// ```silp
    /// //ping code,json session=ab
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: choose the session's 2-character id.
    pub struct InvalidSessionId {
        code: "SL404",
        name: "invalid-session-id",
        severity: Error,
        hooks: [Ping, Ir],
    }
}

fn check(ctx: &mut Context, id: &str, span: crate::source::Span) {
    let count = id.chars().count();
    if count != 2 {
        ctx.report(
            &InvalidSessionId::META,
            span,
            format!("session id `{id}` has {count} characters; it must have exactly 2"),
        );
    }
}

impl Rule for InvalidSessionId {
    fn check_ir(&self, ctx: &mut Context, ir: &Ir) {
        if let Some(session) = &ir.meta.session_id {
            check(ctx, session, session.span.clone());
        }
    }

    fn check_ping(&self, ctx: &mut Context, probe: &Probe) {
        if let Some(session) = &probe.session {
            check(ctx, session.text, session.span());
        }
    }
}
