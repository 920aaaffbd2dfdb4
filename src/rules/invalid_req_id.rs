use super::{declare_rule, Context, Rule};
use crate::diagnostics::{Edit, Fix};
use crate::ir::Ir;

declare_rule! {
    /// ## What it does
    /// Reports a `meta.req_id` that does not match `^[a-f0-9]{4,8}$`: upper-case hex,
    /// letters past `f`, fewer than 4 or more than 8 characters.
    ///
    /// ## Why is this bad?
    /// The draft requires the pattern; receivers validating against the normative
    /// schema reject the payload, and request correlation breaks.
    ///
    /// ## Example
    /// ```json
    /// {"intent": "!START", "meta": {"req_id": "A1B2C3D4"}}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"intent": "!START", "meta": {"req_id": "a1b2c3d4"}}
    /// ```
    ///
    /// ## Fix
    /// Lower-casing the id (safe) when that alone makes it valid. Otherwise generate a
    /// new id: 8 lower-case hex characters (`silp-lint convert` derives one from the
    /// payload's SHA-256).
    pub struct InvalidReqId {
        code: "SL301",
        name: "invalid-req-id",
        severity: Error,
        hooks: [Ir],
    }
}

/// Whether `id` matches `^[a-f0-9]{4,8}$`.
pub fn is_valid_req_id(id: &str) -> bool {
    (4..=8).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

impl Rule for InvalidReqId {
    fn check_ir(&self, ctx: &mut Context, ir: &Ir) {
        let Some(req_id) = &ir.meta.req_id else {
            return;
        };
        if is_valid_req_id(req_id) {
            return;
        }
        let lower = req_id.to_ascii_lowercase();
        let fixable =
            is_valid_req_id(&lower) && ctx.slice(&req_id.span) == format!("\"{}\"", req_id.node);
        let reported = ctx.report(
            &Self::META,
            req_id.span.clone(),
            format!(
                "`req_id` `{}` does not match `^[a-f0-9]{{4,8}}$`",
                req_id.node
            ),
        );
        if fixable {
            reported.fix(Fix::safe(
                format!("Lower-case to `{lower}`"),
                vec![Edit::replace(
                    req_id.span.start + 1..req_id.span.end - 1,
                    lower,
                )],
            ));
        } else {
            reported.help("use 8 lower-case hex characters");
        }
    }
}
