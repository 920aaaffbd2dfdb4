//! Rendering diagnostics for people (ariadne) and machines (JSON, concise).
