use super::{declare_rule, Context, Rule};
use crate::diagnostics::{Edit, Fix};
use crate::syntax::code::{Constraint, Payload, Word};

declare_rule! {
    /// ## What it does
    /// Reports a code-frontend function name that is not lower case, such as
    /// `Cancel(flight)` or `START(hike)`, and likewise a condition's predicate name
    /// (`if Loc(me,Beijing): ...`).
    ///
    /// A comparison's subject (`TEMP>30`) is not a function name and is not reported.
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
    /// unsafe for a predicate, whose name is the constraint's `type` and so changes.
    pub struct FunctionNameCase {
        code: "SL104",
        name: "function-name-case",
        severity: Error,
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
            report(ctx, &call.name, Fix::safe);
        }
        let predicates = payload
            .condition
            .iter()
            .flat_map(|condition| condition.constraints.iter())
            .filter_map(|constraint| match constraint {
                Constraint::Predicate { name, .. } => Some(name),
                Constraint::Negation { .. } | Constraint::Comparison { .. } => None,
            });
        for name in predicates {
            report(ctx, name, Fix::unsafe_);
        }
    }
}

fn report(ctx: &mut Context, name: &Word, fix: fn(String, Vec<Edit>) -> Fix) {
    let lower = name.text.to_lowercase();
    if lower == name.text {
        return;
    }
    ctx.report(
        &FunctionNameCase::META,
        name.span(),
        format!("function name `{}` is not lower case", name.text),
    )
    .fix(fix(
        format!("Lower-case to `{lower}`"),
        vec![Edit::replace(name.span(), lower)],
    ));
}
