#!/usr/bin/env python3
"""tress-cli export-gltf checked by tools that are not ours.

  gltf-check.py validator --cli TRESS_CLI --samples DIR --validator NODE_MODULES
  gltf-check.py blender --cli TRESS_CLI --samples DIR --validator NODE_MODULES [--blender blender]
  gltf-check.py judge --cli TRESS_CLI --samples DIR --validator NODE_MODULES --judge DIR
                [--blender blender]
  gltf-check.py roundtrip --cli TRESS_CLI --samples DIR --validator NODE_MODULES
                --pose-dump POSE_DUMP [--blender blender]

validator: the Khronos glTF validator (npm gltf-validator, installed into .node/ by
tools/install-deps) on the exports of the demo BFRES on its own model (.glb and
.gltf + .bin), and where the samples are there of the Bass sample (.glb and .gltf +
.bin, model found beside the animations), of the demo on the Bass model (--model), of
the Dog sample (its own skeleton, no mesh) and of every NIFF sample (also with
--split-anim-groups; dragon.nif also as .gltf + .bin): no error and no warning.

blender: the demo's export imported by Blender with its default options: one
armature of the demo's five bones, its three meshes, the body skinned to it with a
vertex group per bone, the Wave animation; posed at 0.5 s and 1.5 s, every vertex of
the body moves and the left hand's tip goes up then down by more than a unit. Then every
NIFF sample's export: every object and IK node of the file (tress-cli dump) is an object or a bone there, one
mesh object per shape, the actions of one animation named after the scene (none
for the files that do not move), and the objects' world positions at frame 0 and
at mid-animation where the file's nodes put them (composed here from the file,
Blender turning Y up into Z up), skinned meshes within the box their joints
deform them into. Then the exports with --split-anim-groups of the samples with
several AnimGroups that move: one animation per AnimGroup, named after it, each an
NLA track in Blender; played together (each object's actions made one) the objects
are where the file puts them.

judge: ../shared/tools/gltf-judge/judge.py on the Bass export, every animation, and on
the demo's: validator, file checks (names, skin, inverse bind matrices), Blender's
import posed at whole and half frames against the judge's own BFRES evaluator.

roundtrip: the import back from Blender. Blender imports the Bass export and exports it
again with its default glTF options: the games' 30 fps export into a scene at 30 fps and at
Blender's default 24 fps, and an export at 24 fps (--fps 24) into a 24 fps scene; tress-cli
import-gltf (--fps as exported) brings that file back into Animal_Bass_Animation.bfres; the
result must validate (tress-cli validate), and every animation, posed by the preview's code
(tests/interchange/pose-dump.c), must match at every frame, within positions 1e-3 of the
skeleton's size and rotations 0.5 degrees (the largest errors are printed per animation): the
file Blender wrote (posed by this script's own glTF evaluator through world . IBM . bind),
and, when the scene's rate is the export's, the original too (byte for byte). A 30 fps export
in a 24 fps scene is resampled by Blender every 1/24 s, dropping the last fraction of a frame,
so what the Bass animations do within a 30 fps frame is not in its file: the errors against
the original are printed, with what Blender's file itself lost beside them. An import of one animation
(--animation Jump) must leave the others and the index groups byte-identical.

The paths come from meson (tests/interchange/meson.build); TRESS_GLTF_VALIDATOR_DIR,
TRESS_GLTF_JUDGE_DIR and TRESS_SAMPLES_DIR override them. Exit 0 pass, 1 fail,
77 skip: only when a tool or the samples are absent, saying which. With
TRESS_REQUIRE_GLTF_TOOLS=1 (CI sets it; tools/install-deps installs them) a missing
Node.js, validator or Blender is a failure instead of a skip."""
import argparse, json, math, os, shutil, struct, subprocess, sys, tempfile, time

SKIP = 77

VALIDATE_JS = r"""
const fs = require('fs'), path = require('path');
const validator = require(process.argv[1]);
const file = process.argv[2], dir = path.dirname(path.resolve(file));
validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
  uri: path.basename(file), maxIssues: 0,
  externalResourceFunction: (uri) => new Promise((resolve, reject) =>
    fs.readFile(path.resolve(dir, decodeURIComponent(uri)),
                (err, data) => err ? reject(err.toString()) : resolve(new Uint8Array(data)))),
}).then((r) => {
  const sev = ['ERROR', 'WARNING', 'INFO', 'HINT'];
  console.log(JSON.stringify({
    version: r.validatorVersion, errors: r.issues.numErrors, warnings: r.issues.numWarnings,
    infos: r.issues.numInfos, hints: r.issues.numHints,
    messages: r.issues.messages.slice(0, 20).map(
      (m) => `${sev[m.severity] || m.severity} ${m.code} ${m.pointer || ''}: ${m.message}`),
  }));
}, (err) => { console.error('validation failed: ' + err); process.exit(2); });
"""


BLENDER_DEMO_PY = r"""
import bpy, sys, json
try:
    import numpy as np
    if not hasattr(np, 'bool'): np.bool = bool   # the 3.4 add-on and numpy >= 1.24
except ImportError:
    pass
f = sys.argv[sys.argv.index('--') + 1]
for o in list(bpy.data.objects): bpy.data.objects.remove(o)
bpy.ops.import_scene.gltf(filepath=f)
scene = bpy.context.scene
arms = [o for o in bpy.data.objects if o.type == 'ARMATURE']
meshes = [o for o in bpy.data.objects if o.type == 'MESH']
out = {'armatures': [a.name for a in arms], 'bones': [b.name for a in arms for b in a.data.bones],
       'meshes': sorted(m.data.name for m in meshes), 'actions': [a.name for a in bpy.data.actions],
       'fps': scene.render.fps / scene.render.fps_base}
body = next(m for m in meshes if m.data.name.startswith('Body'))
out['groups'] = sorted(g.name for g in body.vertex_groups)
out['skinned'] = any(mod.type == 'ARMATURE' and mod.object in arms for mod in body.modifiers)
ad = arms[0].animation_data_create()
for t in ad.nla_tracks:
    t.mute = True
ad.action = next(a for a in bpy.data.actions if a.name.startswith('Wave'))
def positions(seconds):
    frame = seconds * out['fps']
    scene.frame_set(int(frame), subframe=frame - int(frame))
    ev = body.evaluated_get(bpy.context.evaluated_depsgraph_get())
    me = ev.to_mesh()
    pts = [tuple(ev.matrix_world @ v.co) for v in me.vertices]
    ev.to_mesh_clear()
    return pts
rest = positions(0)
tip = max(range(len(rest)), key=lambda i: rest[i][0])
up, down = positions(0.5), positions(1.5)
out['vertices'] = len(rest)
out['moved'] = sum(1 for a, b in zip(rest, up) if max(abs(x - y) for x, y in zip(a, b)) > 1e-3)
out['tip_z'] = [rest[tip][2], up[tip][2], down[tip][2]]
print('DEMO ' + json.dumps(out))
"""


