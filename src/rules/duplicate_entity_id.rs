use super::{declare_rule, Context, Rule};
use crate::diagnostics::Related;
use crate::ir::{Ir, Origin};
use crate::repeats::repeats;

declare_rule! {
    /// ## What it does
    /// Reports a second entity with the same `id` among the primary action's
    /// entities. Two positional arguments are two `act` entities, so
    /// `book(hotel,downtown)` has a duplicate too. In a JSON-frontend payload, whose
    /// entities are the keys of one object, a key written twice is such a duplicate.
    ///
    /// ## Why is this bad?
    /// The JSON frontend flattens primary entities into one object keyed by id and
    /// keeps only the last one: `book(hotel,downtown)` compiles to
    /// `{"intent":"!BOOK","act":"downtown"}` and `hotel` is lost.
    ///
    /// ## Example
    /// ```silp
    /// book(hotel,downtown)
    /// ```
    ///
    /// Use instead:
    /// ```silp
    /// book(hotel,area=downtown)
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: give the extra values keyword ids that say what they are.
    pub struct DuplicateEntityId {
        code: "SL405",
        name: "duplicate-entity-id",
        severity: Warning,
        hooks: [Ir],
    }
}

impl Rule for DuplicateEntityId {
    fn check_ir(&self, ctx: &mut Context, ir: &Ir) {
        // An entity without a written `id` is SL401's. One pass over the entities,
        // which a line of a million calls has a million of.
        let repeated = repeats(&ir.entities, |entity| {
            (ir.is_primary(entity) && !entity.id.span.is_empty()).then_some(entity.id.as_str())
        });
        for (index, first) in repeated {
            let (entity, first) = (&ir.entities[index], &ir.entities[first]);
            if !ctx.keeps_message(&Self::META) {
                // Counted, or its place kept for a suppression, with no message.
                ctx.report(&Self::META, entity.id.span.clone(), String::new());
                continue;
            }
            let consequence = if ir.origin == Origin::JsonFrontend {
                "JSON parsers keep only the last one"
            } else {
                "the JSON frontend keeps only the last one"
            };
            let mut reported = ctx.report(
                &Self::META,
                entity.id.span.clone(),
                format!(
                    "a second entity with id `{}`: {consequence}",
                    entity.id.node
                ),
            );
            if entity.id.node == "act" && ir.origin == Origin::Code {
                reported = reported.help("give this value a keyword id, e.g. `name=value`");
            }
            reported.related(Related {
                path: None,
                span: first.id.span.clone(),
                message: format!("the first `{}` entity", first.id.node),
            });
        }
    }
}
