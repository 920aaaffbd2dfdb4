use super::{declare_rule, Context, Rule};
use crate::syntax::ping::Probe;
use crate::vocabulary::HEARTBEATS;

declare_rule! {
    /// ## What it does
    /// Reports a `heartbeat=N` in a `//ping` probe with N outside the values the
    /// draft defines: 1, 5, 10, 15, 20 and 9999.
    ///
    /// ## Why is this bad?
    /// The heartbeat says every how many turns session context is reset. Peers only
    /// implement the defined intervals (1 is stateless, 9999 means no heartbeat), so
    /// any other value cannot be agreed on.
    ///
    /// ## Example
    /// ```silp
    /// //ping code,json session=ab heartbeat=7
    /// ```
    ///
    /// Use instead:
    /// ```silp
    /// //ping code,json session=ab heartbeat=5
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: pick the nearest defined interval.
    pub struct InvalidHeartbeat {
        code: "SL503",
        name: "invalid-heartbeat",
        severity: Error,
        hooks: [Ping],
    }
}

impl Rule for InvalidHeartbeat {
    fn check_ping(&self, ctx: &mut Context, probe: &Probe) {
        let Some(heartbeat) = &probe.heartbeat else {
            return;
        };
        if heartbeat
            .text
            .parse::<u32>()
            .is_ok_and(|n| HEARTBEATS.contains(&n))
        {
            return;
        }
        ctx.report(
            &Self::META,
            heartbeat.span(),
            format!("`heartbeat={}` is not a defined interval", heartbeat.text),
        )
        .help("use 1, 5, 10, 15, 20 or 9999");
    }
}