def absent(what, required_tool):
    """Skip (77) for a tool that is not there, or fail where CI requires it."""
    if required_tool and os.environ.get('TRESS_REQUIRE_GLTF_TOOLS') == '1':
        print('FAIL: %s (TRESS_REQUIRE_GLTF_TOOLS=1: tools/install-deps installs it)' % what)
        return 1
    print('SKIP: %s' % what)
    return SKIP


def export(cli, args, out):
    t0 = time.time()
    p = subprocess.run([cli, 'export-gltf'] + args + ['-o', out], capture_output=True, text=True)
    dt = time.time() - t0
    sys.stdout.write(p.stdout)
    sys.stdout.write(p.stderr)
    if p.returncode != 0:
        raise SystemExit('FAIL: tress-cli export-gltf %s exited with %d' % (' '.join(args), p.returncode))
    print('export %s: %.3f s' % (os.path.basename(out), dt))
    return out


def animation_names(glb):
    d = open(glb, 'rb').read()
    n = struct.unpack_from('<I', d, 12)[0]
    return [a['name'] for a in json.loads(d[20:20 + n]).get('animations', [])]


def validator_absent(o):
    """Why the validator cannot run (a skip or a failure, see absent()), or None."""
    if shutil.which('node') is None:
        return absent('Node.js (node) is not on PATH', True)
    if not os.path.isfile(os.path.join(o.validator, 'gltf-validator', 'package.json')):
        return absent('the glTF validator is not in %s (run tools/install-deps)' % o.validator, True)
    return None


def validate(o, files):
    """The validator on each of @files: True when none has an error or a warning."""
    ok = True
    for f in files:
        p = subprocess.run([shutil.which('node'), '-e', VALIDATE_JS,
                            os.path.abspath(os.path.join(o.validator, 'gltf-validator')), f],
                           capture_output=True, text=True)
        if p.returncode != 0:
            print('FAIL: the validator did not run on %s: %s' % (f, p.stderr.strip()[-800:]))
            ok = False
            continue
        r = json.loads(p.stdout)
        print('validator %s: %s: errors %d, warnings %d, infos %d, hints %d'
              % (r['version'], os.path.basename(f), r['errors'], r['warnings'], r['infos'], r['hints']))
        for m in r['messages']:
            print('  ' + m)
        if r['errors'] > 0 or r['warnings'] > 0:
            ok = False
    return ok


def demo_file(o, work):
    demo = os.path.join(work, 'demo.bfres')
    subprocess.run([o.cli, 'generate-demo', 'bfres', '-o', demo], check=True)
    return demo


def run_validator(o, work):
    why = validator_absent(o)
    if why is not None:
        return why
    bass = os.path.join(o.samples, 'bfres', 'Animal_Bass_Animation.bfres')
    model = os.path.join(o.samples, 'bfres', 'Animal_Bass.bfres')
    dog = os.path.join(o.samples, 'bfres', 'Animal_Dog_Animation.bfres')
    demo = demo_file(o, work)
    # The demo on its own model: always there, whatever the samples.
    files = [export(o.cli, [demo], os.path.join(work, 'demo.glb')),
             export(o.cli, [demo], os.path.join(work, 'demo split.gltf'))]
    if os.path.isfile(bass) and os.path.isfile(model):
        files.append(export(o.cli, [bass], os.path.join(work, 'bass.glb')))
        files.append(export(o.cli, [bass], os.path.join(work, 'bass split.gltf')))
        files.append(export(o.cli, [demo, '--model', model], os.path.join(work, 'demo-on-bass.glb')))
    else:
        print('note: the Bass samples are absent from %s: the demo alone is validated' % o.samples)
    if os.path.isfile(dog):
        files.append(export(o.cli, [dog], os.path.join(work, 'dog.glb')))
    for path in niff_samples(o):
        stem = os.path.splitext(os.path.basename(path))[0]
        files.append(export(o.cli, [path], os.path.join(work, 'niff-%s.glb' % stem)))
        files.append(export(o.cli, [path, '--split-anim-groups'],
                            os.path.join(work, 'niff-%s-split.glb' % stem)))
        if stem == 'dragon':
            files.append(export(o.cli, [path], os.path.join(work, 'niff dragon split.gltf')))
    return 0 if validate(o, files) else 1


def blender_env():
    """The environment for Blender: Debian's Blender finds its Python (and the numpy its glTF
    add-on imports) through the first python3 on PATH; this script's own interpreter (a pyenv
    or a venv, say) is left out, as are PYTHONHOME and PYTHONPATH."""
    own = {os.path.dirname(sys.executable), os.path.dirname(os.path.realpath(sys.executable))}
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONHOME', 'PYTHONPATH')}
    env['PATH'] = os.pathsep.join(d for d in env.get('PATH', '').split(os.pathsep) if d not in own)
    return env


