//! Shell completions: `rulebook completions SHELL`. The values an option takes are known to
//! clap (tools of `--as`, provider ids, `check` codes), so every shell completes them; in
//! bash the URLs of `read` and the names of `explain` are asked of `rulebook complete` as you
//! type.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};

/// A string argument whose known values shells complete. What the value means is checked
/// after parsing, with an error naming the known ones, as before: this parser only lists
/// them.
#[derive(Clone, Copy)]
pub(crate) struct Known(pub(crate) fn() -> Vec<String>);

impl TypedValueParser for Known {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new((self.0)().into_iter().map(PossibleValue::new)))
    }
}

/// `--as TOOL`: a tool id, with the ids listed for shells.
#[derive(Clone, Copy)]
pub(crate) struct HostParser;

impl TypedValueParser for HostParser {
    type Value = rulebook::Host;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<rulebook::Host, clap::Error> {
        let id = StringValueParser::new().parse_ref(cmd, arg, value)?;
        rulebook::tool(&id).ok_or_else(|| {
            clap::Error::raw(
                clap::error::ErrorKind::InvalidValue,
                format!(
                    "unknown tool `{id}` for --as: use one of {}\n",
                    hosts().join(", ")
                ),
            )
            .with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(hosts().into_iter().map(PossibleValue::new)))
    }
}

/// The ids of the tools `--as` emulates.
pub(crate) fn hosts() -> Vec<String> {
    rulebook::tools()
        .iter()
        .map(|h| h.id().to_owned())
        .collect()
}

/// The help of `--as`: the tools of the table, those checked against the real tool first.
pub(crate) fn as_help() -> String {
    let ids = |verified: bool| {
        rulebook::tools()
            .iter()
            .filter(|h| h.verified() == verified)
            .map(|h| h.id())
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "Answer as one real tool would load the rules here (list, explain, prompt, match, check): {} (checked against the real tools), or {} (documented, not verified: editors and apps that cannot run here, a tool whose package fetches its binary at install, or whose server decides what is read)",
        ids(true),
        ids(false)
    )
}

/// The ids of the default providers.
pub(crate) fn providers() -> Vec<String> {
    rulebook::Options::new()
        .registry()
        .infos()
        .into_iter()
        .map(|i| i.id)
        .collect()
}

/// The codes `check --select` and `--ignore` take.
pub(crate) fn codes() -> Vec<String> {
    rulebook::DiagnosticCode::ALL
        .iter()
        .map(|c| c.as_str().to_owned())
        .collect()
}

/// The bash functions that complete what `read` and `explain` accept, asked of `rulebook
/// complete` in the directory (with the `-C/--cwd`, `--home`, `--profile`, `--root` given
/// on the line so far):
/// - `read` takes a URL: each `rule://` URL as `read` resolves it (percent-encoded, so
///   `rule://API%20Style`), whether the word typed so far starts with `rule://` or is the
///   start of a name;
/// - `explain` takes a name as written (`packages:api:AGENTS`, `API Style`): each name
///   quoted for the shell.
///
/// Bash splits words at `:` (`rule://a`, `src:routes:x`), so what the word holds up to its
/// last `:` is taken off each candidate, as bash-completion's `__ltrim_colon_completions`
/// does.
const BASH_NAMES: &str = r#"
_rulebook_complete_from() {
    local what="$1"
    local line="${COMP_LINE:0:COMP_POINT}"
    local word="${line##*[[:space:]]}"
    local -a pass=()
    local i
    for (( i = 1; i < COMP_CWORD; i++ )); do
        case "${COMP_WORDS[i]}" in
            -C|--cwd|--home|--profile|--root)
                pass+=("${COMP_WORDS[i]}" "${COMP_WORDS[i+1]}")
                ;;
        esac
    done
    COMPREPLY=()
    local candidate
    if [[ "${what}" == urls ]]; then
        while IFS=$'\t' read -r candidate _; do
            if [[ -n "${candidate}" && ( "${candidate}" == "${word}"* || "${candidate#rule://}" == "${word}"* ) ]]; then
                COMPREPLY+=("${candidate}")
            fi
        done < <(command rulebook "${pass[@]}" complete 2>/dev/null)
    else
        while IFS= read -r candidate; do
            if [[ -n "${candidate}" && "${candidate}" == "${word}"* ]]; then
                COMPREPLY+=("$(printf '%q' "${candidate}")")
            fi
        done < <(command rulebook "${pass[@]}" complete --names 2>/dev/null)
    fi
    if [[ "${word}" == *:* ]]; then
        local colon="${word%"${word##*:}"}"
        local j
        for j in "${!COMPREPLY[@]}"; do
            COMPREPLY[j]="${COMPREPLY[j]#"${colon}"}"
        done
    fi
}
"#;

/// The completion script for `shell`.
pub(crate) fn script(shell: clap_complete::Shell, command: &mut clap::Command) -> Vec<u8> {
    let mut out = Vec::new();
    clap_complete::generate(shell, command, "rulebook", &mut out);
    if shell != clap_complete::Shell::Bash {
        return out;
    }
    let text = String::from_utf8_lossy(&out).into_owned();
    let mut text = names_for(&text, "rulebook__subcmd__read", "urls");
    text = names_for(&text, "rulebook__subcmd__explain", "names");
    text.push_str(BASH_NAMES);
    text.into_bytes()
}

/// In the case block of `subcommand`, a word that is no option completes `what` (`urls`
/// or `names`).
fn names_for(text: &str, subcommand: &str, what: &str) -> String {
    let start_marker = format!("\n        {subcommand})\n");
    let Some(start) = text.find(&start_marker) else {
        return text.to_owned();
    };
    let end = text[start..]
        .find("\n            ;;\n")
        .map_or(text.len(), |e| start + e);
    let block = &text[start..end];
    let block = block
        .replace(
            "if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then",
            "if [[ ${cur} == -* ]] ; then",
        )
        .replace(
            "            esac\n            COMPREPLY=( $(compgen -W \"${opts}\" -- \"${cur}\") )\n            return 0",
            &format!("            esac\n            _rulebook_complete_from {what}\n            return 0"),
        );
    format!("{}{block}{}", &text[..start], &text[end..])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bash script completes the known values of `--as`, `--providers` and `check
    /// --select`, and asks `rulebook complete` for the names of `read` and `explain`.
    #[test]
    fn bash_completes_values_and_rule_names() {
        let script = String::from_utf8(script(clap_complete::Shell::Bash, &mut crate::command()))
            .unwrap_or_default();
        let after = |option: &str| {
            let at = script
                .find(&format!("                {option})\n"))
                .unwrap_or(0);
            script[at..].lines().nth(1).unwrap_or_default().to_owned()
        };
        assert!(
            after("--as").contains("codex claude gemini"),
            "{}",
            after("--as")
        );
        assert!(
            after("--providers").contains("cursor"),
            "{}",
            after("--providers")
        );
        assert!(
            after("--select").contains("yaml-syntax"),
            "{}",
            after("--select")
        );
        for (sub, what) in [("read", "urls"), ("explain", "names")] {
            let at = script
                .find(&format!("        rulebook__subcmd__{sub})\n"))
                .unwrap_or(0);
            let block = &script[at..at + script[at..].find("\n            ;;\n").unwrap_or(0)];
            assert!(
                block.contains(&format!("_rulebook_complete_from {what}")),
                "{sub}: {block}"
            );
        }
        assert!(script.contains("command rulebook \"${pass[@]}\" complete 2>"));
        assert!(script.contains("command rulebook \"${pass[@]}\" complete --names"));
    }
}
