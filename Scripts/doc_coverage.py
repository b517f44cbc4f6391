#!/usr/bin/env python3
"""List every public symbol without a doc comment, from Swift symbol-graph files.

Usage: python3 Scripts/doc_coverage.py SYMBOL_GRAPH_DIR MODULE...

Reads MODULE.symbols.json and MODULE@*.symbols.json (extensions of other
modules' types) for each MODULE in SYMBOL_GRAPH_DIR, as written by
`swift build -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc DIR`
(Scripts/build-docs.sh does that). Prints one line per public or open symbol
declared in this package that has no `///` comment, then a summary; exits 1
when there is any, 0 when there is none. DocC itself does not warn about an
undocumented symbol, so this is the check.

Not counted: symbols the compiler synthesized (their identifier contains
"::SYNTHESIZED::", e.g. default implementations of protocol requirements) and
symbols without a source location in the package.
Python 3 standard library only.
"""

import glob
import json
import os
import sys


def symbol_files(directory, module):
    own = os.path.join(directory, module + ".symbols.json")
    files = [own] if os.path.exists(own) else []
    files += sorted(glob.glob(os.path.join(directory, glob.escape(module) + "@*.symbols.json")))
    return files


def undocumented(directory, modules, root):
    seen = set()
    missing = []
    total = 0
    for module in modules:
        files = symbol_files(directory, module)
        if not files:
            sys.exit(f"doc_coverage: no symbol graph for module {module} in {directory}")
        for path in files:
            with open(path, encoding="utf-8") as handle:
                graph = json.load(handle)
            for symbol in graph.get("symbols", []):
                precise = symbol["identifier"]["precise"]
                if precise in seen or "::SYNTHESIZED::" in precise:
                    continue
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                uri = symbol.get("location", {}).get("uri", "")
                if not uri.startswith("file://"):
                    continue
                file = uri[len("file://"):]
                if root and not file.startswith(root + "/"):
                    continue
                seen.add(precise)
                total += 1
                lines = symbol.get("docComment", {}).get("lines", [])
                if any(line.get("text", "").strip() for line in lines):
                    continue
                line = symbol["location"].get("position", {}).get("line", -1) + 1
                name = ".".join(symbol.get("pathComponents", [symbol["names"]["title"]]))
                kind = symbol["kind"]["identifier"].replace("swift.", "")
                relative = os.path.relpath(file, root) if root else file
                # A module that re-exports another (`@_exported import`) carries the other's
                # symbols in its graph too; name the module whose sources declare the symbol.
                parts = relative.split(os.sep)
                owner = parts[1] if len(parts) > 2 and parts[0] == "Sources" else module
                missing.append((owner, relative, line, name, kind))
    return total, sorted(missing)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.split("\n\n")[1])
    directory, modules = sys.argv[1], sys.argv[2:]
    root = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
    total, missing = undocumented(directory, modules, root)
    for module, file, line, name, kind in missing:
        print(f"{file}:{line}: {module}.{name} ({kind}) has no doc comment")
    by_module = {}
    for entry in missing:
        by_module[entry[0]] = by_module.get(entry[0], 0) + 1
    detail = ", ".join(f"{module} {count}" for module, count in sorted(by_module.items())) or "none"

    print(f"{len(missing)} of {total} public symbols have no doc comment ({detail})")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
