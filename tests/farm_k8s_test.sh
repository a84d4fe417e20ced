#!/bin/bash
# scripts/farm/k8s/*.yaml without a cluster: python3's YAML parser reads the manifests and checks
# what Kubernetes would act on (an Indexed Job whose completions equal its CHUNKS and the chunk
# count of `md5cine plan`, a join Job, one shared claim mounted at the same path by both); then
# the render Job's shell script is run once per index with JOB_COMPLETION_INDEX set, as the pods
# would, with /farm moved to a temporary folder, and the join Job's script after them. The
# joined video must have every frame of the scene (ffprobe) and the sound track of a one-process
# render with the pods' options, packet for packet (tests/farm_check.sh): the join Job gives
# concat the render Job's SCENE.
set -u
cd "$(dirname "$0")"
. ./farm_check.sh
K8S=../scripts/farm/k8s
. ./harness.sh farm_k8s
mkdir -p "$T/farm/scene" "$T/bin"

# The manifests' facts, and the scripts to run, in shell-readable form.
python3 - "$K8S" "$T" <<'EOF' || fail "manifest checks"
import sys, yaml, shlex
k8s, t = sys.argv[1], sys.argv[2]
bad = []
def load(name):
    docs = [d for d in yaml.safe_load_all(open(k8s + "/" + name)) if d is not None]
    if len(docs) != 1:
        bad.append("%s: %d documents, want 1" % (name, len(docs)))
    return docs[0]
pvc = load("farm-volume.yaml")
render = load("render-job.yaml")
join = load("join-job.yaml")
if pvc.get("kind") != "PersistentVolumeClaim" or "ReadWriteMany" not in pvc["spec"]["accessModes"]:
    bad.append("farm-volume.yaml: want a ReadWriteMany PersistentVolumeClaim")
for name, job in (("render-job.yaml", render), ("join-job.yaml", join)):
    if job.get("apiVersion") != "batch/v1" or job.get("kind") != "Job":
        bad.append(name + ": not a batch/v1 Job")
    pod = job["spec"]["template"]["spec"]
    if pod.get("restartPolicy") not in ("Never", "OnFailure"):
        bad.append(name + ": a Job's pods need restartPolicy Never or OnFailure")
    claims = {v["name"]: v["persistentVolumeClaim"]["claimName"] for v in pod["volumes"]}
    c = pod["containers"][0]
    mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
    if list(claims.values()) != [pvc["metadata"]["name"]] or list(mounts.values()) != ["/farm"]:
        bad.append(name + ": want the claim %s mounted at /farm, have %s %s" % (pvc["metadata"]["name"], claims, mounts))
    if c["command"][:2] != ["/bin/sh", "-c"] or len(c["command"]) != 3:
        bad.append(name + ": want command [/bin/sh, -c, SCRIPT]")
spec = render["spec"]
env = {e["name"]: e["value"] for e in spec["template"]["spec"]["containers"][0]["env"]}
if spec.get("completionMode") != "Indexed":
    bad.append("render-job.yaml: completionMode %r, want Indexed" % spec.get("completionMode"))
if not isinstance(spec.get("completions"), int) or str(spec["completions"]) != env.get("CHUNKS"):
    bad.append("render-job.yaml: completions %r but CHUNKS %r" % (spec.get("completions"), env.get("CHUNKS")))
if not 1 <= spec.get("parallelism", 1) <= spec["completions"]:
    bad.append("render-job.yaml: parallelism outside 1..completions")
script = spec["template"]["spec"]["containers"][0]["command"][2]
if "JOB_COMPLETION_INDEX" not in script:
    bad.append("render-job.yaml: the script does not read JOB_COMPLETION_INDEX")
jenv = {e["name"]: e["value"] for e in join["spec"]["template"]["spec"]["containers"][0]["env"]}
if jenv.get("SCENE") != env.get("SCENE"):
    bad.append("join-job.yaml: SCENE %r, the render Job's is %r"
               % (jenv.get("SCENE"), env.get("SCENE")))
if '--scene "$SCENE"' not in join["spec"]["template"]["spec"]["containers"][0]["command"][2]:
    bad.append("join-job.yaml: concat is not given --scene \"$SCENE\"")
if join["spec"].get("completions", 1) != 1 or "completionMode" in join["spec"]:
    bad.append("join-job.yaml: want one plain completion")
for b in bad:
    print("k8s: " + b, file=sys.stderr)
def sub(s):
    return s.replace("/farm", t + "/farm")
with open(t + "/facts.sh", "w") as f:
    f.write("COMPLETIONS=%d\n" % spec["completions"])
    for k, v in env.items():
        f.write("R_%s=%s\n" % (k, shlex.quote(sub(v))))
    for k, v in jenv.items():
        f.write("J_%s=%s\n" % (k, shlex.quote(sub(v))))
open(t + "/render.sh", "w").write(sub(script))
open(t + "/join.sh", "w").write(sub(join["spec"]["template"]["spec"]["containers"][0]["command"][2]))
sys.exit(1 if bad else 0)
EOF
[ -f "$T/facts.sh" ] || { echo "FAIL: manifests unreadable" >&2; exit 1; }
. "$T/facts.sh"

# The scene where the manifest looks for it; md5cine on PATH as in the image.
cp -r ../scenes/demo "$T/farm/scene/demo"
ln -s "$(cd "$(dirname "$MD5CINE")" && pwd)/$(basename "$MD5CINE")" "$T/bin/md5cine"
export PATH=$T/bin:$PATH
chunks=$(md5cine plan "$R_SCENE" --chunks "$R_CHUNKS" | wc -l)
[ "$chunks" = "$COMPLETIONS" ] || fail "md5cine plan --chunks $R_CHUNKS gives $chunks chunks, the Job has $COMPLETIONS completions"

# Each pod at a small size (the manifest's RENDER_OPTS are for real renders), then the join.
for ((i = 0; i < COMPLETIONS; i++)); do
    SCENE=$R_SCENE CHUNKS=$R_CHUNKS RENDER_OPTS="--size 160x90 --msaa 0" JOB_COMPLETION_INDEX=$i \
        timeout 120 sh "$T/render.sh" 2>"$T/pod$i.err" || fail "pod $i exited $? ($(cat "$T/pod$i.err"))"
done
SCENE=$R_SCENE CHUNKS=$R_CHUNKS JOB_COMPLETION_INDEX=$COMPLETIONS RENDER_OPTS= \
    sh "$T/render.sh" 2>"$T/podx.err" && fail "an index past the plan rendered"
SCENE=$J_SCENE OUT=$J_OUT timeout 120 sh "$T/join.sh" 2>"$T/join.err" ||
    fail "join exited $? ($(cat "$T/join.err"))"
want=$(md5cine info --json "$R_SCENE" | python3 -c 'import json, sys; print(json.load(sys.stdin)["outputFrames"])')
n=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$J_OUT" 2>/dev/null)
[ "$n" = "$want" ] || fail "joined video has ${n:-no} frames, want $want"
md5cine render "$R_SCENE" --size 160x90 --msaa 0 --quiet -o "$T/single.mp4" ||
    fail "one-process render"
farm_check_sound "$J_OUT" "$T/single.mp4" || fail "joined video's sound"
[ -n "$(audio_packets "$J_OUT")" ] || fail "the joined video has no sound track"

finish
