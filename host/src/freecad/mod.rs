//! FreeCAD: finding it (`freecadcmd`, 0.20 or newer), launching it headless with
//! capstan's bridge (`bridges/freecad/`, embedded in the binary) inside the kernel's
//! wall, and what the generic host asks about it ([`unit`]).
//!
//! FreeCAD comes from the operating system's package manager (Debian and Ubuntu:
//! `apt-get install freecad`); capstan never installs it and never runs `sudo`.
//!
//! # Security reasoning of a launch
//!
//! The threat model is DESIGN §3a's: assume arbitrary native code runs inside FreeCAD
//! (OpenCASCADE reads and writes files from C++, and a STEP or FCStd file is parsed by
//! native code). FreeCAD has no "run this string" bridge command, but that narrows what
//! an agent can ask for, not what a malicious input file can make the process do, so
//! the wall is the kernel's and the same as Blender's ([`crate::containment`]):
//!
//! - **One instance, one folder** ([`crate::containment::instance`]): its own port
//!   (bound by capstan, handed over as a listening descriptor; the bridge binds
//!   nothing), its own `output/` and `tmp/`, and capstan's authoritative runtime record
//!   beside them, where the app cannot write.
//! - **Secrets through a pipe**: the bearer token reaches the bridge through an
//!   inherited descriptor, never the environment or the command line (both readable in
//!   `/proc` for the process's life). FreeCAD has no exec key.
//! - **Landlock** ([`crate::containment::grants`]): execute only the launched program
//!   (`freecadcmd`, symlinks resolved: Debian's `/usr/lib/freecad/bin/freecadcmd-python3`)
//!   and its ELF loader; read-only FreeCAD's installation (`/usr/lib/freecad`,
//!   `/usr/share/freecad`), the Python it embeds (its standard library and
//!   `dist-packages`), the read roots, and the bridge folder (materialised read-only,
//!   [`crate::bridge_code`]); read-write only the instance's `output/` and `tmp/`.
//!   One file outside the installation is read-only too: **`/etc/passwd`**. FreeCAD
//!   0.20 takes the user's home from `getpwuid` at start, whatever `$HOME` says, and
//!   crashes before running anything when the user database cannot be read (measured:
//!   SIGSEGV in `Py_EncodeLocale` after `EACCES` on `/etc/passwd`). The file is
//!   world-readable on every system and holds no secret (password hashes are in
//!   `/etc/shadow`, which stays denied, as does the rest of `/etc`); what the app reads
//!   can leave only through the bridge's answers, since it connects nowhere.
//!   FreeCAD writes its user configuration and caches under `$HOME`
//!   (`.config/FreeCAD`, `.cache/FreeCAD`, `.local/share/FreeCAD`): `HOME`,
//!   `XDG_CONFIG_HOME`, `XDG_CACHE_HOME`, `XDG_DATA_HOME` and `TMPDIR` all point into the
//!   instance's `tmp/` (`tmp/home`), which is removed when the instance stops, so no
//!   state carries over between instances and the user's own FreeCAD settings are
//!   neither read nor changed. The instance folder itself stays capstan's (not writable
//!   by the app: it holds the record with the token).
//! - **seccomp, dropped privileges, hard limits**: the same filter and order as every
//!   confined app ([`crate::containment::child`]); FreeCAD starts no process of its own
//!   in console mode, so the refusal of `fork`/`execve` costs nothing.
//! - **Lifetime**: the child gets `PR_SET_PDEATHSIG` (SIGTERM when capstan's launching
//!   thread dies) and its own process group; dropping the [`launch::RunningFreecad`]
//!   sends SIGTERM to the group, waits a grace period, then SIGKILLs the group, and
//!   removes capstan's runtime records. FreeCAD prints progress bars on stdout: its
//!   stdout and stderr go to a log file under `CAPSTAN_HOME/logs`, never to capstan's
//!   stdout (an MCP channel in `serve`), and nothing parses them.
//!
//! The bridge's own checks (plain file names in the output folder, inputs under the read
//! roots) explain refusals to an agent; the kernel is the backstop, tested alone in
//! `tests/freecad_unit.rs` by pointing the bridge's output folder outside its grants.

pub mod bridge_files;
pub mod cli;
pub mod launch;
pub mod locate;
pub mod unit;
