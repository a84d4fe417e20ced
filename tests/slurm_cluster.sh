# A private single-node Slurm cluster on loopback, for tests/farm_slurm_test.sh and
# bench/farm_bench.sh (sourced, not run). Everything it starts lives under one folder (its
# sockets aside, below): its own munge key, slurm.conf, state, logs and PID files, and two free
# TCP ports. The daemons are started in the foreground (-D, --foreground) as background
# children, so no init system is needed, and are stopped by their PIDs; each runs under
# `timeout` ($SLURM_CLUSTER_LIFETIME seconds, default 1200), so even a caller killed outright
# leaves none.
#
#   slurm_cluster_start DIR   starts munged, slurmctld and slurmd; exports SLURM_CONF; returns
#                             once the node accepts jobs (bounded: fails with the log tails)
#   slurm_cluster_stop        cancels the cluster's jobs, stops the three daemons by PID
#   slurm_wait_job ID SECONDS waits for a job (every task of an array) to leave the queue, then
#                             prints its final states from scontrol; fails after SECONDS
#   slurm_cluster_logs        prints the tails of the daemons' logs (to stderr)
# SlurmUser and SlurmdUser are the user running it (root in the test container).
# The Unix sockets (munged's, and the ones slurmstepd makes in the spool folder) live in a short
# folder of their own under /tmp instead: a socket path is limited to 108 bytes, and a build tree
# nested a few folders deep passes that (slurmstepd then dies with "Unix socket path ... is too
# long" and every job is requeued for ever). slurm_cluster_stop removes it.

SLURM_CLUSTER_DIR=
SLURM_CLUSTER_RUN=
SLURM_CLUSTER_PIDS=()

slurm_cluster_logs() {
    local f
    for f in "$SLURM_CLUSTER_DIR"/log/*.log; do
        [ -f "$f" ] || continue
        echo "--- tail of $f" >&2
        tail -n 25 "$f" >&2
    done
}

# free_port: a TCP port on 127.0.0.1 nobody listens on now
slurm_free_port() {
    python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# slurm_munged_start DIR RUN: munged with DIR's key, its socket in RUN; returns once it listens
slurm_munged_start() {
    local d=$1 r=$2 i
    mkdir -p "$d/munge"
    chmod 700 "$d/munge"
    head -c 1024 /dev/urandom >"$d/munge/munge.key"
    chmod 600 "$d/munge/munge.key"
    # --force: the folders above the key (a build tree) are not the ones munged is strict about.
    timeout -k 5 "${SLURM_CLUSTER_LIFETIME:-1200}" munged --foreground --force \
        --socket="$r/munge.socket" --key-file="$d/munge/munge.key" \
        --pid-file="$d/munge/munged.pid" --seed-file="$d/munge/munge.seed" \
        --log-file="$d/log/munged.log" >>"$d/log/munged.out" 2>&1 &
    SLURM_CLUSTER_PIDS+=($!)
    for ((i = 0; i < 100; i++)); do
        [ -S "$r/munge.socket" ] && break
        sleep 0.1
    done
    [ -S "$r/munge.socket" ] || { echo "slurm_cluster: munged did not start" >&2; slurm_cluster_logs; return 1; }
}

# slurm_cluster_conf DIR RUN: DIR/slurm.conf (two free ports, this machine as node localhost)
# and DIR/cgroup.conf
slurm_cluster_conf() {
    local d=$1 r=$2 node ctld_port slurmd_port
    ctld_port=$(slurm_free_port)
    slurmd_port=$(slurm_free_port)
    while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(slurm_free_port); done
    # The node line from what slurmd sees (CPUs, sockets, cores, memory), named localhost.
    node=$(slurmd -C | head -n 1 | sed -e 's/^NodeName=[^ ]*/NodeName=localhost NodeAddr=127.0.0.1/')
    cat >"$d/slurm.conf" <<EOF
ClusterName=mcfarm
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
AuthInfo=socket=$r/munge.socket
CredType=cred/munge
StateSaveLocation=$d/state
SlurmdSpoolDir=$r/spool/%n
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
MinJobAge=300
SlurmctldTimeout=30
SlurmdTimeout=30
$node State=UNKNOWN
PartitionName=farm Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
    # No cgroup is used (proctrack/linuxproc, task/none, no accounting), but slurmd 22.05 still
    # loads its cgroup plugin at start, and the default (autodetect) fails where no cgroup file
    # system is mounted, as in many containers. The v1 plugin named outright with a mount point
    # of our own only looks there when a cgroup is asked for, which never happens here.
    mkdir -p "$d/cgroup"
    cat >"$d/cgroup.conf" <<EOF
CgroupPlugin=cgroup/v1
CgroupMountpoint=$d/cgroup
CgroupAutomount=no
ConstrainCores=no
ConstrainRAMSpace=no
ConstrainDevices=no
EOF
}

