#!/usr/bin/env python3
"""tress-cli export-gltf checked by tools that are not ours.

  gltf-check.py validator --cli TRESS_CLI --samples DIR --validator NODE_MODULES
  gltf-check.py judge --cli TRESS_CLI --samples DIR --validator NODE_MODULES --judge DIR
                [--blender blender]
  gltf-check.py roundtrip --cli TRESS_CLI --samples DIR --validator NODE_MODULES
                --pose-dump POSE_DUMP [--blender blender]

validator: the Khronos glTF validator (npm gltf-validator, installed into .node/ by
tools/install-deps) on the exports of the Bass sample (.glb and .gltf + .bin, model
found beside the animations), of the demo BFRES on the Bass model (--model) and of
the Dog sample (its own skeleton, no mesh): no error and no warning.

judge: ../shared/tools/gltf-judge/judge.py on the Bass export, every animation:
validator, file checks (names, skin, inverse bind matrices), Blender's import posed
at whole and half frames against the judge's own BFRES evaluator.

roundtrip: the import back from Blender. Blender imports the Bass export and exports it
again with its default glTF options, the scene at 30 and then 24 fps; tress-cli import-gltf
brings that file back into Animal_Bass_Animation.bfres; the result must validate (tress-cli
validate), and every animation, posed by the preview's code (tests/interchange/pose-dump.c),
must match at every frame, within positions 1e-3 of the skeleton's size and rotations 0.5
degrees (the largest errors are printed per animation): the file Blender wrote (posed by this
script's own glTF evaluator through world . IBM . bind), and at 30 fps the original too. At 24
fps Blender resamples every 1/24 s and drops the last fraction of a frame, so what the Bass
animations do within a 30 fps frame is not in its file: the errors against the original are
printed, with what Blender's file itself lost beside them. An import of one animation
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


def run_validator(o, work):
    node = shutil.which('node')
    package = os.path.join(o.validator, 'gltf-validator')
    if node is None:
        return absent('Node.js (node) is not on PATH', True)
    if not os.path.isfile(os.path.join(package, 'package.json')):
        return absent('the glTF validator is not in %s (run tools/install-deps)' % o.validator, True)
    files = []
    bass = os.path.join(o.samples, 'bfres', 'Animal_Bass_Animation.bfres')
    model = os.path.join(o.samples, 'bfres', 'Animal_Bass.bfres')
    dog = os.path.join(o.samples, 'bfres', 'Animal_Dog_Animation.bfres')
    demo = os.path.join(work, 'demo.bfres')
    if not os.path.isfile(bass) or not os.path.isfile(model):
        return absent('the Bass samples are absent from %s' % o.samples, False)
    files.append(export(o.cli, [bass], os.path.join(work, 'bass.glb')))
    files.append(export(o.cli, [bass], os.path.join(work, 'bass split.gltf')))
    subprocess.run([o.cli, 'generate-demo', 'bfres', '-o', demo], check=True)
    files.append(export(o.cli, [demo, '--model', model], os.path.join(work, 'demo-on-bass.glb')))
    if os.path.isfile(dog):
        files.append(export(o.cli, [dog], os.path.join(work, 'dog.glb')))
    ok = True
    for f in files:
        p = subprocess.run([node, '-e', VALIDATE_JS, os.path.abspath(package), f],
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
    glb = export(o.cli, [bass], os.path.join(work, 'bass.glb'))
    names = animation_names(glb)
    print('judging %d animations: %s' % (len(names), ', '.join(names)))
    p = subprocess.run([sys.executable, judge, model, bass, glb] + names
                       + ['--validator', o.validator, '--blender', o.blender,
                          '--workdir', os.path.join(work, 'judge')],
                       capture_output=True, text=True)
    sys.stdout.write(p.stdout)
    sys.stdout.write(p.stderr[-3000:])
    if p.returncode != 0:
        print('FAIL: judge.py exited with %d' % p.returncode)
        return 1
    return 0


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


def read_glb(path):
    d = open(path, 'rb').read()
    jl = struct.unpack_from('<I', d, 12)[0]
    doc = json.loads(d[20:20 + jl])
    bl = struct.unpack_from('<I', d, 20 + jl)[0]
    return doc, d[28 + jl:28 + jl + bl]


def accessor(doc, b, i):
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


def trs(t, q, s):
    x, y, z, w = q
    r = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
         [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
         [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    return [[r[i][0] * s[0], r[i][1] * s[1], r[i][2] * s[2], t[i]] for i in range(3)] + [[0, 0, 0, 1]]


def mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]


def gltf_poses(path, bind, bones, anim_name, frames, fps):
    """Per frame, per bone named by a joint, world_gltf(joint) . IBM . bind (row-major 3x4)."""
    doc, b = read_glb(path)
    nodes = doc['nodes']
    parent = {c: i for i, n in enumerate(nodes) for c in n.get('children', [])}
    skin = doc['skins'][0]
    ibms = accessor(doc, b, skin['inverseBindMatrices'])
    anim = next(a for a in doc['animations'] if a['name'] == anim_name)
    chans = {}
    for c in anim['channels']:
        sm = anim['samplers'][c['sampler']]
        chans[(c['target']['node'], c['target']['path'])] = (
            [e[0] for e in accessor(doc, b, sm['input'])], accessor(doc, b, sm['output']),
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
                local = trs(parts[0], qnorm(parts[1]), parts[2])
            world[i] = mul(node_world(parent[i]), local) if i in parent else local
            return world[i]

        pose = {}
        for j, node in enumerate(skin['joints']):
            name = nodes[node].get('name')
            if name not in bones:
                continue
            k = bones.index(name)
            ibm = [[ibms[j][4 * c + r] for c in range(4)] for r in range(4)]
            bw = [bind[k][4 * r:4 * r + 4] for r in range(3)] + [[0, 0, 0, 1]]
            m = mul(mul(node_world(node), ibm), bw)
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
        doc, _ = read_glb(glb)
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


def blender_env():
    """The environment without this interpreter's own folders on PATH (pyenv, venv put them
    first), which would make Blender's Python load modules of another version."""
    env = dict(os.environ)
    own = {os.path.dirname(sys.executable), os.path.dirname(os.path.realpath(sys.executable))}
    env['PATH'] = os.pathsep.join(p for p in env.get('PATH', '').split(os.pathsep)
                                  if p not in own and 'pyenv' not in p)
    for k in ('PYTHONHOME', 'PYTHONPATH'):
        env.pop(k, None)
    return env


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
    ok = True
    for fps in (30, 24):
        back = os.path.join(work, 'blender-%d.glb' % fps)
        summary = os.path.join(work, 'blender-%d.json' % fps)
        p = subprocess.run([o.blender, '-b', '--factory-startup', '--python', script, '--',
                            glb, back, str(fps), summary], capture_output=True, text=True,
                           env=blender_env())
        if p.returncode != 0 or not os.path.isfile(back):
            print(p.stdout[-2000:] + p.stderr[-2000:])
            print('FAIL: Blender did not export %s' % back)
            return 1
        info = json.load(open(summary))
        print('Blender %s at %d fps: objects %s; actions %s'
              % (info['blender'], fps, ', '.join(info['objects']), ', '.join(info['actions'])))
        out = os.path.join(work, 'out-%d.bfres' % fps)
        p, dt = run_cli(o, ['import-gltf', bass, back, '-o', out])
        print('import-gltf at %d fps: exit %d, %.3f s' % (fps, p.returncode, dt))
        if p.returncode != 0:
            print('FAIL: tress-cli import-gltf exited with %d' % p.returncode)
            return 1
        print('size: %d -> %d bytes' % (os.path.getsize(bass), os.path.getsize(out)))
        p, _ = run_cli(o, ['validate', out])
        if p.returncode != 0:
            print('FAIL: tress-cli validate %s exited with %d' % (out, p.returncode))
            ok = False
        after = pose_dump(o, out, model)
        # Against the original: at 30 fps Blender's file holds every frame, so the import must
        # give the original back. At 24 fps Blender samples every 1/24 s and stops at the last
        # whole frame of its own: what changes within a 30 fps frame, and the last fraction of
        # a frame, are not in its file at all (printed: that file against the original), so
        # the import is held to the file Blender wrote.
        ok = compare_poses(before, after, '%d fps' % fps, required=fps == 30) and ok
        ok = compare_with_gltf(before, after, back, 30.0, '%d fps' % fps) and ok

    # One animation imported: everything else stays byte for byte.
    one = os.path.join(work, 'out-jump.bfres')
    p, _ = run_cli(o, ['import-gltf', bass, os.path.join(work, 'blender-30.glb'),
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
    ap.add_argument('mode', choices=['validator', 'judge', 'roundtrip'])
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
        if o.mode == 'roundtrip':
            return run_roundtrip(o, work)
        return run_validator(o, work) if o.mode == 'validator' else run_judge(o, work)


if __name__ == '__main__':
    sys.exit(main())
