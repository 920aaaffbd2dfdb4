use super::{declare_rule, Context, Rule};
use crate::ir::Ir;
use crate::vocabulary::OPERATORS;

declare_rule! {
    /// ## What it does
    /// Reports a comparison operator outside `==`, `!=`, `<`, `>`, `<=`, `>=` — such
    /// as `=>`, `<>` or a single `=` — in a code-frontend condition or in a
    /// constraint's `operator`.
    ///
    /// Any run of two or more of `<`, `>`, `=` and `!` in a condition is one operator,
    /// so `=<`, `===` and `<=>` are reported here, not as syntax errors (SL001). Where
    /// one operator is the likely meaning (`=>`, `=<`, `<>`, `=`), the help names it.
    ///
    /// ## Why is this bad?
    /// Receivers only know the six operators. `=>` reads as an implication or a
    /// typo for `>=`, `<>` is SQL's "not equal", and `=` is ambiguous with keyword
    /// arguments; each decodes to a constraint no receiver can evaluate.
    ///
    /// ## Example
    /// ```silp
    /// if rating=>4: book(hotel)
    /// ```
    ///
    /// Use instead:
    /// ```silp
    /// if rating>=4: book(hotel)
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: the intended comparison is not certain.
    pub struct InvalidOperator {
        code: "SL406",
        name: "invalid-operator",
        severity: Error,
        hooks: [Ir],
    }
}

impl Rule for InvalidOperator {
    fn check_ir(&self, ctx: &mut Context, ir: &Ir) {
        for operator in ir.constraints.iter().filter_map(|c| c.operator.as_ref()) {
            if OPERATORS.contains(&operator.as_str()) {
                continue;
            }
            let suggestion = match operator.as_str() {
                "=>" => Some(">="),
                "=<" => Some("<="),
                "<>" => Some("!="),
                "=" => Some("=="),
                _ => None,
            };
            let reported = ctx.report(
                &Self::META,
                operator.span.clone(),
                format!("`{}` is not a comparison operator", operator.node),
            );
            match suggestion {
                Some(s) => reported.help(format!("did you mean `{s}`?")),
                None => reported.help(format!("use one of {}", OPERATORS.join(" "))),
            };
        }
    }
}
