//! A ZIP archive writer of stored (uncompressed) entries, enough for a Codabench competition
//! bundle: UTF-8 names, fixed timestamps (the same bytes for the same files), Unix modes in
//! the central directory (`unzip` keeps a program's executable bit; Python's `zipfile`, which
//! Codabench uses, ignores it). No ZIP64: an archive over 4 GiB or 65,535 entries is refused.
//!
//! Written from the format's description (APPNOTE.TXT, sections 4.3.7, 4.3.12 and 4.3.16): a
//! local header and the data per entry, then the central directory and its end record.

use std::path::Path;

use crate::error::{Error, Result};

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut t = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                k += 1;
            }
            t[i] = c;
            i += 1;
        }
        t
    };
    let mut c = !0u32;
    for &b in bytes {
        c = TABLE[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8);
    }
    !c
}

/// An archive being written in memory.
#[derive(Debug, Default)]
pub struct ZipWriter {
    data: Vec<u8>,
    central: Vec<u8>,
    entries: u16,
    names: std::collections::BTreeSet<String>,
}

/// 1980-01-01 00:00 in MS-DOS form (the earliest a ZIP can say): every entry has it.
const DOS_DATE: u16 = (1 << 5) | 1;
const DOS_TIME: u16 = 0;
/// Version 2.0 needed; made by Unix (3) with 2.0.
const NEEDED: u16 = 20;
const MADE_BY: u16 = (3 << 8) | 20;
/// General purpose flag bit 11: names are UTF-8.
const UTF8: u16 = 1 << 11;

fn u16le(v: &mut Vec<u8>, x: u16) {
    v.extend_from_slice(&x.to_le_bytes());
}

fn u32le(v: &mut Vec<u8>, x: u32) {
    v.extend_from_slice(&x.to_le_bytes());
}

impl ZipWriter {
    /// An empty archive.
    pub fn new() -> Self {
        ZipWriter::default()
    }

    /// Adds a file named `name` (`/`-separated, relative, no `..`) with `bytes`; `executable`
    /// gives it mode 755 (else 644).
    pub fn add(&mut self, name: &str, bytes: &[u8], executable: bool) -> Result<()> {
        let bad = |m: String| Error::usage(format!("zip entry {name:?}: {m}"));
        if name.is_empty()
            || name.starts_with('/')
            || name.contains('\\')
            || name
                .split('/')
                .any(|p| p.is_empty() || p == "." || p == "..")
        {
            return Err(bad("not a relative path of plain names".into()));
        }
        if !self.names.insert(name.to_string()) {
            return Err(bad("added twice".into()));
        }
        let too_big = || bad("the archive would pass 4 GiB (ZIP64 is not written)".into());
        let size = u32::try_from(bytes.len()).map_err(|_| too_big())?;
        let name_len = u16::try_from(name.len()).map_err(|_| bad("name too long".into()))?;
        let offset = u32::try_from(self.data.len()).map_err(|_| too_big())?;
        self.entries = self
            .entries
            .checked_add(1)
            .filter(|&n| n < u16::MAX)
            .ok_or_else(|| bad("more than 65,534 entries".into()))?;
        let crc = crc32(bytes);
        // Local file header (4.3.7).
        let d = &mut self.data;
        u32le(d, 0x0403_4b50);
        u16le(d, NEEDED);
        u16le(d, UTF8);
        u16le(d, 0); // stored
        u16le(d, DOS_TIME);
        u16le(d, DOS_DATE);
        u32le(d, crc);
        u32le(d, size);
        u32le(d, size);
        u16le(d, name_len);
        u16le(d, 0);
        d.extend_from_slice(name.as_bytes());
        d.extend_from_slice(bytes);
        if u32::try_from(d.len()).is_err() {
            return Err(too_big());
        }
        // Central directory header (4.3.12).
        let mode: u32 = if executable { 0o100_755 } else { 0o100_644 };
        let c = &mut self.central;
        u32le(c, 0x0201_4b50);
        u16le(c, MADE_BY);
        u16le(c, NEEDED);
        u16le(c, UTF8);
        u16le(c, 0);
        u16le(c, DOS_TIME);
        u16le(c, DOS_DATE);
        u32le(c, crc);
        u32le(c, size);
        u32le(c, size);
        u16le(c, name_len);
        u16le(c, 0); // extra
        u16le(c, 0); // comment
        u16le(c, 0); // disk
        u16le(c, 0); // internal attributes
        u32le(c, mode << 16);
        u32le(c, offset);
        c.extend_from_slice(name.as_bytes());
        Ok(())
    }

    /// The archive's bytes: the entries, the central directory and its end record (4.3.16).
    pub fn finish(mut self, path: &Path) -> Result<Vec<u8>> {
        let too_big = || Error::output(path, "the archive would pass 4 GiB (ZIP64 is not written)");
        let cd_offset = u32::try_from(self.data.len()).map_err(|_| too_big())?;
        let cd_size = u32::try_from(self.central.len()).map_err(|_| too_big())?;
        self.data.append(&mut self.central);
        if u32::try_from(self.data.len()).is_err() {
            return Err(too_big());
        }
        let d = &mut self.data;
        u32le(d, 0x0605_4b50);
        u16le(d, 0);
        u16le(d, 0);
        u16le(d, self.entries);
        u16le(d, self.entries);
        u32le(d, cd_size);
        u32le(d, cd_offset);
        u16le(d, 0);
        Ok(self.data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_of_the_check_string() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn names_must_be_plain_relative_paths() {
        let mut z = ZipWriter::new();
        for bad in ["", "/a", "a/../b", "a//b", "a\\b", "./a"] {
            assert!(z.add(bad, b"x", false).is_err(), "{bad}");
        }
        assert!(z.add("a/b.txt", b"x", false).is_ok());
        assert!(z.add("a/b.txt", b"y", false).is_err());
    }
}
