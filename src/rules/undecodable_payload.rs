use super::{declare_rule, Context, Rule};
use crate::ir::from_json::ForeignPayload;
use crate::syntax::json::JsonNode;

declare_rule! {
    /// ## What it does
    /// Reports an object that is neither an IR document nor a JSON-frontend payload
    /// but has the shape of another payload, in a `.silp.json` or `.silp.jsonl` file
    /// or carried as a SILP payload in an NLIP message, naming what it looks like.
    ///
    /// The shapes it knows:
    /// - an nl_json frontend payload, `{"task_description": "..."}` (draft §4.4):
    ///   prose wrapped in JSON, a one-way frontend with no decoder;
    /// - an NLIP message (`format` and `content`, or `messagetype`, in any case),
    ///   which silp-lint checks in `*.nlip.json` files.
    ///
    /// Only an object without `intent` is considered. Any other object without the
    /// IR-only keys is read as a JSON-frontend payload, and `json-frontend-violation`
    /// (SL410) reports what it lacks; an object reported here gets nothing from
    /// SL410, whose findings (a missing `intent`, a `task_description` slot) would
    /// only restate this one.
    ///
    /// ## Why is this bad?
    /// The file promises SILP payloads that decode to the IR. This object does not
    /// decode: a receiver rejects it, `silp-lint convert` refuses it with this
    /// message, and silp-lint cannot check what it says.
    ///
    /// ## Example
    /// ```json
    /// {"task_description": "If not rain at t+1, start hike otherwise start cards at indoor."}
    /// ```
    ///
    /// Use instead (the same request in the JSON frontend):
    /// ```json
    /// {"intent": "!START", "act": "hike", "constraints": [{"type": "!rain", "value": "true", "time": "t+1"}], "alternatives": [{"action": "!START", "target": "cards", "location": "indoor"}]}
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: write the payload in a decodable frontend (code, JSON or an
    /// IR document), or keep other objects out of SILP payload files. A file that
    /// archives nl_json output on purpose can turn this rule off for itself with
    /// `[per-file-ignores]`.
    pub struct UndecodablePayload {
        code: "SL411",
        name: "undecodable-payload",
        severity: Error,
        hooks: [Json],
    }
}

impl Rule for UndecodablePayload {
    fn check_json(&self, ctx: &mut Context, object: &JsonNode, _is_ir_document: bool) {
        let Some(foreign) = ForeignPayload::of(object) else {
            return;
        };
        let help = match foreign {
            ForeignPayload::NlJson => {
                "write the request in a frontend that decodes: the JSON frontend, the code \
                 frontend or an IR document"
            }
            ForeignPayload::NlipMessage => "move the message to a `*.nlip.json` file",
        };
        ctx.report(&Self::META, object.span.clone(), foreign.message())
            .help(help);
    }
}
