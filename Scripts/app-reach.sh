#!/usr/bin/env bash
# Lists the functions of the app-linked targets (DuneEvents, DuneProjections)
# that no public declaration reaches: code an app compiles but can never run.
#
#   Scripts/app-reach.sh            # the list, then a total
#
# How: both targets are copied into one temporary module with `package` read
# as `internal`, so that only `public` declarations are roots. The module is
# compiled to optimized SIL with the inliners switched off; dead-function
# elimination then drops every function no root reaches, and what a function
# declared in the sources lacks in the SIL is unreached. A function is
# matched by its type and name: an overload counts as reached when any
# function of that name is, so the list errs on the side of "reached".
# Code for other platforms (`#if canImport(Darwin)` here on Linux) is not
# compiled and not listed; `@inline(__always)` functions may be inlined before
# the elimination, so they count as reached when the sources call them.
#
# Needs the Swift toolchain and python3. Takes about 40 seconds on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/src"
for file in $(find Sources/DuneEvents Sources/DuneProjections -name '*.swift'); do
    sed -E 's/\bpackage\b/internal/g; s/internal internal\(set\)/internal/g;
            /^(@_exported )?import DuneEvents$/d;
            s/\bDuneEvents\.([A-Z])/App.\1/g; s/\bDuneProjections\.([A-Z])/App.\1/g' \
        "$file" > "$work/src/$(echo "$file" | tr '/' '#')"
done
swiftc -parse-as-library -module-name App -O -wmo -emit-sil -o "$work/app.sil" "$work"/src/*.swift \
    -Xllvm -sil-disable-pass=early-inline -Xllvm -sil-disable-pass=inline 2> "$work/errors" || {
    cat "$work/errors" >&2
    exit 1
}
grep -E '^sil ' "$work/app.sil" | grep -oE '@\$[A-Za-z0-9_$]+' | sed 's/^@//' | sort -u \
    | swift demangle --simplified > "$work/reached.txt"

python3 - "$work/reached.txt" <<'EOF'
import glob, re, sys

reached = open(sys.argv[1]).read()
files = sorted(f for d in ("Sources/DuneEvents", "Sources/DuneProjections") for f in glob.glob(d + "/**/*.swift", recursive=True))
sources = {f: open(f).read() for f in files}
modifiers = r"(?:(?:public|package|internal|private|fileprivate|static|final|mutating|nonmutating|nonisolated|override|convenience|required|class)\s+)*"
type_decl = re.compile(r"^\s*(?:@[\w()]+\s+)*" + modifiers + r"(?:struct|enum|class|actor|extension|protocol)\s+([A-Za-z_][\w.]*)")
func_decl = re.compile(r"^\s*((?:@[\w().,: ]+\s+)*)" + modifiers +
                       r"(?:func\s+([A-Za-z_]\w*|[^\s(<]+)|(init)[?!]?\s*[(<]|(?:var|let)\s+([A-Za-z_]\w*)\s*:[^=]*\{)")

def code(line):
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', re.sub(r"//.*", "", line))

def is_reached(owner, name, attributes):
    key = f"{owner}.{name}" if owner else name
    if any(key + suffix in reached for suffix in ("(", "<", ".getter", ".setter", ".modify", ".read", ".unsafeAddressor")):
        return True
    if not owner and re.search(r"(^|[ .])" + re.escape(name) + r"[(<]", reached, re.M):
        return True
    if "inline(__always)" in attributes or "_transparent" in attributes:
        calls = re.compile(r"\b" + re.escape(name) + r"\b")
        return sum(len(calls.findall(text)) for text in sources.values()) > 1
    return False

total = 0
for path in files:
    lines = sources[path].split("\n")
    owners, depth, inactive, conditions = [], 0, 0, []
    index = 0
    while index < len(lines):
        text = code(lines[index])
        directive = text.strip()
        if directive.startswith("#if"):
            other_platform = "Darwin" in directive or re.search(r"os\((macOS|iOS|watchOS|tvOS|visionOS)", directive)
            conditions.append(bool(other_platform) and "!" not in directive)
            inactive += conditions[-1]
        elif directive.startswith("#else") or directive.startswith("#elseif"):
            if conditions:
                inactive -= conditions[-1]
                conditions[-1] = False
        elif directive.startswith("#endif"):
            if conditions:
                inactive -= conditions.pop()
        match = func_decl.match(text)
        if match and not inactive and "{" in "".join(code(l) for l in lines[index:index + 8]):
            name = match.group(2) or match.group(3) or match.group(4)
            end, level, opened = index, 0, False
            while end < len(lines):
                part = code(lines[end])
                level += part.count("{") - part.count("}")
                opened = opened or "{" in part
                if opened and level <= 0:
                    break
                end += 1
            owner = owners[-1][1].split(".")[-1] if owners else None
            attributes, above = match.group(1) or "", index - 1
            while above >= 0 and lines[above].strip().startswith("@"):
                attributes += lines[above]
                above -= 1
            if not is_reached(owner, name, attributes):
                count = end - index + 1
                total += count
                print(f"{path}:{index + 1}: {owner + '.' if owner else ''}{name} ({count} lines)")
            for line in lines[index:end + 1]:
                depth += code(line).count("{") - code(line).count("}")
                while owners and depth <= owners[-1][0]:
                    owners.pop()
            index = end + 1
            continue
        declared = type_decl.match(text)
        if declared and "{" in text:
            owners.append((depth, declared.group(1)))
        depth += text.count("{") - text.count("}")
        while owners and depth <= owners[-1][0]:
            owners.pop()
        index += 1
print(f"{total} lines in functions no public declaration reaches")
EOF
