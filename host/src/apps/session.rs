//! Does capstan run inside a graphical login session? (`requires.interactive_session`)
//!
//! Linux: a readable login session id (`/proc/self/sessionid`, or `XDG_SESSION_ID`)
//! and the user's runtime directory (`XDG_RUNTIME_DIR`) must both exist; a system
//! service has neither. Windows: the process's terminal-services session must not be 0,
//! the services session, where no desktop is ever shown. macOS: yes (DESIGN.md
//! section 7).

/// Ok, or why not.
pub fn interactive() -> Result<(), String> {
    #[cfg(target_os = "linux")]
    {
        let session = std::fs::read_to_string("/proc/self/sessionid").ok().map(|s| s.trim().to_string()).filter(|s| s != "4294967295" && !s.is_empty());
        let session = session.or_else(|| std::env::var("XDG_SESSION_ID").ok().filter(|s| !s.is_empty()));
        let runtime_dir = std::env::var_os("XDG_RUNTIME_DIR").map(std::path::PathBuf::from).filter(|d| d.is_dir());
        match (session, runtime_dir) {
            (Some(_), Some(_)) => Ok(()),
            (None, _) => Err("no login session id (running as a service, or outside a login)".into()),
            (_, None) => Err("no user runtime directory (XDG_RUNTIME_DIR is unset or missing)".into()),
        }
    }
    #[cfg(windows)]
    {
        use windows_sys::Win32::System::RemoteDesktop::ProcessIdToSessionId;
        use windows_sys::Win32::System::Threading::GetCurrentProcessId;
        let mut session = 0u32;
        // SAFETY: both calls only read this process's identity; `session` is a valid
        // out-pointer for the duration of the call.
        let ok = unsafe { ProcessIdToSessionId(GetCurrentProcessId(), &mut session) } != 0;
        match (ok, session) {
            (false, _) => Err("cannot read this process's session id".into()),
            (true, 0) => Err("running in session 0, the services session (no desktop)".into()),
            (true, _) => Ok(()),
        }
    }
    #[cfg(not(any(target_os = "linux", windows)))]
    {
        Ok(())
    }
}
