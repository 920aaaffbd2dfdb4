use super::invalid_req_id::is_valid_req_id;
use super::{declare_rule, Context, Rule};
use crate::ir::Ir;
use crate::settings::Draft;

declare_rule! {
    /// ## What it does
    /// Reports a valid `req_id` shorter than 8 hex characters.
    ///
    /// ## Why is this bad?
    /// The draft's default is 8 characters (32 bits): the "production default" in
    /// -00, the "recommended default" from -01 on (the message follows `draft`). Four
    /// are permitted only in scope-limited sessions and six are not recommended:
    /// among 1,000 requests, 16-bit ids collide with about 99.9% probability.
    ///
    /// ## Example
    /// ```json
    /// {"intent": "!START", "meta": {"req_id": "a3f9"}}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"intent": "!START", "meta": {"req_id": "a3f9c2d1"}}
    /// ```
    ///
    /// ## Fix
    /// No automatic fix (a new id changes correlation). Generate 8 hex characters, or
    /// ignore the rule where a short-lived, scope-limited session is intended.
    pub struct ShortReqId {
        code: "SL302",
        name: "short-req-id",
        severity: Warning,
        hooks: [Ir],
    }
}

impl Rule for ShortReqId {
    fn check_ir(&self, ctx: &mut Context, ir: &Ir) {
        if let Some(req_id) = &ir.meta.req_id {
            if is_valid_req_id(req_id) && req_id.len() < 8 {
                // -00 calls 8 the production default, -01 the recommended one.
                let default = match ctx.settings().draft {
                    Draft::D00 => "production",
                    Draft::D01 | Draft::D02 => "recommended",
                };
                ctx.report(
                    &Self::META,
                    req_id.span.clone(),
                    format!(
                        "`req_id` `{}` has {} hex characters; the {default} default is 8",
                        req_id.node,
                        req_id.len()
                    ),
                );
            }
        }
    }
}
