#!/usr/bin/env python3
"""tress-cli export-gltf checked by tools that are not ours.

  gltf-check.py validator --cli TRESS_CLI --samples DIR --validator NODE_MODULES
  gltf-check.py judge --cli TRESS_CLI --samples DIR --validator NODE_MODULES --judge DIR
                [--blender blender]

validator: the Khronos glTF validator (npm gltf-validator, installed into .node/ by
tools/install-deps) on the exports of the Bass sample (.glb and .gltf + .bin, model
found beside the animations), of the demo BFRES on the Bass model (--model) and of
the Dog sample (its own skeleton, no mesh): no error and no warning.

judge: ../shared/tools/gltf-judge/judge.py on the Bass export, every animation:
validator, file checks (names, skin, inverse bind matrices), Blender's import posed
at whole and half frames against the judge's own BFRES evaluator.

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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('mode', choices=['validator', 'judge'])
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
        return run_validator(o, work) if o.mode == 'validator' else run_judge(o, work)


if __name__ == '__main__':
    sys.exit(main())
