//! Test fixture: a minimal Windows executable, generated with `object`'s PE writer,
//! whose `.rsrc` section holds a `VS_VERSIONINFO` resource (type 16, id 1, language
//! 0x0409), laid out as the PE/COFF specification describes. No code runs from it;
//! only its headers and resource directory matter.

use object::pe;
use object::write::pe::{NtHeaders, Writer};

pub enum VersionResource {
    /// `FILEVERSION a,b,c,d`.
    Fixed([u16; 4]),
    /// No resource section at all.
    Absent,
}

pub fn executable(is_64: bool, resource: VersionResource) -> Vec<u8> {
    let mut out = Vec::new();
    let mut writer = Writer::new(is_64, 0x1000, 0x200, &mut out);
    writer.reserve_dos_header_and_stub();
    writer.reserve_nt_headers(pe::IMAGE_NUMBEROF_DIRECTORY_ENTRIES);
    let sections = match resource {
        VersionResource::Fixed(_) => 1,
        VersionResource::Absent => 0,
    };
    writer.reserve_section_headers(sections);
    let rsrc = match &resource {
        VersionResource::Fixed(_) => Some(writer.reserve_rsrc_section(RSRC_LEN as u32)),
        VersionResource::Absent => None,
    };
    writer.write_dos_header_and_stub().unwrap();
    writer.write_nt_headers(NtHeaders {
        machine: if is_64 { pe::IMAGE_FILE_MACHINE_AMD64 } else { pe::IMAGE_FILE_MACHINE_I386 },
        time_date_stamp: 0,
        characteristics: pe::IMAGE_FILE_EXECUTABLE_IMAGE | if is_64 { pe::IMAGE_FILE_LARGE_ADDRESS_AWARE } else { pe::IMAGE_FILE_32BIT_MACHINE },
        major_linker_version: 14,
        minor_linker_version: 0,
        address_of_entry_point: 0,
        image_base: if is_64 { 0x1_4000_0000 } else { 0x40_0000 },
        major_operating_system_version: 6,
        minor_operating_system_version: 0,
        major_image_version: 0,
        minor_image_version: 0,
        major_subsystem_version: 6,
        minor_subsystem_version: 0,
        subsystem: pe::IMAGE_SUBSYSTEM_WINDOWS_CUI,
        dll_characteristics: 0,
        size_of_stack_reserve: 0x10_0000,
        size_of_stack_commit: 0x1000,
        size_of_heap_reserve: 0x10_0000,
        size_of_heap_commit: 0x1000,
    });
    writer.write_section_headers();
    if let (Some(range), VersionResource::Fixed(version)) = (rsrc, resource) {
        writer.write_section(range.file_offset, &rsrc_section(range.virtual_address, version));
    }
    out
}

/// Three directory levels (type, name, language) of one entry each, one data entry,
/// then the VS_VERSIONINFO block.
const DIR_LEN: usize = 16 + 8;
const DATA_ENTRY_AT: usize = 3 * DIR_LEN;
const VERSION_AT: usize = DATA_ENTRY_AT + 16;
const VERSION_LEN: usize = 92;
const RSRC_LEN: usize = VERSION_AT + VERSION_LEN;

fn rsrc_section(section_rva: u32, version: [u16; 4]) -> Vec<u8> {
    let mut s = Vec::with_capacity(RSRC_LEN);
    let subdir = 0x8000_0000u32;
    for (id, next) in [(16u32, DIR_LEN as u32 | subdir), (1, (2 * DIR_LEN as u32) | subdir), (0x0409, DATA_ENTRY_AT as u32)] {
        s.extend_from_slice(&[0u8; 12]); // characteristics, timestamp, major/minor version
        s.extend_from_slice(&0u16.to_le_bytes()); // named entries
        s.extend_from_slice(&1u16.to_le_bytes()); // id entries
        s.extend_from_slice(&id.to_le_bytes());
        s.extend_from_slice(&next.to_le_bytes());
    }
    // IMAGE_RESOURCE_DATA_ENTRY: the data's RVA (not a section offset), size, code page.
    s.extend_from_slice(&(section_rva + VERSION_AT as u32).to_le_bytes());
    s.extend_from_slice(&(VERSION_LEN as u32).to_le_bytes());
    s.extend_from_slice(&[0u8; 8]);
    // VS_VERSIONINFO: wLength, wValueLength, wType, szKey, padding, VS_FIXEDFILEINFO.
    s.extend_from_slice(&(VERSION_LEN as u16).to_le_bytes());
    s.extend_from_slice(&52u16.to_le_bytes());
    s.extend_from_slice(&0u16.to_le_bytes());
    for unit in "VS_VERSION_INFO\0".encode_utf16() {
        s.extend_from_slice(&unit.to_le_bytes());
    }
    while !(s.len() - VERSION_AT).is_multiple_of(4) {
        s.push(0);
    }
    let [a, b, c, d] = version.map(u32::from);
    let ms = (a << 16) | b;
    let ls = (c << 16) | d;
    for dword in [0xFEEF_04BD, 0x0001_0000, ms, ls, ms, ls, 0x3f, 0, 0x0004_0004, 1, 0, 0, 0] {
        s.extend_from_slice(&u32::to_le_bytes(dword));
    }
    assert_eq!(s.len(), RSRC_LEN, "fixture layout");
    s
}
