use super::{declare_rule, Context, Rule};
use crate::diagnostics::{Edit, Fix};
use crate::syntax::code::{ConditionEnd, Payload, Separator};

declare_rule! {
    /// ## What it does
    /// Reports code-frontend syntax that the draft prints in its examples but its
    /// ABNF lacks: `else` without `:`, `then` in place of `:`, `->` sequencing, and a
    /// trailing `with NAME`.
    ///
    /// silp-lint accepts what languages.md lists: these forms parse (the calls of a
    /// `->` chain may lack parentheses), so the rest of the payload is still checked.
    ///
    /// ## Why is this bad?
    /// The reference decoder mishandles these forms. Without the colon it silently
    /// merges the else-branch into the last argument (`start(hike) else
    /// start(cards@indoor)` decodes with no alternative), and `then`, `->` and `with`
    /// are not decoded at all, so the receiver sees a different payload than the
    /// sender wrote.
    ///
    /// ## Example
    /// ```silp
    /// if weather>rain then switch(indoor_activity) else start(cards)
    /// ```
    ///
    /// Use instead:
    /// ```silp
    /// if weather>rain: switch(indoor_activity) else: start(cards)
    /// ```
    ///
    /// ## Fix
    /// `else` -> `else:` and `then` -> `:` (safe). Rewrite `a -> b` as `a; b` (each
    /// call with parentheses) and drop or encode `with NAME` by hand.
    pub struct NonstandardSyntax {
        code: "SL505",
        name: "nonstandard-syntax",
        severity: Warning,
        hooks: [Code],
    }
}

impl Rule for NonstandardSyntax {
    fn check_code(&self, ctx: &mut Context, payload: &Payload) {
        if let Some(condition) = &payload.condition {
            if let Some(ConditionEnd::Then(then)) = &condition.end {
                // Replace the white space before `then` too, giving `cond: action`.
                let before = condition
                    .constraints
                    .last()
                    .map_or(then.start, |c| c.span().end);
                ctx.report(
                    &Self::META,
                    then.clone(),
                    "`then` is not part of the grammar; use `:`",
                )
                .fix(Fix::safe(
                    "Replace `then` with `:`",
                    vec![Edit::replace(before..then.end, ":")],
                ));
            }
        }
        for separator in &payload.separators {
            if let Separator::Arrow(arrow) = separator {
                ctx.report(
                    &Self::META,
                    arrow.clone(),
                    "`->` sequencing is not part of the grammar",
                )
                .help("separate calls with `; ` and give each call its parentheses");
            }
        }
        if let Some(branch) = &payload.else_branch {
            if branch.colon.is_none() {
                ctx.report(
                    &Self::META,
                    branch.else_keyword.clone(),
                    "`else` without `:`: the reference decoder merges this branch into the last argument",
                )
                .fix(Fix::safe("Write `else:`", vec![Edit::insert(branch.else_keyword.end, ":")]));
            }
        }
        if let Some((keyword, name)) = &payload.with {
            ctx.report(
                &Self::META,
                keyword.start..name.span.1,
                format!(
                    "a trailing `with {}` is not part of the grammar and is not decoded",
                    name.text
                ),
            );
        }
    }
}
