#!/usr/bin/env python3
"""What adding an app unit touches, shown by taking it out (issue 31's acceptance:
"adding FreeCAD touched no generic host file outside the registration list, as the
diff by folder shows").

    python3 scripts/app_unit_diff.py [--unit freecad] [--keep]

The commit that added FreeCAD also carried app-neutral changes to the generic host and
unrelated work, so its own diff cannot show the claim. This script shows it for the
code as it is now (the committed tree, HEAD; uncommitted changes are not in it):

1. Two copies of the committed tree (`git archive HEAD`): "with" is the tree as it is;
   "without" has the unit taken out: its folder under `host/src`, its lines in the
   registration list (`host/src/app_units.rs`), its bridge (`bridges/<unit>`), its
   generated client (`sdk/<unit>`), its packs (`capability-packs/<unit>-*`, and their
   workspace members), its own tests (`host/tests/<unit>_*.rs`) and the official
   workflows that use it (`host/workflows/*.json` naming it, and `host/tests/<stem>.rs`
   of each). The table printed is that list, by folder: by itself it proves nothing.
2. What does prove it, in the "without" tree:
   - the host builds (`cargo build -p capstan --lib --bins`, official packs skipped:
     they are data the host embeds, not code it links), so no generic file uses the
     unit's code;
   - the app-neutral test passes there (no `.rs` file under `host/src` outside the
     units' folders and the registration list names an app outside a comment);
   - the host's code and data (`host/src`, `host/workflows`, `host/build.rs`,
     `host/build/`, `host/Cargo.toml`; documentation aside) do not name the unit at
     all outside `//` comments.
   A generic host file that needed the unit would fail one of the three.
3. It also lists the other host tests that name the unit (tests of behaviour across two
   apps use it as the second one); they are tests, not host code, and are not compiled
   in the "without" tree.

Exit 0 when the claim holds, 1 when it does not, 2 on a usage or environment error.
Takes a few minutes: the host is compiled once more, in a target folder of its own
under the temporary folder (removed at the end unless --keep). The other host tests
are not compiled in the "without" tree.
"""

import argparse
import difflib
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REGISTRATION_LIST = Path("host/src/app_units.rs")


def run(cmd, cwd, env=None):
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, cwd=cwd, env=env).returncode


def export_tree(dest):
    dest.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "HEAD"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)


def camel(unit):
    return unit[:1].upper() + unit[1:]


def strip_registration(text, unit):
    """The registration list without the unit: its module lines, its entries in the two
    lists and its subcommand (the variant with its doc comment, and its match arm)."""
    variant = camel(unit)
    out, doc, skipping = [], [], False
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if skipping:
            if stripped == "},":
                skipping = False
            continue
        if stripped in (f'#[path = "{unit}/mod.rs"]', f"pub mod {unit};"):
            continue
        if stripped.startswith("///"):
            doc.append(line)
            continue
        if re.match(rf"{variant}\s*(\{{|\()", stripped):
            doc, skipping = [], not stripped.endswith("),")
            continue
        if f"AppCommand::{variant} " in line or f"AppCommand::{variant}(" in line:
            continue
        line = re.sub(rf',\s*"{unit}"', "", line)
        line = re.sub(rf",\s*&{unit}::[A-Za-z_:]+", "", line)
        out.extend(doc)
        doc = []
        out.append(line)
    out.extend(doc)
    return "".join(out)


def take_out(tree, unit):
    shutil.rmtree(tree / "host/src" / unit)
    for folder in [tree / "bridges" / unit, tree / "sdk" / unit]:
        if folder.exists():
            shutil.rmtree(folder)
    packs = sorted((tree / "capability-packs").glob(f"{unit}-*"))
    for pack in packs:
        shutil.rmtree(pack)
    for test in (tree / "host/tests").glob(f"{unit}_*.rs"):
        test.unlink()
    # A workflow that uses the unit goes with it, and its test (named for the file).
    for workflow in sorted((tree / "host/workflows").glob("*.json")):
        if unit in workflow.read_text().lower():
            workflow.unlink()
            (tree / "host/tests" / (workflow.stem + ".rs")).unlink(missing_ok=True)
    reg = tree / REGISTRATION_LIST
    before = reg.read_text()
    after = strip_registration(before, unit)
    if re.search(rf"\b{unit}\b", after, re.IGNORECASE):
        left = [l for l in after.splitlines() if re.search(rf"\b{unit}\b", l, re.IGNORECASE) and not l.strip().startswith("//")]
        if left:
            print(f"app_unit_diff: could not take {unit} out of {REGISTRATION_LIST}; still there: {left}", file=sys.stderr)
            raise SystemExit(2)
    reg.write_text(after)
    manifest = tree / "Cargo.toml"
    members = [f'"sdk/{unit}"'] + [f'"capability-packs/{p.name}"' for p in packs]
    lines = [l for l in manifest.read_text().splitlines(keepends=True) if l.strip().rstrip(",") not in members]
    manifest.write_text("".join(lines))


HOST_CODE_AND_DATA = ("host/src", "host/workflows", "host/build.rs", "host/build", "host/Cargo.toml")


