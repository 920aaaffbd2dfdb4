use super::{declare_rule, Context, Rule};
use crate::ir::Ir;
use crate::syntax::document::Carrier;
use crate::syntax::ping::Probe;
use crate::vocabulary::{did_you_mean, is_known_frontend, FRONTENDS};

declare_rule! {
    /// ## What it does
    /// Reports a frontend name — `meta.out`, one listed in a `//ping` probe, or the
    /// `silp_encoding` of an MCP tool call's SILP wrapper — that is not `code`,
    /// `json`, `natural`, `nl_json`, `llmlingua2` or one added with
    /// `extend-frontends`. The payload of a wrapper whose encoding is unknown is not
    /// linted.
    ///
    /// Under draft -00 (`draft = "00"`), `math` is accepted too: that revision's
    /// degradation chain is `code -> math -> JSON -> natural language`. Draft -01
    /// removed the undefined `math` frontend, so from -01 on (the default) it is
    /// reported like any other unknown name.
    ///
    /// ## Why is this bad?
    /// A receiver answers with the SILP error code `unsupported_frontend`, and
    /// frontend negotiation cannot settle on a frontend nobody implements.
    ///
    /// ## Example
    /// ```silp
    /// //ping code,yaml
    /// ```
    ///
    /// Use instead:
    /// ```silp
    /// //ping code,json
    /// ```
    ///
    /// ## Fix
    /// No automatic fix. Installation-specific frontends can be declared with
    /// `extend-frontends`.
    pub struct UnsupportedFrontend {
        code: "SL403",
        name: "unsupported-frontend",
        severity: Error,
        protocol_error: "unsupported_frontend",
        hooks: [Ping, Carrier, Ir],
    }
}

impl UnsupportedFrontend {
    fn check_name(ctx: &mut Context, name: &str, span: crate::source::Span) {
        if is_known_frontend(name, ctx.settings()) {
            return;
        }
        let supported: Vec<&str> = FRONTENDS
            .iter()
            .copied()
            .chain(ctx.settings().extend_frontends.iter().map(String::as_str))
            .collect();
        let suggestion = did_you_mean(name, supported.iter().copied());
        let reported = ctx.report(
            &Self::META,
            span,
            format!("`{name}` is not a supported frontend"),
        );
        match suggestion {
            Some(s) => reported.help(format!("did you mean `{s}`?")),
            None => reported.help(format!("supported: {}", supported.join(", "))),
        };
    }
}

impl Rule for UnsupportedFrontend {
    fn check_ir(&self, ctx: &mut Context, ir: &Ir) {
        if let Some(out) = &ir.meta.out {
            Self::check_name(ctx, out, out.span.clone());
        }
    }

    fn check_ping(&self, ctx: &mut Context, probe: &Probe) {
        for frontend in &probe.frontends {
            Self::check_name(ctx, frontend.text, frontend.span());
        }
    }

    fn check_carrier(&self, ctx: &mut Context, carrier: &Carrier) {
        let Carrier::Mcp(wrapper) = carrier else {
            return;
        };
        if let Some(encoding) = &wrapper.encoding {
            if let Some(name) = encoding.value.as_str() {
                Self::check_name(ctx, name, encoding.value.span.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::lint_text;
    use crate::settings::Settings;
    use crate::source::FileKind;

    #[test]
    fn the_help_lists_the_configured_frontends_too() {
        let settings = Settings {
            extend_frontends: vec!["math".to_string()],
            ..Settings::default()
        };
        let lint = lint_text("//ping code,xml\n", FileKind::Silp, &settings);
        let help = lint.diagnostics[0].help.as_deref().unwrap_or("");
        assert!(help.starts_with("supported: code, json,"), "{help}");
        assert!(help.ends_with(", math"), "{help}");
    }
}
