//! How a command ends, as its exit status tells it: one enum for every
//! command and both front ends.
//!
//! | status | [`Exit`] | when |
//! |---|---|---|
//! | 0 | `Clean` | the run found nothing (`compare`: the two sets agree) |
//! | 1 | `Findings` | failures were found (`compare`: the sets differ) |
//! | 2 | `BadInput` | the command line, a config file or a subject name is wrong |
//! | 2 | `Fault` | the run could not go on: a smallscope bug, a worker that cannot start, a file that cannot be written |
//! | 128 + n | `Signal(n)` | signal `n` stopped the run (130 Ctrl-C, 143 SIGTERM); what it found is kept |
//!
//! Bad input and a fault share status 2, as they did before this type
//! existed; the message tells them apart (a fault asks to be reported).

use std::process::ExitCode;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Clean,
    Findings,
    BadInput,
    Fault,
    Signal(i32),
}

impl Exit {
    /// The exit status.
    pub fn code(self) -> u8 {
        match self {
            Exit::Clean => 0,
            Exit::Findings => 1,
            Exit::BadInput | Exit::Fault => 2,
            Exit::Signal(signal) => (128 + signal).clamp(0, 255) as u8,
        }
    }

    /// `Findings` when `found`, else `Clean`.
    pub fn found(found: bool) -> Exit {
        if found {
            Exit::Findings
        } else {
            Exit::Clean
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit.code())
    }
}

#[cfg(test)]
mod tests {
    use super::Exit;

    #[test]
    fn statuses_are_the_documented_ones() {
        let statuses: Vec<u8> =
            [Exit::Clean, Exit::Findings, Exit::BadInput, Exit::Fault, Exit::Signal(2), Exit::Signal(15)]
                .map(Exit::code)
                .into();
        assert_eq!(statuses, [0, 1, 2, 2, 130, 143]);
        assert_eq!((Exit::found(true), Exit::found(false)), (Exit::Findings, Exit::Clean));
    }
}
