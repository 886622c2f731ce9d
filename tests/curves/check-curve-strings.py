#!/usr/bin/env python3
"""Checks that the curve editor speaks through gettext: the strings it shows
(labels, tooltips, messages, refusals, undo labels) are marked, counts use
plural forms, and xgettext extracts them.  Usage: check-curve-strings.py SOURCE_ROOT"""
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

root = pathlib.Path(sys.argv[1])
files = sorted(root.glob('src/app/curves/*.c')) + [root / 'src/document/tress-curve-document.c',
                                                    root / 'src/core/tress-curve-edit.c']
ui_files = [root / 'ui/tress-curve-editor.ui']
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
# Calls whose string argument is shown to the user as it is.
SHOWN = re.compile(
    r'\b(set_message\s*\(\s*self\s*,|gtk_label_new\s*\(|gtk_button_new_with_label\s*\(|'
    r'gtk_widget_set_tooltip_text\s*\([^,]*,|gtk_menu_button_set_label\s*\([^,]*,|'
    r'g_menu_append\s*\([^,]*,|gtk_column_view_column_new\s*\(|add_tree_column\s*\([^,]*,|'
    r'action_button\s*\([^,]*,\s*(?:NULL|"[^"]*")\s*,|toggle_button\s*\([^,]*,\s*(?:NULL|"[^"]*")\s*,|'
    r'g_set_error\s*\([^,]*,[^,]*,[^,]*,|g_set_error_literal\s*\([^,]*,[^,]*,[^,]*,|'
    r'apply_edit\s*\([^,]*,)\s*"([^"]*[A-Za-z]{2,}[^"]*)"')
# A count glued to an English plural: "key%s", n == 1 ? "" : "s".
GLUED_PLURAL = re.compile(r'%s"\s*,[^;]*==\s*1\s*\?\s*""\s*:\s*"s"|\?\s*"%s %u key"')

tests = []
unmarked = []
glued = []
for path in files:
    text = COMMENT.sub(' ', path.read_text())
    rel = path.relative_to(root).as_posix()
    for m in SHOWN.finditer(text):
        line = text.count('\n', 0, m.start()) + 1
        unmarked.append('%s:%d: "%s"' % (rel, line, m.group(2)))
    for m in GLUED_PLURAL.finditer(text):
        glued.append('%s:%d' % (rel, text.count('\n', 0, m.start()) + 1))
# In the templates: labels, tooltips, placeholders, menu labels, list items.
UI_SHOWN = re.compile(r'<(property|attribute) name="(?:label|tooltip-text|placeholder-text|title)"'
                      r'(?![^>]*translatable="yes")[^>]*>([^<]*[A-Za-z]{2,}[^<]*)<|'
                      r'<(item)(?![^>]*translatable="yes")[^>]*>([^<]*[A-Za-z]{2,}[^<]*)<')
for path in ui_files:
    text = path.read_text()
    rel = path.relative_to(root).as_posix()
    for m in UI_SHOWN.finditer(text):
        line = text.count('\n', 0, m.start()) + 1
        unmarked.append('%s:%d: "%s"' % (rel, line, m.group(2) or m.group(4)))
tests.append(('shown strings are marked for translation', unmarked))
tests.append(('counts use plural forms (ngettext), not a glued "s"', glued))

expected = ['Move %u key', 'Delete %u key', 'Widen the types of %u curve', 'Copied %u key',
            'Set interpolation of %u key to %s', 'No active key', 'Filter curves',
            'Lengthen the animation', 'Widen types', 'Stored error %.4g%s',
            'Nothing to copy: select keys first', 'Change slope', 'Bake to samples',
            'This document has no curves', 'In slope', 'Auto clamped', 'Fit Keys to the Samples',
            'Interpolation of the selected keys\' segments']
missing = []
xgettext = shutil.which('xgettext')
if xgettext:
    with tempfile.TemporaryDirectory() as tmp:
        pot = pathlib.Path(tmp) / 'curves.pot'
        subprocess.run([xgettext, '--from-code=UTF-8', '-k_', '-kN_', '-kC_:1c,2', '-kNC_:1c,2',
                        '-kngettext:1,2', '-kg_dngettext:2,3', '-o', str(pot)] + [str(f) for f in files + ui_files],
                       check=True)
        # xgettext writes nothing when it finds no marked string.
        text = pot.read_text() if pot.exists() else ''
        msgids = set(re.findall(r'^msgid "((?:[^"\\]|\\.)*)"', text, re.M))
        plurals = set(re.findall(r'^msgid_plural "((?:[^"\\]|\\.)*)"', text, re.M))
    missing = [s for s in expected if s not in msgids]
    for s in ('Move %u key', 'Copied %u key', 'Widen the types of %u curve'):
        if s in msgids and s.replace('key', 'keys').replace('curve', 'curves') not in plurals:
            missing.append(s + ' (without its plural)')
    tests.append(('xgettext extracts the editor strings, with plurals', missing))

print('1..%d' % (len(tests) + (0 if xgettext else 1)))
n = 0
for name, bad in tests:
    n += 1
    if bad:
        print('not ok %d - %s' % (n, name))
        for b in bad:
            print('#   ' + b)
    else:
        print('ok %d - %s' % (n, name))
if not xgettext:
    print('ok %d # SKIP xgettext is not installed' % (n + 1))
sys.exit(0)