def names_left(tree, unit, roots=HOST_CODE_AND_DATA):
    """`file:line: text` for every line of the host's code and data in `tree` that
    names the unit outside a `//` comment (a line's text after `//` is not read; the
    app-neutral test reads `host/src` more carefully, strings and block comments too)."""
    pattern = re.compile(re.escape(unit), re.IGNORECASE)
    out = []
    for root in roots:
        base = tree / root
        paths = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file()) if base.exists() else []
        for path in paths:
            if path.suffix == ".md":  # documentation may name any application
                continue
            try:
                text = path.read_text()
            except (UnicodeDecodeError, OSError):
                continue
            for n, line in enumerate(text.splitlines(), 1):
                code = line.split("//", 1)[0] if path.suffix == ".rs" else line
                if pattern.search(code):
                    out.append(f"{path.relative_to(tree)}:{n}: {line.strip()}")
    return out


def files(root):
    return {p.relative_to(root) for p in root.rglob("*") if p.is_file() and "target" not in p.relative_to(root).parts[:1]}


def folder_of(path):
    parts = path.parts
    if parts[:2] == ("host", "src") and len(parts) == 3:
        return str(path)
    if parts[:2] == ("host", "src") and len(parts) > 3:
        return "/".join(parts[:3]) + "/"
    if len(parts) > 2:
        return "/".join(parts[:2]) + "/"
    return str(path)


def differing(with_tree, without_tree):
    """(path, how) for every file the two trees do not share byte for byte."""
    ours, theirs = files(with_tree), files(without_tree)
    out = [(p, "added") for p in ours - theirs] + [(p, "removed") for p in theirs - ours]
    out += [(p, "changed") for p in ours & theirs if not filecmp.cmp(with_tree / p, without_tree / p, shallow=False)]
    return sorted(out)


def by_folder(diffs):
    rows = defaultdict(lambda: {"added": 0, "changed": 0, "removed": 0})
    for path, how in diffs:
        rows[folder_of(path)][how] += 1
    return dict(rows)


def generic_host_files(diffs, unit):
    """Differing files of the host's code (`host/src`, `host/build.rs`, `host/build/`,
    `host/Cargo.toml`) other than the unit's folder and the registration list."""
    def code(p):
        return p.parts[:2] in (("host", "src"), ("host", "build")) or p in (Path("host/build.rs"), Path("host/Cargo.toml"))
    return [str(p) for p, _ in diffs if code(p) and p.parts[:3] != ("host", "src", unit) and p != REGISTRATION_LIST]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--unit", default="freecad", help="the app unit to take out (a folder under host/src)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary trees")
    args = ap.parse_args(argv)
    if not (REPO / "host/src" / args.unit).is_dir() or args.unit == "blender":
        print(f"app_unit_diff: {args.unit} is not an app unit that can be taken out (host/src/{args.unit})", file=sys.stderr)
        return 2
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout.strip()
    print(f"the committed tree at {head or '?'}" + (" (uncommitted changes in the working tree are not part of it)" if dirty else ""))
    tmp = Path(tempfile.mkdtemp(prefix="capstan-unit-diff."))
    try:
        with_tree, without_tree = tmp / "with", tmp / "without"
        export_tree(with_tree)
        export_tree(without_tree)
        take_out(without_tree, args.unit)
        env = dict(os.environ, CAPSTAN_SKIP_OFFICIAL_PACKS="1", CARGO_TARGET_DIR=str(tmp / "target"))
        env.pop("CAPSTAN_TEST_BLENDER", None)
        built = run(["cargo", "build", "-q", "-p", "capstan", "--lib", "--bins"], without_tree, env) == 0
        neutral = built and run(["cargo", "test", "-q", "-p", "capstan", "--test", "app_neutral"], without_tree, env) == 0
        diffs = differing(with_tree, without_tree)
        print(f"What was taken out to remove the {args.unit} unit, by folder (the tree with it against the tree without it):")
        print(f"  {'folder':<36} {'added':>6} {'changed':>8}")
        for folder, n in sorted(by_folder(diffs).items()):
            print(f"  {folder:<36} {n['added']:>6} {n['changed']:>8}")
        print(f"the registration list ({REGISTRATION_LIST}), without against with:")
        lines = difflib.unified_diff((without_tree / REGISTRATION_LIST).read_text().splitlines(), (with_tree / REGISTRATION_LIST).read_text().splitlines(), lineterm="", n=0)
        for line in list(lines)[2:]:
            print("  " + line)
        generic = generic_host_files(diffs, args.unit)
        left = names_left(without_tree, args.unit)
        print(f"the host without {args.unit}: {'builds' if built else 'DOES NOT BUILD'}; app-neutral test: {'passes' if neutral else 'FAILS' if built else 'not run'}; "
              f"its code and data name {args.unit} {'nowhere outside comments' if not left else f'in {len(left)} line(s)'}")
        for line in left:
            print("  " + line)
        if generic:
            print("generic host files taken out with the unit: " + ", ".join(generic))
        # Tests are not host code, but say which others name the unit (tests of behaviour
        # across apps use it as the second app); in the tree without it they would need
        # another app to test with. Not compiled there.
        tests = sorted({line.split(":", 1)[0] for line in names_left(without_tree, args.unit, ("host/tests",))} - {"host/tests/app_neutral.rs"})
        if tests:
            print(f"other host tests that name {args.unit} (use it as the second app; not compiled without it): " + ", ".join(tests))
        ok = built and neutral and not generic and not left
        print(("holds: adding " if ok else "does NOT hold: adding ") + f"{args.unit} touches no generic host file outside the registration list")
        return 0 if ok else 1
    finally:
        if args.keep:
            print(f"kept: {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