slurm_cluster_start() {
    local d=$1 i r
    SLURM_CLUSTER_DIR=$d
    r=$(mktemp -d /tmp/mcslurm.XXXXXX) || return 1
    SLURM_CLUSTER_RUN=$r
    mkdir -p "$d/state" "$r/spool" "$d/log"
    slurm_munged_start "$d" "$r" || return 1
    slurm_cluster_conf "$d" "$r"
    export SLURM_CONF=$d/slurm.conf
    timeout -k 5 "${SLURM_CLUSTER_LIFETIME:-1200}" slurmctld -D -i -f "$SLURM_CONF" >"$d/log/slurmctld.out" 2>&1 &
    SLURM_CLUSTER_PIDS+=($!)
    timeout -k 5 "${SLURM_CLUSTER_LIFETIME:-1200}" slurmd -D -N localhost -f "$SLURM_CONF" >"$d/log/slurmd.out" 2>&1 &
    SLURM_CLUSTER_PIDS+=($!)

    # Up when the node is idle (bounded: 60 s).
    for ((i = 0; i < 120; i++)); do
        if sinfo -h -n localhost -o '%t' 2>/dev/null | grep -qx 'idle'; then
            return 0
        fi
        sleep 0.5
    done
    echo "slurm_cluster: the node did not become idle within 60 s" >&2
    sinfo -N -l >&2 2>&1 || true
    slurm_cluster_logs
    return 1
}

slurm_cluster_stop() {
    local pid i alive
    [ -n "$SLURM_CLUSTER_DIR" ] || return 0
    if [ -n "${SLURM_CONF:-}" ] && [ ${#SLURM_CLUSTER_PIDS[@]} -ge 3 ]; then
        scancel --quiet --user="$(id -un)" 2>/dev/null || true
        # Give running steps a moment to be killed by slurmd before it goes (bounded: 10 s).
        for ((i = 0; i < 20; i++)); do
            [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
            sleep 0.5
        done
    fi
    # Reverse start order: slurmd, slurmctld, munged.
    for ((i = ${#SLURM_CLUSTER_PIDS[@]} - 1; i >= 0; i--)); do
        kill "${SLURM_CLUSTER_PIDS[$i]}" 2>/dev/null || true
    done
    for ((i = 0; i < 50; i++)); do
        alive=0
        for pid in "${SLURM_CLUSTER_PIDS[@]}"; do
            kill -0 "$pid" 2>/dev/null && alive=1
        done
        [ $alive -eq 0 ] && break
        sleep 0.1
    done
    for pid in "${SLURM_CLUSTER_PIDS[@]}"; do
        kill -9 "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    SLURM_CLUSTER_PIDS=()
    SLURM_CLUSTER_DIR=
    case "$SLURM_CLUSTER_RUN" in /tmp/mcslurm.*) rm -rf "$SLURM_CLUSTER_RUN" ;; esac
    SLURM_CLUSTER_RUN=
}

slurm_wait_job() {
    local id=$1 limit=$2 start=$SECONDS
    while [ -n "$(squeue -h -j "$id" -o %i 2>/dev/null)" ]; do
        if [ $((SECONDS - start)) -ge "$limit" ]; then
            echo "slurm_cluster: job $id still queued after $limit s" >&2
            squeue -j "$id" >&2 2>&1 || true
            slurm_cluster_logs
            return 1
        fi
        sleep 0.5
    done
    scontrol -o show job "$id" 2>/dev/null |
        sed -n 's/.*JobId=\([0-9]*\) .*JobState=\([A-Z_]*\).*ExitCode=\([0-9:]*\).*/\1 \2 \3/p'
}