def run_blender_demo(o, work):
    glb = export(o.cli, [demo_file(o, work)], os.path.join(work, 'demo.glb'))
    t0 = time.time()
    p = subprocess.run([o.blender, '-b', '--factory-startup', '--python-expr', BLENDER_DEMO_PY,
                        '--', glb], capture_output=True, text=True, env=blender_env())
    lines = [l for l in p.stdout.splitlines() if l.startswith('DEMO ')]
    if p.returncode != 0 or not lines:
        print('FAIL: Blender did not import %s (exit %d): %s' % (glb, p.returncode,
                                                                (p.stdout + p.stderr)[-2000:]))
        return 1
    r = json.loads(lines[-1][5:])
    print('Blender import of %s: %.1f s: %s' % (os.path.basename(glb), time.time() - t0,
                                                json.dumps(r, sort_keys=True)))
    bones = ['Root', 'Arm_L', 'Arm_R', 'Head', 'Eyelid']
    rest, up, down = r['tip_z']
    checks = [
        ('one armature', len(r['armatures']) == 1),
        ('the five bones', sorted(r['bones']) == sorted(bones)),
        ('Body, Eyes and Nose', r['meshes'] == ['Body', 'Eyes', 'Nose']),
        ('the body skinned to the armature', r['skinned']),
        ('a vertex group per bone the body follows',
         {'Root', 'Arm_L', 'Arm_R', 'Head'} <= set(r['groups'])),
        ('the Wave animation', any(a.startswith('Wave') for a in r['actions'])),
        ('every vertex of the body moves at 0.5 s', r['moved'] == r['vertices'] > 0),
        ('the hand up at 0.5 s', up - rest > 1.0),
        ('the hand down at 1.5 s', down - rest < -1.0),
    ]
    ok = True
    for what, good in checks:
        print('%s: %s' % ('ok' if good else 'FAIL', what))
        ok = ok and good
    return 0 if ok else 1


def run_judge(o, work):
    judge = os.path.join(o.judge, 'judge.py')
    bass = os.path.join(o.samples, 'bfres', 'Animal_Bass_Animation.bfres')
    model = os.path.join(o.samples, 'bfres', 'Animal_Bass.bfres')
    if not os.path.isfile(judge):
        return absent('the judge is not at %s (../shared/tools/gltf-judge, outside the repository)'
                      % judge, False)
    if not os.path.isfile(bass) or not os.path.isfile(model):
        return absent('the Bass samples are absent from %s' % o.samples, False)
    if shutil.which(o.blender) is None:
        return absent('Blender (%s) is not on PATH' % o.blender, True)
    if shutil.which('node') is None or not os.path.isdir(os.path.join(o.validator, 'gltf-validator')):
        return absent('Node.js or the glTF validator (%s) is absent' % o.validator, True)
    demo = demo_file(o, work)
    ok = True
    # Bass on the model beside it; the demo on its own (the file is both).
    for name, model_file, anim_file in (('bass', model, bass), ('demo', demo, demo)):
        glb = export(o.cli, [anim_file], os.path.join(work, name + '.glb'))
        names = animation_names(glb)
        print('judging %d animations of %s: %s' % (len(names), name, ', '.join(names)))
        p = subprocess.run([sys.executable, judge, model_file, anim_file, glb] + names
                           + ['--validator', o.validator, '--blender', o.blender,
                              '--workdir', os.path.join(work, 'judge-' + name)],
                           capture_output=True, text=True)
        sys.stdout.write(p.stdout)
        sys.stdout.write(p.stderr[-3000:])
        if p.returncode != 0:
            print('FAIL: judge.py on %s exited with %d' % (name, p.returncode))
            ok = False
    return 0 if ok else 1


# ---- NIFF in Blender -------------------------------------------------------------

# The NIFF samples and what their exports hold: the animations (1 where the
# file moves, else 0), and with --split-anim-groups (one per AnimGroup that moves a node:
# dragon's 33 but Dragon_All and the three NULL_OBJECTs; kirikobu's up vector, effector and
# the two IK joints that follow it; not the cameras').
NIFF_SAMPLES = {
    'Rings.niff': (1, 3), 'dragon.nif': (1, 29), 'kirikobu.niff': (1, 4), '3hedra.niff': (1, 3),
    'synthetic-all-channels.nif': (1, 4), 'synthetic-niff1.nif': (1, 2),
    'blend2niff-cube.nif': (0, 0), 'yellow-cube.niff': (0, 0),
}


def niff_samples(o):
    return [os.path.join(o.samples, 'niff', n) for n in sorted(NIFF_SAMPLES)
            if os.path.isfile(os.path.join(o.samples, 'niff', n))]


BLENDER_JS = r"""
import json, sys
import numpy as np
np.bool = bool  # the glTF add-on of Blender 3.4 still uses it
import bpy
glb, out, frames, split = sys.argv[sys.argv.index('--') + 1:][:4]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.context.scene.render.fps = 30  # keys at time × 30: frame = time × 30
bpy.ops.import_scene.gltf(filepath=glb)
r = {'objects': {}, 'bones': [], 'actions': [a.name for a in bpy.data.actions], 'poses': {},
     'tracks': {}}
for ob in bpy.data.objects:
    ad = ob.animation_data
    if ad is None:
        continue
    # The importer stashes each glTF animation's action on a muted NLA track named after it,
    # and makes the first animation's actions the active ones.
    r['tracks'][ob.name] = [t.name for t in ad.nla_tracks]
    acts = [s.action for t in ad.nla_tracks for s in t.strips]
    if split == '1' and len(acts) > 1:
        # One AnimGroup per animation: all of them played together, an armature's bones
        # moved by several (IK joints) put into one action.
        both = bpy.data.actions.new('all ' + ob.name)
        paths = set()
        for a in acts:
            for fc in a.fcurves:
                assert (fc.data_path, fc.array_index) not in paths, 'moved by two animations'
                paths.add((fc.data_path, fc.array_index))
                nf = both.fcurves.new(fc.data_path, index=fc.array_index)
                nf.keyframe_points.add(len(fc.keyframe_points))
                for k, kp in enumerate(fc.keyframe_points):
                    nf.keyframe_points[k].co = kp.co
                    nf.keyframe_points[k].interpolation = kp.interpolation
        ad.action = both
    elif split == '1' and acts:
        ad.action = acts[0]
for ob in bpy.data.objects:
    r['objects'][ob.name] = {'type': ob.type,
                             'skinned': any(m.type == 'ARMATURE' for m in ob.modifiers)}
    if ob.type == 'ARMATURE':
        r['bones'] += [b.name for b in ob.data.bones]
r['boxes'] = {}
for f in json.loads(frames):
    bpy.context.scene.frame_set(int(f))
    r['poses'][str(f)] = {ob.name: list(ob.matrix_world.translation) for ob in bpy.data.objects}
    # Skinned meshes: the box around their deformed vertices.
    graph = bpy.context.evaluated_depsgraph_get()
    r['boxes'][str(f)] = {}
    for ob in bpy.data.objects:
        if r['objects'][ob.name]['skinned']:
            ev = ob.evaluated_get(graph)
            pts = [ev.matrix_world @ v.co for v in ev.to_mesh().vertices]
            r['boxes'][str(f)][ob.name] = [[min(p[k] for p in pts) for k in range(3)],
                                           [max(p[k] for p in pts) for k in range(3)]]
            ev.to_mesh_clear()
json.dump(r, open(out, 'w'))
"""


