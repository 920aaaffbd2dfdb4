//! Hover text (Markdown): verbs and anchors from the vocabulary, JSON keys from the
//! normative IR schema (and JSON-frontend slots from the frontend's schema), and
//! rules from their documentation.

use crate::diagnostics::RuleMeta;
use crate::schema::{self, PayloadSchema};
use crate::settings::Settings;
use crate::vocabulary;
use serde_json::Value;
use std::sync::OnceLock;

/// The tokenizer facts of languages.md §1, shared by every verb's hover.
const TOKENIZER_FACTS: &str = "The lower-case name is one token on the gpt-4o, gpt-3.5, \
llama-2, qwen2.5, claude and gemini tokenizers; the `!VERB` form is 2–5 tokens.";

/// Hover for a verb as written (`start`, `!START`, `Cancel`, `!begin`).
pub fn verb(written: &str, settings: &Settings) -> String {
    let upper = written.trim_start_matches('!').to_uppercase();
    let lower = upper.to_lowercase();
    if vocabulary::VERBS.contains(&upper.as_str()) {
        format!(
            "**`!{upper}`** — whitelisted SILP verb (`{lower}(…)` in the code frontend).\n\n\
             {TOKENIZER_FACTS}"
        )
    } else if let Some((_, replacement)) = vocabulary::excluded_verb(&upper) {
        let instead = match replacement {
            Some(r) => format!("use `!{r}` (`{}`) instead", r.to_lowercase()),
            None => "no single-token replacement exists".to_string(),
        };
        format!("**`!{upper}`** — excluded verb: the draft forbids it; {instead} (SL102).")
    } else if vocabulary::is_known_verb(&upper, settings) {
        format!("**`!{upper}`** — installation verb added in configuration.\n\n{TOKENIZER_FACTS}")
    } else {
        let mut text = format!(
            "**`!{upper}`** — not a whitelisted SILP verb (SL101). The 13 approved verbs: {}.",
            vocabulary::VERBS.join(", ")
        );
        if let Some(close) = vocabulary::suggest_verb(&upper, vocabulary::VERBS.iter().copied()) {
            text.push_str(&format!("\n\nDid you mean `!{close}`?"));
        }
        text
    }
}

const COORDINATES: [&str; 4] = ["ACTION", "POLARITY", "DOMAIN", "URGENCY"];

/// Hover for a SLIP anchor mnemonic.
pub fn anchor(mnemonic: &str, settings: &Settings) -> String {
    if let Some(anchor) = vocabulary::core_anchor(mnemonic) {
        let coordinates: Vec<String> = COORDINATES
            .iter()
            .zip(anchor.coordinates)
            .map(|(axis, value)| format!("{axis} {value}"))
            .collect();
        return format!(
            "**`{}`** — UCR v1.0 core anchor `0x{:04X}`\n\n{}\n\nCoordinates: {}",
            anchor.mnemonic,
            anchor.index,
            anchor.canonical,
            coordinates.join(", ")
        );
    }
    if let Some((_, index)) = settings.extend_anchors.iter().find(|(m, _)| m == mnemonic) {
        return format!("**`{mnemonic}`** — extension anchor `0x{index:04X}` from configuration.");
    }
    let mut text = format!("**`{mnemonic}`** — not a UCR v1.0 core anchor (SL601).");
    let names = vocabulary::core_anchors()
        .iter()
        .map(|a| a.mnemonic.as_str());
    if let Some(close) = vocabulary::did_you_mean(mnemonic, names) {
        text.push_str(&format!("\n\nDid you mean `{close}`?"));
    }
    text
}

/// Hover for a frontend name.
pub fn frontend(name: &str, settings: &Settings) -> String {
    match name {
        "code" | "json" => {
            format!("**`{name}`** — lossless frontend: payloads decode back to the IR.")
        }
        "natural" | "nl_json" => {
            format!("**`{name}`** — one-way frontend (English prose): no decoder.")
        }
        "llmlingua2" => "**`llmlingua2`** — one-way compressed frontend; it must not carry \
                         negation (SL501)."
            .to_string(),
        _ if vocabulary::is_known_frontend(name, settings) => {
            format!("**`{name}`** — frontend added in configuration.")
        }
        _ => format!(
            "**`{name}`** — unknown frontend (SL403). Standard frontends: {}.",
            vocabulary::FRONTENDS.join(", ")
        ),
    }
}

/// What each IR key means, beside what the schema says about it.
const KEY_PROSE: &[(&str, &str)] = &[
    ("silp", "The SILP protocol version; only `v1` is supported (SL402)."),
    ("version", "The IR version."),
    ("intent", "The primary action code, e.g. `!START`."),
    ("entities", "The action's arguments: primary entities (no `action`, or `action` equal to `intent`) and those of secondary actions."),
    ("entities[].id", "The entity id; positional code-frontend arguments get `act`."),
    ("entities[].value", "The entity's value, free text in any script."),
    ("entities[].action", "The secondary action this entity belongs to; absent for the primary action."),
    ("constraints", "Conditions on the action (`if …:` in the code frontend)."),
    ("constraints[].type", "The constraint's name; a leading `!` negates it (`!rain`)."),
    ("constraints[].value", "The constraint's value (`true` for a negation)."),
    ("constraints[].time", "When the constraint applies (`t+1`)."),
    ("constraints[].subject", "Who or what the constraint is about (a predicate's first argument)."),
    ("constraints[].operator", "A comparison operator: `==`, `!=`, `<`, `>`, `<=`, `>=` (SL406)."),
    ("alternatives", "Fallback actions (`else: …` in the code frontend)."),
    ("alternatives[].action", "The fallback's action code."),
    ("alternatives[].target", "The fallback's target (`cards` in `start(cards@indoor)`)."),
    ("alternatives[].location", "Where the fallback happens (`indoor` in `start(cards@indoor)`)."),
    ("meta", "Request metadata."),
    ("meta.req_id", "The request id: 4–8 lower-case hex characters; 8 is the production default (SL301, SL302, SL303)."),
    ("meta.session_id", "The session id: exactly 2 characters (SL404)."),
    ("meta.priority", "The request's priority."),
    ("meta.confidence", "The sender's confidence, between 0 and 1."),
    ("meta.seq", "Execution order: action codes, entity ids, or `parallel`, `sequential`, `reason_first`, `reason_last` (SL407)."),
    ("meta.out", "The frontend the answer should use: `code`, `json`, `natural`, `nl_json`, `llmlingua2` (SL403)."),
    ("meta.next_agent", "The agent that should receive the payload next."),
];

fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        serde_json::from_str(include_str!("../../data/silp-ir.schema.json")).unwrap_or(Value::Null)
    })
}

/// The schema node of a key path (`meta.req_id`, `entities[].id`) and whether the
/// key is required in its object.
fn schema_node(path: &str) -> Option<(&'static Value, bool)> {
    let mut node = schema();
    let mut required = false;
    for part in path.split('.') {
        let (name, items) = match part.strip_suffix("[]") {
            Some(name) => (name, true),
            None => (part, false),
        };
        required = node
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|k| k == name));
        node = node.get("properties")?.get(name)?;
        if items {
            node = node.get("items")?;
        }
    }
    Some((node, required))
}

/// Hover for a JSON key, given its path from the payload object.
pub fn key(path: &str) -> String {
    let name = path
        .rsplit('.')
        .next()
        .unwrap_or(path)
        .trim_end_matches("[]");
    let bare = path.replace("[]", "");
    let prose = KEY_PROSE.iter().find(|(k, _)| *k == path).map(|(_, p)| *p);
    match (schema_node(path), prose) {
        (Some((node, required)), prose) => {
            let mut facts = Vec::new();
            if let Some(kind) = node.get("type").and_then(Value::as_str) {
                facts.push(format!("type `{kind}`"));
            }
            facts.push(if required { "required" } else { "optional" }.to_string());
            if let Some(pattern) = node.get("pattern").and_then(Value::as_str) {
                facts.push(format!("pattern `{pattern}`"));
            }
            if let Some(default) = node.get("default") {
                facts.push(format!("default `{default}`"));
            }
            if let (Some(min), Some(max)) = (node.get("minimum"), node.get("maximum")) {
                facts.push(format!("from {min} to {max}"));
            }
            let mut text = format!("**`{bare}`** — IR schema: {}.", facts.join(", "));
            if let Some(prose) = prose {
                text.push_str("\n\n");
                text.push_str(prose);
            }
            text
        }
        (None, _) if !path.contains('.') && name.starts_with("action_") => format!(
            "**`{name}`** — JSON frontend: the values of the secondary action `!{}`, {} \
             (SL410).",
            name["action_".len()..].to_uppercase(),
            frontend_types("/patternProperties/^action_[\\s\\S]/type")
        ),
        (None, _) if !path.contains('.') && !path.contains("[]") => format!(
            "**`{name}`** — not an IR root key. In a JSON-frontend payload it is a primary \
             entity id whose value is {} (SL410); in an IR document it is an unknown root \
             field (SL401).",
            frontend_types("/additionalProperties/type")
        ),
        (None, _) => {
            format!("**`{bare}`** — not described by the IR schema (extra keys are ignored here).")
        }
    }
}

/// The types the JSON frontend's schema allows at `pointer` (a `type` keyword), in
/// words: `a string or a number`.
fn frontend_types(pointer: &str) -> String {
    PayloadSchema::JsonFrontend
        .value()
        .pointer(pointer)
        .map(schema::type_names)
        .unwrap_or_default()
}

/// Hover for a rule: its code, name, severity and full documentation.
pub fn rule(meta: &RuleMeta) -> String {
    format!(
        "**{} {}** ({})\n\n{}",
        meta.code,
        meta.name,
        meta.severity.as_str(),
        meta.documentation().trim_end()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbs_say_whether_they_are_whitelisted() {
        let settings = Settings::default();
        assert!(verb("start", &settings).contains("whitelisted"));
        assert!(verb("start", &settings).contains("gpt-4o"));
        assert!(verb("!SWITCH_TOOL", &settings).contains("`!SWITCH`"));
        assert!(verb("cancl", &settings).contains("Did you mean `!CANCEL`?"));
    }

    #[test]
    fn anchors_show_index_text_and_coordinates() {
        let settings = Settings::default();
        let text = anchor("ObserveState", &settings);
        assert!(text.contains("0x0001"), "{text}");
        assert!(
            text.contains("ACTION 0, POLARITY 4, DOMAIN 2, URGENCY 3"),
            "{text}"
        );
        assert!(anchor("Fallbak", &settings).contains("Did you mean `Fallback`?"));
    }

    #[test]
    fn keys_quote_the_schema() {
        let text = key("meta.req_id");
        assert!(text.contains("required"), "{text}");
        assert!(text.contains("^[a-f0-9]{4,8}$"), "{text}");
        let text = key("meta.confidence");
        assert!(text.contains("from 0 to 1"), "{text}");
        assert!(key("entities[].action").contains("optional"));
        assert!(key("action_book").contains("`!BOOK`"));
        assert!(key("hotel").contains("entity id"));
        assert!(key("action_book").contains("a string or an array (SL410)"));
        assert!(key("hotel").contains("a string or a number (SL410)"));
    }
}
