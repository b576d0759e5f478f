//! The JSON schemas of the tools' arguments and results, written out: they are the
//! contract a client validates `structuredContent` against (the official Python SDK does),
//! so they are checked by the end-to-end test, not derived.

use std::sync::Arc;

use rmcp::model::JsonObject;
use serde_json::{Value, json};

fn object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

fn nullable_string() -> Value {
    json!({"type": ["string", "null"]})
}

fn finding() -> Value {
    json!({
        "type": "object",
        "required": ["severity", "code", "message"],
        "properties": {
            "severity": {"type": "string", "enum": ["error", "warning", "info"]},
            "code": {"type": "string"},
            "path": {"type": "string"},
            "line": {"type": "integer"},
            "message": {"type": "string"}
        }
    })
}

/// `rules_for_paths` arguments.
pub(crate) fn rules_for_paths_input() -> Arc<JsonObject> {
    object(json!({
        "type": "object",
        "required": ["paths"],
        "additionalProperties": false,
        "properties": {
            "paths": {
                "type": "array",
                "items": {"type": "string"},
                "maxItems": crate::view::MAX_PATHS,
                "description": "Files in play, relative to the project directory (or absolute under it)."
            }
        }
    }))
}

/// One rule of a `rules_for_paths` answer.
fn applied_rule() -> Value {
    json!({
        "type": "object",
        "required": ["name", "by", "bucket", "provider", "path"],
        "properties": {
            "name": {"type": "string"},
            "by": {"type": "string", "enum": ["always-apply", "glob"]},
            "glob": {"type": "string"},
            "scope": {"type": "string"},
            "bucket": nullable_string(),
            "provider": {"type": "string"},
            "path": {"type": "string"},
            "uri": {"type": "string"}
        }
    })
}

/// `rules_for_paths` result.
pub(crate) fn rules_for_paths_output() -> Arc<JsonObject> {
    object(json!({
        "type": "object",
        "required": ["profile", "always_apply", "paths"],
        "properties": {
            "profile": {"type": "string", "enum": ["extended", "reference"]},
            "cut": {
                "type": "object",
                "required": ["paths_answered", "paths_asked", "reason"],
                "properties": {
                    "paths_answered": {"type": "integer"},
                    "paths_asked": {"type": "integer"},
                    "reason": {"type": "string"}
                }
            },
            "always_apply": {"type": "array", "items": applied_rule()},
            "paths": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["path", "inside_project", "rules"],
                    "properties": {
                        "path": {"type": "string"},
                        "inside_project": {"type": "boolean"},
                        "rules": {"type": "array", "items": applied_rule()}
                    }
                }
            }
        }
    }))
}

/// `explain` arguments.
pub(crate) fn explain_input() -> Arc<JsonObject> {
    object(json!({
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "name": {"type": "string", "description": "Only the files of the rule of this name."}
        }
    }))
}

/// `explain` result.
pub(crate) fn explain_output() -> Arc<JsonObject> {
    object(json!({
        "type": "object",
        "required": ["profile", "rules", "warnings"],
        "properties": {
            "profile": {"type": "string", "enum": ["extended", "reference"]},
            "rules": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "provider", "level", "path", "status", "bucket", "globs"],
                    "properties": {
                        "name": {"type": "string"},
                        "provider": {"type": "string"},
                        "level": {"type": "string", "enum": ["project", "user"]},
                        "path": {"type": "string"},
                        "status": {"type": "string", "enum": ["active", "shadowed", "invalid"]},
                        "bucket": nullable_string(),
                        "reason": {"type": "string"},
                        "scope": {"type": "string"},
                        "globs": {"type": "array", "items": {"type": "string"}},
                        "description": {"type": "string"}
                    }
                }
            },
            "warnings": {"type": "array", "items": finding()}
        }
    }))
}

/// `check` arguments: none.
pub(crate) fn check_input() -> Arc<JsonObject> {
    object(json!({"type": "object", "additionalProperties": false, "properties": {}}))
}

/// `check` result.
pub(crate) fn check_output() -> Arc<JsonObject> {
    object(json!({
        "type": "object",
        "required": ["failed", "errors", "warnings", "infos", "findings"],
        "properties": {
            "failed": {"type": "boolean"},
            "errors": {"type": "integer"},
            "warnings": {"type": "integer"},
            "infos": {"type": "integer"},
            "findings": {"type": "array", "items": finding()}
        }
    }))
}