def read_glb(path):
    d = open(path, 'rb').read()
    n = struct.unpack_from('<I', d, 12)[0]
    doc = json.loads(d[20:20 + n])
    binary = d[20 + n + 8:] if len(d) > 20 + n else b''
    return doc, binary


def accessor(doc, binary, i):
    a = doc['accessors'][i]
    v = doc['bufferViews'][a['bufferView']]
    comps = {'SCALAR': 1, 'VEC2': 2, 'VEC3': 3, 'VEC4': 4, 'MAT4': 16}[a['type']]
    assert a['componentType'] == 5126, 'float accessors only'
    at = v.get('byteOffset', 0) + a.get('byteOffset', 0)
    flat = struct.unpack_from('<%df' % (comps * a['count']), binary, at)
    return [flat[k * comps:(k + 1) * comps] for k in range(a['count'])]


def trs_matrix(t, q, s):
    x, y, z, w = q
    r = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
         [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
         [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    return [[r[i][0] * s[0], r[i][1] * s[1], r[i][2] * s[2], t[i]] for i in range(3)]


def mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) + (a[i][3] if j == 3 else 0)
             for j in range(4)] for i in range(3)]


def node_worlds(doc, binary, frame, fps):
    """Every node's world matrix at @frame (a sample of the animation), by glTF's rule."""
    nodes = doc['nodes']
    trs = [[list(n.get('translation', [0, 0, 0])), list(n.get('rotation', [0, 0, 0, 1])),
            list(n.get('scale', [1, 1, 1]))] for n in nodes]
    for anim in doc.get('animations', []):
        for c in anim['channels']:
            smp = anim['samplers'][c['sampler']]
            times = [t[0] for t in accessor(doc, binary, smp['input'])]
            k = min(range(len(times)), key=lambda i: abs(times[i] * fps - frame))
            # (after its last key an animation holds it: an AnimGroup's own, shorter)
            assert abs(times[k] * fps - frame) < 1e-3 or frame > times[-1] * fps, \
                'no sample at frame %g' % frame
            path = ['translation', 'rotation', 'scale'].index(c['target']['path'])
            trs[c['target']['node']][path] = list(accessor(doc, binary, smp['output'])[k])
    parent = {}
    for i, n in enumerate(nodes):
        for ch in n.get('children', []):
            parent[ch] = i
    world = {}

    def w(i):
        if i not in world:
            m = trs_matrix(*trs[i])
            world[i] = mul(w(parent[i]), m) if i in parent else m
        return world[i]
    return [w(i) for i in range(len(nodes))]


def skinned_box(doc, binary, worlds, node):
    """The box around the vertices of @node's skinned mesh, deformed by the joints at @worlds."""
    skin = doc['skins'][node['skin']]
    ibm = accessor(doc, binary, skin['inverseBindMatrices'])
    joint = [mul(worlds[j], [[m[4 * c + r] for c in range(4)] for r in range(3)])
             for j, m in zip(skin['joints'], ibm)]
    lo, hi = [math.inf] * 3, [-math.inf] * 3
    for prim in doc['meshes'][node['mesh']]['primitives']:
        a = prim['attributes']
        pos = accessor(doc, binary, a['POSITION'])
        wts = accessor(doc, binary, a['WEIGHTS_0'])
        jv = doc['accessors'][a['JOINTS_0']]
        view = doc['bufferViews'][jv['bufferView']]
        jnt = struct.unpack_from('<%dH' % (4 * jv['count']), binary,
                                 view.get('byteOffset', 0) + jv.get('byteOffset', 0))
        for v, p in enumerate(pos):
            q = [sum(wts[v][k] * (joint[jnt[4 * v + k]][r][0] * p[0] + joint[jnt[4 * v + k]][r][1] * p[1]
                                  + joint[jnt[4 * v + k]][r][2] * p[2] + joint[jnt[4 * v + k]][r][3])
                     for k in range(4)) for r in range(3)]
            q = (q[0], -q[2], q[1])  # Y up → Z up
            lo = [min(a, b) for a, b in zip(lo, q)]
            hi = [max(a, b) for a, b in zip(hi, q)]
    return lo, hi


