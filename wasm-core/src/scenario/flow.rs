//! A flow of any transport, and what every flow has (bytes, start, ends, label).

use super::{ArqFlow, CtcpFlow, CtcpVariant, IntcpFlow, TcpFlow};
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// Declares an end-to-end flow's struct with the fields it ends with: its sender's and receiver's
/// nodes and its label, the same for TCP, CTCP and ARQ. A shared struct under serde's `flatten`
/// would say this once too, but `flatten` does not work with `deny_unknown_fields`.
macro_rules! flow_with_ends {
    ($(#[$attr:meta])* $vis:vis struct $name:ident { $($fields:tt)* }) => {
        $(#[$attr])*
        $vis struct $name {
            $($fields)*
            /// Sender node (default 0) and receiver node (default the last).
            #[serde(default)]
            pub from_node: Option<u32>,
            #[serde(default)]
            pub to_node: Option<u32>,
            /// A name for charts and tables.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub label: Option<String>,
        }
    };
}

// Read by hand (`tagged.rs`), written and described by the derives. A plain comment: a doc
// comment would become the type's description in the JSON Schema and the generated types.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(tag = "transport", rename_all = "snake_case")]
pub enum Flow {
    Tcp(TcpFlow),
    /// Network-coded TCP (docs/ctcp.md).
    Ctcp(CtcpFlow),
    /// INTCP: information-centric hop-by-hop transport with per-hop caches (docs/intcp-protocol.md).
    Intcp(IntcpFlow),
    /// Stop-and-wait, go-back-N or selective repeat over a fixed window (docs/arq.md).
    Arq(ArqFlow),
}

impl<'de> Deserialize<'de> for Flow {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Flow, D::Error> {
        let (transport, content) =
            super::tagged::split_tag(Value::deserialize(d)?, "transport", &["tcp", "ctcp", "intcp", "arq"])?;
        match transport.as_str() {
            "tcp" => super::tagged::variant(&content).map(Flow::Tcp),
            "ctcp" => super::tagged::variant(&content).map(Flow::Ctcp),
            "arq" => super::tagged::variant(&content).map(Flow::Arq),
            _ => super::tagged::variant(&content).map(Flow::Intcp),
        }
    }
}

impl Flow {
    pub fn transport(&self) -> &'static str {
        match self {
            Flow::Tcp(_) => "tcp",
            Flow::Ctcp(_) => "ctcp",
            Flow::Intcp(_) => "intcp",
            Flow::Arq(_) => "arq",
        }
    }
    /// The congestion control's name as results report it.
    pub fn cc_name(&self) -> &'static str {
        match self {
            Flow::Tcp(t) => t.cc.name(),
            Flow::Ctcp(c) => match c.variant {
                CtcpVariant::V1 => "ctcp-v1",
                CtcpVariant::V2 => "ctcp-v2",
            },
            Flow::Intcp(i) => {
                if i.cache {
                    "intcp"
                } else {
                    "intcp-uni"
                }
            }
            Flow::Arq(a) => a.mode.name(),
        }
    }
    pub fn bytes(&self) -> Option<u64> {
        match self {
            Flow::Tcp(t) => t.bytes,
            Flow::Ctcp(c) => c.bytes,
            Flow::Intcp(i) => i.bytes,
            Flow::Arq(a) => a.bytes,
        }
    }
    pub fn start_s(&self) -> f64 {
        match self {
            Flow::Tcp(t) => t.start_s,
            Flow::Ctcp(c) => c.start_s,
            Flow::Intcp(i) => i.start_s,
            Flow::Arq(a) => a.start_s,
        }
    }
    pub fn nodes(&self) -> (Option<u32>, Option<u32>) {
        match self {
            Flow::Tcp(t) => (t.from_node, t.to_node),
            Flow::Ctcp(c) => (c.from_node, c.to_node),
            Flow::Intcp(i) => (i.from_node, i.to_node),
            Flow::Arq(a) => (a.from_node, a.to_node),
        }
    }
    pub fn label(&self) -> Option<&String> {
        match self {
            Flow::Tcp(t) => t.label.as_ref(),
            Flow::Ctcp(c) => c.label.as_ref(),
            Flow::Intcp(i) => i.label.as_ref(),
            Flow::Arq(a) => a.label.as_ref(),
        }
    }
}
