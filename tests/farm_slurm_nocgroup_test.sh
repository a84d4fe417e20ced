#!/bin/bash
# The private Slurm cluster of the farm test where the host has no cgroup file system, as in
# many containers a build server runs: the same test in a mount namespace whose /sys/fs/cgroup
# is unmounted (slurmd 22.05 failed to start there: "No filesystem mounted on /sys/fs/cgroup").
# Making the namespace needs CAP_SYS_ADMIN (root has it; an unprivileged container or user has
# not) and a root that is a mount point: a probe does the same first, and where it fails the test
# is skipped (exit 77, SKIP_RETURN_CODE in tests/CMakeLists.txt) with the reason.
set -u
: "${MC_TEST_TMP:?MC_TEST_TMP must name a scratch folder}"
# The probe: a private mount namespace (unshare -m makes / private in it) without /sys/fs/cgroup.
if ! why=$(unshare -m bash -c 'umount -l /sys/fs/cgroup 2>&1 || true
    if grep -q " /sys/fs/cgroup" /proc/mounts; then echo "/sys/fs/cgroup stays mounted"; exit 1; fi' 2>&1); then
    echo "SKIP: no mount namespace without /sys/fs/cgroup here (it needs CAP_SYS_ADMIN and a" \
        "root that is a mount point):" \
        "$(echo "$why" | tr '\n' ' ' | sed 's/ *$//')"
    exit 77
fi
export MC_TEST_TMP=$MC_TEST_TMP/nocgroup # its own cluster folder: the two tests may run at once
mkdir -p "$MC_TEST_TMP"
exec unshare -m bash -c 'umount -l /sys/fs/cgroup 2>/dev/null || true
    if grep -q " /sys/fs/cgroup" /proc/mounts; then echo "FAIL: /sys/fs/cgroup still mounted"; exit 1; fi
    exec bash farm_slurm_test.sh'
