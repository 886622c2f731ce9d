#!/usr/bin/env python3
"""Checks po/POTFILES.in: every source file with translatable strings is listed,
and every listed file exists.  Usage: check-potfiles.py SOURCE_ROOT"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
listed = set()
for line in (root / 'po' / 'POTFILES.in').read_text().splitlines():
    line = line.strip()
    if line and not line.startswith('#'):
        listed.add(line)

C_MARK = re.compile(r'\b(?:N?C?_|ngettext|g_dngettext|g_dpgettext2?)\s*\(\s*"')
C_COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)


def c_has_strings(text):
    # Comments do not count; string contents cannot hide a marker from us.
    return C_MARK.search(C_COMMENT.sub(' ', text)) is not None


needed = set()
for path in sorted(root.glob('src/**/*.[ch]')):
    if c_has_strings(path.read_text(errors='replace')):
        needed.add(path.relative_to(root).as_posix())
for path in sorted(root.glob('ui/**/*.ui')):
    if 'translatable="yes"' in path.read_text():
        needed.add(path.relative_to(root).as_posix())
for path in sorted(root.glob('data/*.desktop.in')) + sorted(root.glob('data/*.metainfo.xml.in')):
    needed.add(path.relative_to(root).as_posix())
for path in sorted(root.glob('data/*.gschema.xml')):
    if '<summary>' in path.read_text():
        needed.add(path.relative_to(root).as_posix())

missing = sorted(needed - listed)
absent = sorted(p for p in listed if not (root / p).exists())
print('1..2')
if missing:
    print('not ok 1 - files with translatable strings missing from po/POTFILES.in:')
    for p in missing:
        print('#   ' + p)
else:
    print('ok 1 - %d files with translatable strings are all listed' % len(needed))
if absent:
    print('not ok 2 - po/POTFILES.in lists files that do not exist:')
    for p in absent:
        print('#   ' + p)
else:
    print('ok 2 - every listed file exists')
sys.exit(1 if missing or absent else 0)
