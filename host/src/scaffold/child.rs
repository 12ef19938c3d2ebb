//! Running a compiler (cargo, componentize-py, componentize-js, pip, npm) for `packs
//! build`: its output streamed to our stderr (stdout is for the result and `--json`)
//! under a spinner on a terminal, the last lines kept for the error.

use super::build::BuildError;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, IsTerminal};
use std::process::{Command, Stdio};

/// Lines of a tool's output kept for the error (all of it was streamed already).
const TAIL_LINES: usize = 30;

/// Run `cmd` to completion; `tool` names it in errors, `message` beside the spinner.
pub fn run(mut cmd: Command, tool: &str, message: &str) -> Result<(), BuildError> {
    let terminal = std::io::stderr().is_terminal();
    cmd.stdin(Stdio::null()).stdout(Stdio::from(std::io::stderr())).stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| BuildError::ToolNotRun { tool: tool.to_string(), detail: e.to_string() })?;
    let spinner = terminal.then(|| {
        let bar = indicatif::ProgressBar::new_spinner().with_message(message.to_string());
        bar.set_style(indicatif::ProgressStyle::with_template("{spinner} {msg} [{elapsed}]").expect("a valid template"));
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        bar
    });
    if spinner.is_none() {
        eprintln!("{message}");
    }
    let mut tail: VecDeque<String> = VecDeque::new();
    if let Some(stderr) = child.stderr.take() {
        for line in BufReader::new(stderr).split(b'\n').map_while(Result::ok) {
            let line = String::from_utf8_lossy(&line).trim_end_matches('\r').to_string();
            match &spinner {
                Some(bar) => bar.println(&line),
                None => eprintln!("{line}"),
            }
            if tail.len() == TAIL_LINES {
                tail.pop_front();
            }
            tail.push_back(line);
        }
    }
    let status = child.wait().map_err(|e| BuildError::ToolNotRun { tool: tool.to_string(), detail: e.to_string() })?;
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    if !status.success() {
        let tail: Vec<String> = tail.into_iter().map(|l| strip_ansi(&l)).collect();
        return Err(BuildError::ToolFailed { tool: tool.to_string(), exit_code: status.code(), tail: tail.join("\n") });
    }
    Ok(())
}

/// Colour codes out of a line kept for an error message.
pub fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_codes_leave_a_kept_line() {
        assert_eq!(strip_ansi("\u{1b}[1m\u{1b}[31merror\u{1b}[0m: x"), "error: x");
    }

    #[test]
    fn a_failing_tool_keeps_its_last_lines_and_exit_code() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "for i in $(seq 1 40); do echo line$i >&2; done; exit 3"]);
        let BuildError::ToolFailed { tool, exit_code, tail } = run(cmd, "sh", "testing").unwrap_err() else { panic!("not ToolFailed") };
        assert_eq!((tool.as_str(), exit_code), ("sh", Some(3)));
        assert_eq!(tail.lines().count(), TAIL_LINES);
        assert!(tail.starts_with("line11\n") && tail.ends_with("line40"), "{tail}");
        let missing = run(Command::new("/nonexistent/tool"), "nope", "testing").unwrap_err();
        assert_eq!(missing.code(), "tool_not_run");
    }
}
