#!/bin/bash
# A test that needs a capability this machine lacks is skipped with the reason, never failed:
# tests/farm_slurm_nocgroup_test.sh run without CAP_SYS_ADMIN (what an unprivileged container or
# user lacks) exits 77, the SKIP_RETURN_CODE ctest counts as skipped, and says why on stdout,
# before it starts anything. As root the capability is dropped for it with setpriv (from the
# bounding set, so no program it runs gets it back; it stays root, so it can still write to the
# build folder); a user without it runs it as it is.
set -u
cd "$(dirname "$0")"
. ./harness.sh capability_skip

has_sys_admin() { # CAP_SYS_ADMIN is bit 21 of the effective set
    local eff
    eff=$(awk '$1 == "CapEff:" { print $2 }' /proc/self/status)
    [ $(((16#$eff >> 21) & 1)) -eq 1 ]
}
# The first way, of these, under which no mount namespace can be made: as it is (a user without
# the capability, or a container whose root is no mount point), without the capability in the
# bounding set (root), in a user namespace of its own (where setpriv may not drop it).
drop=()
if unshare -m true 2>/dev/null; then
    drop=(setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin)
    if ! has_sys_admin || ! "${drop[@]}" true 2>/dev/null ||
        "${drop[@]}" unshare -m true 2>/dev/null; then
        drop=(unshare --user)
    fi
fi

# The premise: that way, no mount namespace can be made; unshare says why.
if why=$("${drop[@]}" unshare -m true 2>&1); then
    fail premise "unshare -m still works with '${drop[*]}'"
else
    ok premise
fi

MC_TEST_TMP=$T "${drop[@]}" bash farm_slurm_nocgroup_test.sh >"$T/skip.out" 2>"$T/skip.err"
rc=$?
last=skip
expect nocgroup_test_exits_77 77 \
    "SKIP: no mount namespace without /sys/fs/cgroup here (it needs CAP_SYS_ADMIN and a root that is a mount point): $why"
if [ "$(wc -l <"$T/skip.out")" -eq 1 ] && [ ! -s "$T/skip.err" ]; then
    ok reason_is_one_line_on_stdout
else
    fail reason_is_one_line_on_stdout "stdout: $(cat "$T/skip.out"); stderr: $(cat "$T/skip.err")"
fi
if [ -e "$T/nocgroup" ]; then
    fail nothing_started "the cluster folder $T/nocgroup was made"
else
    ok nothing_started
fi

finish
