//! Small file helpers with the safety properties the host relies on.

use std::io::{self, Read};
use std::path::Path;

/// Read a whole file, refusing one larger than `max` bytes (without reading it all).
pub fn read_capped_bytes(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let mut buf = Vec::new();
    file.take(max + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is larger than {max} bytes", path.display()),
        ));
    }
    Ok(buf)
}

/// [`read_capped_bytes`] for UTF-8 text.
pub fn read_capped(path: &Path, max: u64) -> io::Result<String> {
    String::from_utf8(read_capped_bytes(path, max)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, format!("{} is not UTF-8", path.display())))
}

/// Lowercase hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}

/// Create `dir` (and parents) readable only by the owner where the OS has modes.
pub fn create_private_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)
    }
    #[cfg(not(unix))]
    {
        std::fs::create_dir_all(dir)
    }
}

/// Write `bytes` to `path` readable only by the owner, atomically: a reader sees the
/// old file or the whole new one, never a part (temp file in the same folder, then
/// rename; the temp file is created with mode 0600).
pub fn write_private_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let dir = path.parent().ok_or_else(|| io::Error::other("no parent folder"))?;
    create_private_dir(dir)?;
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}