def check_blender_import(o, work, path, expect_anims, split=False):
    """@path's export (with --split-anim-groups when @split: one animation per AnimGroup,
    played together in Blender) imported: the objects where the file puts them."""
    name = os.path.basename(path) + (' (split)' if split else '')
    stem = os.path.splitext(os.path.basename(path))[0] + ('-split' if split else '')
    glb = export(o.cli, [path] + (['--split-anim-groups'] if split else []),
                 os.path.join(work, 'blender-%s.glb' % stem))
    dump = json.loads(subprocess.run([o.cli, 'dump', path], capture_output=True, text=True,
                                     check=True).stdout)['scene']
    doc, binary = read_glb(glb)
    anims = doc.get('animations', [])
    frames = [0]
    if anims:
        frames.append(round(max(a['extras']['niff']['frameCount'] for a in anims) / 2))
    out = os.path.join(work, 'blender-%s.json' % stem)
    p = subprocess.run([o.blender, '-b', '--factory-startup', '--python-exit-code', '1',
                        '--python-expr', BLENDER_JS, '--', glb, out, json.dumps(frames),
                        '1' if split else '0'],
                       capture_output=True, text=True, env=blender_env())
    if p.returncode != 0 or not os.path.isfile(out):
        print('FAIL: %s: Blender did not import it: %s' % (name, (p.stdout + p.stderr)[-1500:]))
        return False
    r = json.load(open(out))
    ok = True

    def fail(msg):
        nonlocal ok
        print('FAIL: %s: %s' % (name, msg))
        ok = False
    # Every object and IK node of the file, by its name (NIFF's unnamed ones: "object N").
    have = set(r['objects']) | set(r['bones'])
    wanted = []
    for kind, label in (('objects', 'object'), ('chain_roots', 'chain root'),
                        ('joints', 'joint'), ('effectors', 'effector')):
        wanted += [x.get('name') or '%s %d' % (label, i) for i, x in enumerate(dump[kind])]
    missing = [n for n in wanted if n not in have]
    if missing:
        fail('not imported: %s' % ', '.join(missing))
    # One mesh object per shape that has triangles (shapes on objects, envelopes on their own).
    shapes = sum(1 for ob in dump['objects'] if ob['shape'] is not None)
    meshes = sum(1 for x in r['objects'].values() if x['type'] == 'MESH')
    if meshes != shapes:
        fail('%d mesh objects, expected %d (one per shape)' % (meshes, shapes))
    # One glTF animation, named after the scene: Blender makes an action per object it moves.
    # Split: one per AnimGroup that moves a node, named after it, each a track in Blender.
    if split:
        names = [a['name'] for a in anims]
        if len(anims) != expect_anims:
            fail('%d animations in the file, expected %d' % (len(anims), expect_anims))
        for a in anims:
            g = a['extras']['niff']['animGroups']
            if len(g) != 1 or g[0].get('name', 'AnimGroup %d' % g[0]['index']) != a['name']:
                fail('animation “%s” is not one AnimGroup named so: %s' % (a['name'], g))
        tracks = set(t for ts in r['tracks'].values() for t in ts)
        if tracks != set(names):
            fail('Blender made the tracks %s of the animations %s' % (sorted(tracks), names))
        if any(not any(a.startswith(n) for n in names) for a in r['actions'] if not a.startswith('all ')):
            fail('actions %s are not of the animations %s' % (r['actions'], names))
    elif len(anims) != expect_anims:
        fail('%d animations in the file, expected %d' % (len(anims), expect_anims))
    if expect_anims and not split:
        aname = anims[0]['name']
        if aname != (dump['name'] or name):
            fail('the animation is “%s”, not the scene “%s”' % (aname, dump['name'] or name))
        if not r['actions'] or any(not a.startswith(aname) for a in r['actions']):
            fail('actions %s are not all of “%s”' % (r['actions'], aname))
    elif not expect_anims and r['actions']:
        fail('actions %s in a file that does not move' % r['actions'])
    # The objects where the file puts them (Y up → Z up), skinned meshes aside.
    worst = 0
    size = 1
    skin_worst = 0
    for f in frames:
        worlds = node_worlds(doc, binary, f, 30)
        want = {n.get('name'): [worlds[i][r][3] for r in range(3)]
                for i, n in enumerate(doc['nodes'])}
        size = max([size] + [abs(c) for p in want.values() for c in p])
        for obj, pos in r['poses'][str(f)].items():
            if obj not in want or r['objects'][obj]['skinned'] or r['objects'][obj]['type'] == 'ARMATURE':
                continue
            x, y, z = want[obj]
            worst = max(worst, max(abs(a - b) for a, b in zip(pos, (x, -z, y))) / size)
        for node in doc['nodes']:
            if 'skin' in node:
                box = r['boxes'][str(f)].get(node['name'])
                if box is None:
                    fail('the skinned mesh %s is not a skinned object in Blender' % node['name'])
                    continue
                lo, hi = skinned_box(doc, binary, worlds, node)
                skin_worst = max([skin_worst] + [abs(a - b) / size for a, b in
                                                 zip(box[0] + box[1], lo + hi)])
    if worst > 1e-4:
        fail('object positions differ from the file by %.3g of the scene size' % worst)
    # Blender's bones hold no shear: a joint with a non-uniform scale of its own (kirikobu's
    # second IK joint, X 0.74) turned away from its rest is posed with the nearest rotation and
    # scale, and the skin it moves strays a little (5.5e-4 of the scene at mid-bend).
    if skin_worst > 1e-3:
        fail('skinned meshes lie elsewhere than the file deforms them, by %.3g of the scene size'
             % skin_worst)
    print('blender %s: %d objects, %d bones, %d mesh objects, %d actions; at frames %s positions '
          'within %.2g of the scene size, skinned vertices %.2g'
          % (name, len(r['objects']), len(r['bones']), meshes, len(r['actions']), frames, worst,
             skin_worst))
    return ok


def run_blender(o, work):
    """The demo's export, then every NIFF sample's (where the samples are there)."""
    if shutil.which(o.blender) is None:
        return absent('Blender (%s) is not on PATH' % o.blender, True)
    ok = run_blender_demo(o, work) == 0
    niff = niff_samples(o)
    if not niff:
        print('note: the NIFF samples are absent from %s: the demo alone is imported' % o.samples)
    for path in niff:
        ok &= check_blender_import(o, work, path, NIFF_SAMPLES[os.path.basename(path)][0])
    # One animation per AnimGroup, where the file has several that move.
    for path in niff:
        if NIFF_SAMPLES[os.path.basename(path)][1] > 1:
            ok &= check_blender_import(o, work, path, NIFF_SAMPLES[os.path.basename(path)][1], True)
    return 0 if ok else 1


