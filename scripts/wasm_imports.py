#!/usr/bin/env python3
"""List the top-level imports of a WebAssembly component (names only), one per line.

A stand-in for `wasm-tools component wit` when only the import list is wanted: it
reads the component's import sections (id 10) and prints each import's name, e.g.
`wasi:cli/environment@0.2.6`. The host's own check is `host/src/plugin/abi.rs`; this
is for build scripts and reports.

Usage: wasm_imports.py COMPONENT.wasm
"""
import sys


def leb(buf, i):
    result = shift = 0
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return result, i


def name(buf, i):
    n, i = leb(buf, i)
    return buf[i:i + n].decode("utf-8"), i + n


def externdesc(buf, i):
    sort = buf[i]
    i += 1
    if sort == 0x00:  # core module: 0x11 typeidx
        i += 1
        _, i = leb(buf, i)
    elif sort in (0x01, 0x04, 0x05):  # func, component, instance: typeidx
        _, i = leb(buf, i)
    elif sort == 0x02:  # value: valtype
        if buf[i] == 0x00:
            _, i = leb(buf, i + 1)
        else:
            i += 1
    elif sort == 0x03:  # type: bound
        if buf[i] == 0x00:
            _, i = leb(buf, i + 1)
        else:
            i += 1
    else:
        raise ValueError(f"unknown externdesc sort {sort:#x}")
    return i


def imports(data):
    if data[:4] != b"\0asm" or data[4:8] != b"\x0d\x00\x01\x00":
        raise ValueError("not a WebAssembly component")
    out, i = [], 8
    while i < len(data):
        section, i = data[i], i + 1
        size, i = leb(data, i)
        end = i + size
        if section == 10:
            count, j = leb(data, i)
            for _ in range(count):
                tag, j = data[j], j + 1
                if tag not in (0x00, 0x01):
                    raise ValueError(f"unknown import name form {tag:#x}")
                n, j = name(data, j)
                j = externdesc(data, j)
                out.append(n)
        i = end
    return out


if __name__ == "__main__":
    with open(sys.argv[1], "rb") as f:
        for n in imports(f.read()):
            print(n)
