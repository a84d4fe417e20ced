#!/bin/bash
# The private Slurm cluster of the farm test where the host has no cgroup file system, as in
# many containers a build server runs: the same test in a mount namespace whose /sys/fs/cgroup
# is unmounted (slurmd 22.05 failed to start there: "No filesystem mounted on /sys/fs/cgroup").
# Needs root, as farm_slurm_test.sh does.
set -u
: "${MC_TEST_TMP:?MC_TEST_TMP must name a scratch folder}"
export MC_TEST_TMP=$MC_TEST_TMP/nocgroup # its own cluster folder: the two tests may run at once
mkdir -p "$MC_TEST_TMP"
exec unshare -m bash -c 'umount -l /sys/fs/cgroup 2>/dev/null || true
    if grep -q " /sys/fs/cgroup" /proc/mounts; then echo "FAIL: /sys/fs/cgroup still mounted"; exit 1; fi
    exec bash farm_slurm_test.sh'
