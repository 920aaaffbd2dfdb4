use super::{declare_rule, Context, Rule};
use crate::diagnostics::{Edit, Fix};
use crate::syntax::code::{Constraint, Payload, Word};

declare_rule! {
    /// ## What it does
    /// Reports a code-frontend function name that is not lower case, such as
    /// `Cancel(flight)` or `START(hike)`, and likewise the name of each condition,
    /// in all three forms the grammar gives it: a predicate (`if Loc(me,Beijing): ...`),
    /// a negation (`if !RAIN(t+1): ...`) and a comparison (`if TEMP>30: ...`).
    ///
    /// The grammar's names are lower-case letters and `_` (languages.md §2). An IR
    /// document whose constraint `type` has upper-case letters cannot be printed in
    /// that form, so SL502 reports it there: what `convert --to code` prints from an
    /// IR that SL502 passes, this rule passes too.
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
    /// Lower-casing the name: safe for a call, whose verb is the same either way;
    /// unsafe for a condition, whose name is the constraint's `type` and so changes.
    pub struct FunctionNameCase {
        code: "SL104",
        name: "function-name-case",
        severity: Error,
        hooks: [Code],
    }
}

impl Rule for FunctionNameCase {
    fn check_code(&self, ctx: &mut Context, payload: &Payload) {
        let calls = payload.actions.iter().chain(
            payload
                .else_branch
                .iter()
                .flat_map(|b| b.alternatives.iter()),
        );
        for call in calls {
            report(ctx, &call.name, "function", Fix::safe);
        }
        let conditions = payload
            .condition
            .iter()
            .flat_map(|condition| condition.constraints.iter())
            .map(|constraint| match constraint {
                Constraint::Predicate { name, .. }
                | Constraint::Negation { name, .. }
                | Constraint::Comparison { name, .. } => name,
            });
        for name in conditions {
            report(ctx, name, "condition", Fix::unsafe_);
        }
    }
}

/// Reports `name` unless it is lower case; `what` says whose name it is.
fn report(ctx: &mut Context, name: &Word, what: &str, fix: fn(String, Vec<Edit>) -> Fix) {
    // Most names are ASCII lower case already: told without a lower-cased copy.
    if name.text.is_ascii() && !name.text.bytes().any(|b| b.is_ascii_uppercase()) {
        return;
    }
    let lower = name.text.to_lowercase();
    if lower == name.text {
        return;
    }
    let (message, title) = ctx.message_and_title(&FunctionNameCase::META, || {
        (
            format!("{what} name `{}` is not lower case", name.text),
            format!("Lower-case to `{lower}`"),
        )
    });
    ctx.report(&FunctionNameCase::META, name.span(), message)
        .fix(fix(title, vec![Edit::replace(name.span(), lower)]));
}
