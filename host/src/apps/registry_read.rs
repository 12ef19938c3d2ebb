//! The `uninstall_registry` version source, reading half (Windows only): the
//! uninstall entries under HKLM (64- and 32-bit views) and HKCU, as
//! `registry_match::UninstallEntry` values for the matching half.
//!
//! Only values are read (`DisplayName`, `DisplayVersion`, `InstallLocation`); keys
//! that cannot be opened or values of the wrong type are skipped, never fatal: one
//! broken installer entry must not hide a good one.

use super::registry_match::UninstallEntry;
use winreg::RegKey;
use winreg::enums::{HKEY_CURRENT_USER, HKEY_LOCAL_MACHINE, KEY_READ, KEY_WOW64_32KEY, KEY_WOW64_64KEY};

const UNINSTALL: &str = r"Software\Microsoft\Windows\CurrentVersion\Uninstall";

pub fn uninstall_entries() -> Vec<UninstallEntry> {
    let views = [
        (HKEY_LOCAL_MACHINE, KEY_READ | KEY_WOW64_64KEY),
        (HKEY_LOCAL_MACHINE, KEY_READ | KEY_WOW64_32KEY),
        (HKEY_CURRENT_USER, KEY_READ),
    ];
    let mut entries = Vec::new();
    for (root, flags) in views {
        let Ok(uninstall) = RegKey::predef(root).open_subkey_with_flags(UNINSTALL, flags) else { continue };
        for name in uninstall.enum_keys().flatten() {
            let Ok(key) = uninstall.open_subkey_with_flags(&name, flags) else { continue };
            let Ok(display_name) = key.get_value::<String, _>("DisplayName") else { continue };
            entries.push(UninstallEntry {
                display_name,
                display_version: key.get_value("DisplayVersion").ok(),
                install_location: key.get_value("InstallLocation").ok(),
            });
        }
    }
    entries
}
