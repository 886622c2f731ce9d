#!/usr/bin/env python3
"""tress-cli export-gltf checked by tools that are not ours.

  gltf-check.py validator --cli TRESS_CLI --samples DIR --validator NODE_MODULES
  gltf-check.py blender --cli TRESS_CLI --samples DIR --validator NODE_MODULES [--blender blender]
  gltf-check.py judge --cli TRESS_CLI --samples DIR --validator NODE_MODULES --judge DIR
                [--blender blender]

validator: the Khronos glTF validator (npm gltf-validator, installed into .node/ by
tools/install-deps) on the exports of the demo BFRES on its own model (.glb and
.gltf + .bin), and where the samples are there of the Bass sample (.glb and .gltf +
.bin, model found beside the animations), of the demo on the Bass model (--model) and
of the Dog sample (its own skeleton, no mesh): no error and no warning.

blender: the demo's export imported by Blender with its default options: one
armature of the demo's five bones, its three meshes, the body skinned to it with a
vertex group per bone, the Wave animation; posed at 0.5 s and 1.5 s, every vertex of
the body moves and the left hand's tip goes up then down by more than a unit.

judge: ../shared/tools/gltf-judge/judge.py on the Bass export, every animation, and on
the demo's: validator, file checks (names, skin, inverse bind matrices), Blender's
import posed at whole and half frames against the judge's own BFRES evaluator.

The paths come from meson (tests/interchange/meson.build); TRESS_GLTF_VALIDATOR_DIR,
TRESS_GLTF_JUDGE_DIR and TRESS_SAMPLES_DIR override them. Exit 0 pass, 1 fail,
77 skip: only when a tool or the samples are absent, saying which. With
TRESS_REQUIRE_GLTF_TOOLS=1 (CI sets it; tools/install-deps installs them) a missing
Node.js, validator or Blender is a failure instead of a skip."""
import argparse, json, os, shutil, struct, subprocess, sys, tempfile, time

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
    return 0 if validate(o, files) else 1


def blender_env():
    """The environment for Blender: Debian's Blender finds its Python (and the numpy its glTF
    add-on imports) through the first python3 on PATH; this script's own interpreter (a pyenv
    or a venv, say) is left out, as are PYTHONHOME and PYTHONPATH."""
    own = {os.path.dirname(sys.executable), os.path.dirname(os.path.realpath(sys.executable))}
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONHOME', 'PYTHONPATH')}
    env['PATH'] = os.pathsep.join(d for d in env.get('PATH', '').split(os.pathsep) if d not in own)
    return env


def run_blender(o, work):
    if shutil.which(o.blender) is None:
        return absent('Blender (%s) is not on PATH' % o.blender, True)
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('mode', choices=['validator', 'blender', 'judge'])
    ap.add_argument('--cli', required=True)
    ap.add_argument('--samples', required=True)
    ap.add_argument('--validator', required=True, help='the node_modules folder holding gltf-validator')
    ap.add_argument('--judge', default='')
    ap.add_argument('--blender', default='blender')
    o = ap.parse_args()
    o.samples = os.environ.get('TRESS_SAMPLES_DIR', o.samples)
    o.validator = os.environ.get('TRESS_GLTF_VALIDATOR_DIR', o.validator)
    o.judge = os.environ.get('TRESS_GLTF_JUDGE_DIR', o.judge)
    with tempfile.TemporaryDirectory(prefix='tress-gltf-') as work:
        return {'validator': run_validator, 'blender': run_blender, 'judge': run_judge}[o.mode](o, work)


if __name__ == '__main__':
    sys.exit(main())
