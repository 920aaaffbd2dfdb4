use super::{declare_rule, Context, Rule, RuleMeta};
use crate::diagnostics::{Edit, Fix};
use crate::syntax::code::Payload;

declare_rule! {
    /// ## What it does
    /// Reports a code-frontend function name that is not lower case, such as
    /// `Cancel(flight)` or `START(hike)`.
    ///
    /// ## Why is this bad?
    /// The code frontend's function names are the lower-cased verbs (`!CANCEL` ->
    /// `cancel`); those are the spellings verified to be single tokens. `Cancel` and
    /// `CANCEL` tokenize differently and are not part of the grammar.
    ///
    /// ## Example
    /// ```silp
    /// Cancel(flight)
    /// ```
    ///
    /// Use instead:
    /// ```silp
    /// cancel(flight)
    /// ```
    ///
    /// ## Fix
    /// Lower-casing the name (safe).
    pub struct FunctionNameCase {
        code: "SL104",
        name: "function-name-case",
        severity: Error,
    }
}

impl Rule for FunctionNameCase {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check_code(&self, ctx: &mut Context, payload: &Payload) {
        let calls = payload.actions.iter().chain(
            payload
                .else_branch
                .iter()
                .flat_map(|b| b.alternatives.iter()),
        );
        for call in calls {
            let name = call.name.text;
            let lower = name.to_lowercase();
            if lower == name {
                continue;
            }
            ctx.report(
                &Self::META,
                call.name.span(),
                format!("function name `{name}` is not lower case"),
            )
            .fix(Fix::safe(
                format!("Lower-case to `{lower}`"),
                vec![Edit::replace(call.name.span(), lower)],
            ));
        }
    }
}
