use super::{declare_rule, Context, Rule};
use crate::syntax::describe_found;
use crate::syntax::slip::{Message, SlipToken};

declare_rule! {
    /// ## What it does
    /// Reports a Slipstream source or destination agent id holding characters other
    /// than ASCII letters, digits, `.`, `-` and `_`.
    ///
    /// ## Why is this bad?
    /// Agent ids are routing keys: they must compare equal byte for byte wherever the
    /// message travels. Ids with other characters (accents, other scripts, quotes,
    /// punctuation) are not in the SLIP v1 grammar, may normalise differently on
    /// another system, can hide look-alike characters, and split into several tokens
    /// in LLM tokenizers.
    ///
    /// ## Example
    /// ```slip
    /// SLIP v1 ålice bob@example RequestReview
    /// ```
    ///
    /// Use instead:
    /// ```slip
    /// SLIP v1 alice bob.example RequestReview
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: the agent id must be the one the agent is registered under.
    pub struct InvalidAgentId {
        code: "SL604",
        name: "invalid-agent-id",
        severity: Error,
        hooks: [Slip],
    }
}

/// Whether `c` may appear in an agent id.
fn is_agent_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')
}

impl InvalidAgentId {
    fn check_agent(ctx: &mut Context, agent: &SlipToken, role: &str) {
        let mut bad: Vec<char> = Vec::new();
        for c in agent.text.chars().filter(|c| !is_agent_char(*c)) {
            if !bad.contains(&c) {
                bad.push(c);
            }
        }
        if bad.is_empty() {
            return;
        }
        let shown: Vec<String> = bad
            .iter()
            .take(5)
            .map(|c| describe_found(c.encode_utf8(&mut [0; 4])))
            .collect();
        ctx.report(
            &Self::META,
            agent.span.clone(),
            format!(
                "{role} agent id {} holds {} outside `[A-Za-z0-9._-]`",
                describe_found(agent.text),
                shown.join(", ")
            ),
        )
        .help("agent ids are ASCII letters, digits, `.`, `-` and `_`");
    }
}

impl Rule for InvalidAgentId {
    fn check_slip(&self, ctx: &mut Context, message: &Message) {
        if let Some(src) = &message.src {
            Self::check_agent(ctx, src, "source");
        }
        if let Some(dst) = &message.dst {
            Self::check_agent(ctx, dst, "destination");
        }
    }
}
