#!/usr/bin/env python3
"""Checks the shortcuts window against the key bindings the editors install:
every key of the curve view's table of bindings and every
gtk_widget_class_add_binding_action() key of the fur editor is listed in
ui/help-overlay.ui, and every accelerator listed there for an editor (or the
preview's pose gizmo) is bound.  Usage: check-shortcuts.py SOURCE_ROOT"""
import pathlib
import re
import sys
import xml.etree.ElementTree as ET

root = pathlib.Path(sys.argv[1])
sources = [root / 'src/app/curves/tress-curve-view-actions.c', root / 'src/app/fur/tress-fur-editor.c']
MASKS = {'GDK_CONTROL_MASK': 'primary', 'GDK_SHIFT_MASK': 'shift', 'GDK_ALT_MASK': 'alt'}
BINDING = re.compile(r'gtk_widget_class_add_binding_action\s*\(\s*\w+\s*,\s*GDK_KEY_(\w+)\s*,'
                     r'\s*([^,]+?)\s*,\s*"([^"]+)"')
# A row of the curve view's view_bindings[]: { GDK_KEY_x, MODS, "action", ... }.
TABLE_ROW = re.compile(r'\{\s*GDK_KEY_(\w+)\s*,\s*([^,]+?)\s*,\s*"([^"]+)"')

bound = {}
for path in sources:
    text = path.read_text()
    for key, mask, action in BINDING.findall(text) + TABLE_ROW.findall(text):
        mods = frozenset(MASKS[m.strip()] for m in mask.split('|') if m.strip() != '0')
        bound[(mods, key.lower())] = action

# The pose gizmo in the preview reads its keys in a key controller and its
# modifiers from the drag's events: the keys it compares, and Shift_L and
# Control_L for the masks it tests.
gizmo = (root / 'src/app/scene/tress-scene-gizmo.c').read_text()
for key in re.findall(r'keyval == GDK_KEY_(\w+)', gizmo):
    bound.setdefault((frozenset(), key.lower()), 'pose gizmo')
for mask, key in (('GDK_SHIFT_MASK', 'shift_l'), ('GDK_CONTROL_MASK', 'control_l')):
    if mask in gizmo:
        bound.setdefault((frozenset(), key), 'pose gizmo')


def parse_accel(text):
    mods = frozenset(m.lower().replace('control', 'primary').replace('ctrl', 'primary')
                     for m in re.findall(r'<(\w+)>', text))
    return mods, re.sub(r'<\w+>', '', text).lower()


listed = set()
tree = ET.parse(root / 'ui/help-overlay.ui')
for shortcut in tree.iter('object'):
    if shortcut.get('class') != 'GtkShortcutsShortcut':
        continue
    props = {p.get('name'): (p.text or '') for p in shortcut.findall('property')}
    if 'accelerator' in props and '...' not in props['accelerator']:
        for accel in props['accelerator'].split():
            listed.add(parse_accel(accel))

missing = sorted('%s%s (%s)' % (''.join('<%s>' % m for m in sorted(mods)), key, action)
                 for (mods, key), action in bound.items() if (mods, key) not in listed)
stale = sorted('%s%s' % (''.join('<%s>' % m for m in sorted(mods)), key)
               for mods, key in listed if (mods, key) not in bound)
print('1..2')
for n, (name, bad) in enumerate((('every editor key binding is in the shortcuts window', missing),
                                 ('every editor shortcut listed there is bound', stale)), 1):
    print(('not ok' if bad else 'ok') + ' %d - %s' % (n, name))
    for b in bad:
        print('#   ' + b)