BLENDER_ROUNDTRIP = r"""
import bpy, json, sys
argv = sys.argv[sys.argv.index('--') + 1:]
src, out, fps, summary = argv[0], argv[1], int(argv[2]), argv[3]
import numpy as np
if 'bool' not in np.__dict__:
    np.bool = bool  # the 3.4 add-on uses the alias numpy 1.24 removed
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = fps
scene.render.fps_base = 1.0
if 'FINISHED' not in bpy.ops.import_scene.gltf(filepath=src):
    sys.exit(1)
if 'FINISHED' not in bpy.ops.export_scene.gltf(filepath=out):
    sys.exit(1)
json.dump(dict(blender=bpy.app.version_string, fps=fps,
               objects=sorted(o.name for o in bpy.data.objects),
               actions=sorted(a.name for a in bpy.data.actions)), open(summary, 'w'))
"""

POSITION_LIMIT = 1e-3  # of the skeleton's size
ROTATION_LIMIT = 0.5   # degrees


def pose_dump(o, bfres, model=None):
    p = subprocess.run([o.pose_dump, bfres] + ([model] if model else []), capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise SystemExit('FAIL: pose-dump %s: %s' % (bfres, p.stderr.strip()))
    return json.loads(p.stdout)


def angle_between(a, b):
    """Degrees between the rotations of two 3x4 row-major matrices (columns made unit)."""
    trace = 0.0
    for j in range(3):
        ca = [a[4 * i + j] for i in range(3)]
        cb = [b[4 * i + j] for i in range(3)]
        na = sum(x * x for x in ca) ** 0.5
        nb = sum(x * x for x in cb) ** 0.5
        trace += sum(x * y for x, y in zip(ca, cb)) / (na * nb)
    return math.degrees(math.acos(max(-1.0, min(1.0, (trace - 1) / 2))))


def compare_poses(before, after, label, required=True):
    """Every animation of @before against @after at every frame both have (only printed
    where not @required)."""
    ok = True
    size = before['size']
    for name, anim in before['animations'].items():
        new = after['animations'].get(name)
        if new is None:
            print('FAIL %s %s: the animation is gone' % (label, name))
            ok = False
            continue
        n = min(len(anim['frames']), len(new['frames']))
        worst_p = worst_r = 0.0
        where_p = where_r = ''
        for f in range(n):
            for b, (ma, mb) in enumerate(zip(anim['frames'][f], new['frames'][f])):
                dp = math.sqrt(sum((ma[4 * i + 3] - mb[4 * i + 3]) ** 2 for i in range(3))) / size
                dr = angle_between(ma, mb)
                if dp > worst_p:
                    worst_p, where_p = dp, '%s at frame %d' % (before['bones'][b], f)
                if dr > worst_r:
                    worst_r, where_r = dr, '%s at frame %d' % (before['bones'][b], f)
        bad = worst_p > POSITION_LIMIT or worst_r > ROTATION_LIMIT
        frames = '%d frames' % anim['frame_count']
        if new['frame_count'] != anim['frame_count']:
            frames = '%d frames, now %d (compared over %d)' % (anim['frame_count'],
                                                               new['frame_count'], n)
        print('%s %s %-12s %s: position %.2e of the size (%s), rotation %.2e deg (%s)'
              % (('FAIL' if bad else 'ok  ') if required else 'info', label, name, frames,
                 worst_p, where_p or '-', worst_r, where_r or '-'))
        ok = ok and not (bad and required)
    return ok


# ---- a glTF pose evaluator of this script's own (GLB, float or normalized accessors,
# LINEAR / STEP / CUBICSPLINE), for what Blender's file itself plays

COMPONENTS = {5120: ('b', 127.0), 5121: ('B', 255.0), 5122: ('h', 32767.0), 5123: ('H', 65535.0),
              5125: ('I', None), 5126: ('f', None)}
WIDTH = {'SCALAR': 1, 'VEC2': 2, 'VEC3': 3, 'VEC4': 4, 'MAT4': 16}


def glb_parts(path):
    d = open(path, 'rb').read()
    jl = struct.unpack_from('<I', d, 12)[0]
    doc = json.loads(d[20:20 + jl])
    bl = struct.unpack_from('<I', d, 20 + jl)[0]
    return doc, d[28 + jl:28 + jl + bl]


def glb_accessor(doc, b, i):
    a = doc['accessors'][i]
    v = doc['bufferViews'][a['bufferView']]
    code, norm = COMPONENTS[a['componentType']]
    n = WIDTH[a['type']]
    size = struct.calcsize('<' + code)
    stride = v.get('byteStride', n * size)
    at = v.get('byteOffset', 0) + a.get('byteOffset', 0)
    out = []
    for k in range(a['count']):
        e = struct.unpack_from('<%d%s' % (n, code), b, at + k * stride)
        out.append([max(x / norm, -1.0) if norm and a.get('normalized') else x for x in e])
    return out


def qnorm(q):
    n = math.sqrt(sum(x * x for x in q)) or 1.0
    return [x / n for x in q]


def slerp(a, b, u):
    d = sum(x * y for x, y in zip(a, b))
    if d < 0:
        b, d = [-x for x in b], -d
    if d > 1 - 1e-9:
        return qnorm([x + (y - x) * u for x, y in zip(a, b)])
    th = math.acos(min(d, 1.0))
    wa, wb = math.sin((1 - u) * th) / math.sin(th), math.sin(u * th) / math.sin(th)
    return [wa * x + wb * y for x, y in zip(a, b)]


def sample(times, values, interp, path, t):
    cubic = interp == 'CUBICSPLINE'
    val = (lambda i: values[3 * i + 1]) if cubic else (lambda i: values[i])
    if t <= times[0] or len(times) == 1:
        return list(val(0))
    if t >= times[-1]:
        return list(val(len(times) - 1))
    i = max(k for k in range(len(times)) if times[k] <= t)
    d = times[i + 1] - times[i]
    u = (t - times[i]) / d
    if interp == 'STEP':
        return list(val(i))
    if cubic:
        u2, u3 = u * u, u * u * u
        r = [(2 * u3 - 3 * u2 + 1) * p0 + (u3 - 2 * u2 + u) * d * m0 + (-2 * u3 + 3 * u2) * p1
             + (u3 - u2) * d * m1 for p0, m0, p1, m1 in
             zip(val(i), values[3 * i + 2], val(i + 1), values[3 * i + 3])]
        return qnorm(r) if path == 'rotation' else r
    if path == 'rotation':
        return slerp(val(i), val(i + 1), u)
    return [x + (y - x) * u for x, y in zip(val(i), val(i + 1))]


def trs4(t, q, s):
    x, y, z, w = q
    r = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
         [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
         [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    return [[r[i][0] * s[0], r[i][1] * s[1], r[i][2] * s[2], t[i]] for i in range(3)] + [[0, 0, 0, 1]]


def mul4(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]


def gltf_poses(path, bind, bones, anim_name, frames, fps):
    """Per frame, per bone named by a joint, world_gltf(joint) . IBM . bind (row-major 3x4)."""
    doc, b = glb_parts(path)
    nodes = doc['nodes']
    parent = {c: i for i, n in enumerate(nodes) for c in n.get('children', [])}
    skin = doc['skins'][0]
    ibms = glb_accessor(doc, b, skin['inverseBindMatrices'])
    anim = next(a for a in doc['animations'] if a['name'] == anim_name)
    chans = {}
    for c in anim['channels']:
        sm = anim['samplers'][c['sampler']]
        chans[(c['target']['node'], c['target']['path'])] = (
            [e[0] for e in glb_accessor(doc, b, sm['input'])], glb_accessor(doc, b, sm['output']),
            sm.get('interpolation', 'LINEAR'))
    out = []
    for f in range(frames):
        t = f / fps
        world = {}

        def node_world(i):
            if i in world:
                return world[i]
            n = nodes[i]
            if 'matrix' in n:
                m = n['matrix']
                local = [[m[4 * c + r] for c in range(4)] for r in range(4)]
            else:
                parts = []
                for path, default in (('translation', [0, 0, 0]), ('rotation', [0, 0, 0, 1]),
                                      ('scale', [1, 1, 1])):
                    ch = chans.get((i, path))
                    parts.append(sample(ch[0], ch[1], ch[2], path, t) if ch else n.get(path, default))
                local = trs4(parts[0], qnorm(parts[1]), parts[2])
            world[i] = mul4(node_world(parent[i]), local) if i in parent else local
            return world[i]

        pose = {}
        for j, node in enumerate(skin['joints']):
            name = nodes[node].get('name')
            if name not in bones:
                continue
            k = bones.index(name)
            ibm = [[ibms[j][4 * c + r] for c in range(4)] for r in range(4)]
            bw = [bind[k][4 * r:4 * r + 4] for r in range(3)] + [[0, 0, 0, 1]]
            m = mul4(mul4(node_world(node), ibm), bw)
            pose[k] = [m[r][c] for r in range(3) for c in range(4)]
        out.append(pose)
    return out


def compare_with_gltf(before, after, glb, fps, label):
    """@after (the import of @glb) against @glb's own poses, and the import's loss against
    the original beside what the glTF itself already lost."""
    ok = True
    size = before['size']
    for name, anim in after['animations'].items():
        n = len(anim['frames'])
        poses = gltf_poses(glb, before['bind'], before['bones'], name, n, fps)
        worst = [0.0, 0.0]
        for f in range(n):
            for k, m in poses[f].items():
                ma = anim['frames'][f][k]
                worst[0] = max(worst[0], math.sqrt(sum((ma[4 * i + 3] - m[4 * i + 3]) ** 2
                                                       for i in range(3))) / size)
                worst[1] = max(worst[1], angle_between(ma, m))
        lost = [0.0, 0.0]
        orig = before['animations'][name]['frames']
        for f in range(min(n, len(orig))):
            for k, m in poses[f].items():
                lost[0] = max(lost[0], math.sqrt(sum((orig[f][k][4 * i + 3] - m[4 * i + 3]) ** 2
                                                     for i in range(3))) / size)
                lost[1] = max(lost[1], angle_between(orig[f][k], m))
        bad = worst[0] > POSITION_LIMIT or worst[1] > ROTATION_LIMIT
        doc, _ = glb_parts(glb)
        a = next(a for a in doc['animations'] if a['name'] == name)
        times = doc['accessors'][a['samplers'][0]['input']]
        print('%s %s %-12s against the file Blender wrote (%d key times to %.4f s): position '
              '%.2e of the size, rotation %.2e deg; that file against the original: %.2e, %.2e deg'
              % ('FAIL' if bad else 'ok  ', label, name, times['count'], times['max'][0],
                 worst[0], worst[1], lost[0], lost[1]))
        ok = ok and not bad
    return ok


def run_cli(o, args, quiet=False):
    t0 = time.time()
    p = subprocess.run([o.cli] + args, capture_output=True, text=True)
    dt = time.time() - t0
    if not quiet or p.returncode != 0:
        sys.stdout.write(p.stdout)
        sys.stdout.write(p.stderr)
    return p, dt


def dump_parts(o, bfres):
    p, _ = run_cli(o, ['dump', bfres], quiet=True)
    if p.returncode != 0:
        raise SystemExit('FAIL: tress-cli dump %s exited with %d' % (bfres, p.returncode))
    d = json.loads(p.stdout)
    return d['groups'], {a['name']: a for a in d['animations']}


def run_roundtrip(o, work):
    bass = os.path.join(o.samples, 'bfres', 'Animal_Bass_Animation.bfres')
    model = os.path.join(o.samples, 'bfres', 'Animal_Bass.bfres')
    if not os.path.isfile(bass) or not os.path.isfile(model):
        return absent('the Bass samples are absent from %s' % o.samples, False)
    if shutil.which(o.blender) is None:
        return absent('Blender (%s) is not on PATH' % o.blender, True)
    if not o.pose_dump or not os.path.isfile(o.pose_dump):
        raise SystemExit('FAIL: --pose-dump names no program (%s)' % o.pose_dump)
    glb = export(o.cli, [bass], os.path.join(work, 'bass.glb'))
    before = pose_dump(o, bass)
    script = os.path.join(work, 'roundtrip.py')
    with open(script, 'w') as f:
        f.write(BLENDER_ROUNDTRIP)
    glb24 = export(o.cli, [bass, '--fps', '24'], os.path.join(work, 'bass-24.glb'))
    ok = True
    # (Tress's export rate, Blender's scene rate): the games' 30 fps into a 30 fps scene; into
    # Blender's default 24 fps scene; and exported at 24 fps for a 24 fps scene.
    for export_fps, fps in ((30, 30), (30, 24), (24, 24)):
        tag = '%d-%d' % (export_fps, fps)
        label = '%d fps export, %d fps scene' % (export_fps, fps)
        back = os.path.join(work, 'blender-%s.glb' % tag)
        summary = os.path.join(work, 'blender-%s.json' % tag)
        p = subprocess.run([o.blender, '-b', '--factory-startup', '--python', script, '--',
                            glb if export_fps == 30 else glb24, back, str(fps), summary],
                           capture_output=True, text=True, env=blender_env())
        if p.returncode != 0 or not os.path.isfile(back):
            print(p.stdout[-2000:] + p.stderr[-2000:])
            print('FAIL: Blender did not export %s' % back)
            return 1
        info = json.load(open(summary))
        print('Blender %s, %s: objects %s; actions %s'
              % (info['blender'], label, ', '.join(info['objects']), ', '.join(info['actions'])))
        out = os.path.join(work, 'out-%s.bfres' % tag)
        p, dt = run_cli(o, ['import-gltf', bass, back, '--fps', str(export_fps), '-o', out])
        print('import-gltf --fps %d, %s: exit %d, %.3f s' % (export_fps, label, p.returncode, dt))
        if p.returncode != 0:
            print('FAIL: tress-cli import-gltf exited with %d' % p.returncode)
            return 1
        print('size: %d -> %d bytes' % (os.path.getsize(bass), os.path.getsize(out)))
        # The import says when Blender's file holds fewer poses than the frames imported.
        warned = 'one pose every 1/%d s' % fps in p.stdout
        print('%s %s: the import %s that the glTF holds one pose every 1/%d s'
              % ('ok  ' if warned == (fps < export_fps) else 'FAIL', label,
                 'says' if warned else 'does not say', fps))
        ok = warned == (fps < export_fps) and ok
        if export_fps == fps:
            # Blender's scene keys fall on the file's frames: Blender changed nothing but float
            # rounding, so every animation comes back as the file has it, byte for byte.
            same = open(bass, 'rb').read() == open(out, 'rb').read()
            print('%s %s: the file comes back byte-identical' % ('ok  ' if same else 'FAIL', label))
            ok = same and ok
        p, _ = run_cli(o, ['validate', out])
        if p.returncode != 0:
            print('FAIL: tress-cli validate %s exited with %d' % (out, p.returncode))
            ok = False
        after = pose_dump(o, out, model)
        # Against the original: when the scene's rate is the export's, Blender's file holds
        # every frame, so the import must give the original back. A 30 fps export in a 24 fps
        # scene is resampled by Blender every 1/24 s, stopping at the last whole frame of its
        # own: what changes within a 30 fps frame, and the last fraction of a frame, are not in
        # its file at all (printed: that file against the original), so the import is held to
        # the file Blender wrote.
        ok = compare_poses(before, after, label, required=export_fps == fps) and ok
        ok = compare_with_gltf(before, after, back, float(export_fps), label) and ok

    # One animation imported: everything else stays byte for byte.
    one = os.path.join(work, 'out-jump.bfres')
    p, _ = run_cli(o, ['import-gltf', bass, os.path.join(work, 'blender-30-30.glb'),
                       '--animation', 'Jump', '-o', one], quiet=True)
    if p.returncode != 0:
        sys.stdout.write(p.stdout + p.stderr)
        print('FAIL: import-gltf --animation Jump exited with %d' % p.returncode)
        return 1
    groups_a, anims_a = dump_parts(o, bass)
    groups_b, anims_b = dump_parts(o, one)
    same = groups_a == groups_b and all(anims_a[n] == anims_b.get(n) for n in anims_a if n != 'Jump')
    print('%s --animation Jump: index groups and the %d other animations byte-identical'
          % ('ok  ' if same else 'FAIL', len(anims_a) - 1))
    return 0 if ok and same else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('mode', choices=['validator', 'judge', 'blender', 'roundtrip'])
    ap.add_argument('--cli', required=True)
    ap.add_argument('--samples', required=True)
    ap.add_argument('--validator', required=True, help='the node_modules folder holding gltf-validator')
    ap.add_argument('--judge', default='')
    ap.add_argument('--blender', default='blender')
    ap.add_argument('--pose-dump', default='', help='tests/interchange/pose-dump (roundtrip)')
    o = ap.parse_args()
    o.samples = os.environ.get('TRESS_SAMPLES_DIR', o.samples)
    o.validator = os.environ.get('TRESS_GLTF_VALIDATOR_DIR', o.validator)
    o.judge = os.environ.get('TRESS_GLTF_JUDGE_DIR', o.judge)
    with tempfile.TemporaryDirectory(prefix='tress-gltf-') as work:
        return {'validator': run_validator, 'blender': run_blender, 'judge': run_judge,
                'roundtrip': run_roundtrip}[o.mode](o, work)


if __name__ == '__main__':
    sys.exit(main())
