#!/bin/bash
# Progress in logs (src/cli/progress.h): with stderr not a terminal, `render` prints a line
#   md5cine: frame F (N/K, P%), X fps, elapsed M:SS, ETA M:SS
# every --progress-interval seconds (10 by default; 0: every frame), none in the first
# interval, and a last line without ETA for the count reached when it printed any. On a
# terminal (a pty made by script(1)) `auto` draws the '\r' bar instead. Expected values by hand:
# the boxes scene has 6 output frames (0-5): N/6 is 16, 33, 50, 66, 83, 100 per cent (floored).
set -u
. ./harness.sh progress_log
S=data/render/boxes.md5scene
RE='^md5cine: frame [0-9]+ \([0-9]+/[0-9]+, [0-9]+%\), [0-9]+\.[0-9] fps, elapsed [0-9]+:[0-9][0-9](, ETA [0-9]+:[0-9][0-9])?$'

# progress_lines FILE: "F N/K P%" of each progress line
progress_lines() {
    sed -nE 's/^md5cine: frame ([0-9]+) \(([0-9]+\/[0-9]+), ([0-9]+%)\).*/\1 \2 \3/p' "$1" | paste -sd,
}
same() { # NAME WANT GOT
    if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "want '$2', got '$3'"; fi
}

# ---- every frame: --progress-interval 0 ----------------------------------------------------
run every render "$S" -o "$T/a/%05d.png" --progress log --progress-interval 0
expect log_exits_0 0
same a_line_per_frame "0 1/6 16%,1 2/6 33%,2 3/6 50%,3 4/6 66%,4 5/6 83%,5 6/6 100%" \
    "$(progress_lines "$T/every.err")"
bad=$(grep '^md5cine: frame' "$T/every.err" | grep -vcE "$RE")
same every_line_has_the_form 0 "$bad"
same all_but_the_last_have_an_eta 5 "$(grep -c ', ETA ' "$T/every.err")"
same the_success_line_comes_last "md5cine: wrote '$T/a/%05d.png': 6 frames (0-5), 64x64, 24 fps" \
    "$(tail -n 1 "$T/every.err")"
same nothing_on_stdout "" "$(cat "$T/every.out")"

# --frames 2-4: output frame numbers from 2, counts of 3
run range render "$S" -o "$T/b/%05d.png" --frames 2-4 --progress log --progress-interval=0
same frames_2_to_4 "2 1/3 33%,3 2/3 66%,4 3/3 100%" "$(progress_lines "$T/range.err")"

# ---- auto: log lines when stderr is a file, the bar on a terminal ---------------------------
run auto render "$S" -o "$T/c/%05d.png" --progress-interval 0
same auto_off_a_terminal_is_the_log "0 1/6 16%,1 2/6 33%,2 3/6 50%,3 4/6 66%,4 5/6 83%,5 6/6 100%" \
    "$(progress_lines "$T/auto.err")"
same auto_off_a_terminal_draws_no_bar 0 "$(tr -cd '\r' <"$T/auto.err" | wc -c)"
script -qec "'$MD5CINE' render '$S' -o '$T/d/%05d.png' --progress-interval 0" /dev/null \
    >"$T/tty.txt" 2>&1
if grep -q $'\rframe 6/6 \[#' "$T/tty.txt" && ! grep -q '^md5cine: frame' "$T/tty.txt"; then
    ok auto_on_a_terminal_draws_the_bar
else
    fail auto_on_a_terminal_draws_the_bar "$(od -c "$T/tty.txt" | head -5)"
fi
# log on a terminal: lines, not the bar
script -qec "'$MD5CINE' render '$S' -o '$T/e/%05d.png' --progress log --progress-interval 0" \
    /dev/null >"$T/tty_log.txt" 2>&1
if [ "$(grep -c '^md5cine: frame' "$T/tty_log.txt")" = 6 ] && ! grep -q $'\rframe' "$T/tty_log.txt"; then
    ok log_on_a_terminal_prints_lines
else
    fail log_on_a_terminal_prints_lines "$(head -c 400 "$T/tty_log.txt")"
fi

# ---- nothing in the first interval; none, quiet and json print no log line -----------------
run long render "$S" -o "$T/f/%05d.png" --progress-interval 3600
same no_line_before_the_first_interval "md5cine: wrote '$T/f/%05d.png': 6 frames (0-5), 64x64, 24 fps" \
    "$(cat "$T/long.err")"
for mode in none json; do
    run "$mode" render "$S" -o "$T/g$mode/%05d.png" --progress "$mode" --progress-interval 0
    same "${mode}_prints_no_log_line" 0 "$(grep -c '^md5cine: frame' "$T/$mode.err")"
done
same json_still_ends_with_frame_5 '{"frame":5,"done":6,"total":6,' \
    "$(grep '^{"frame"' "$T/json.out" | tail -n 1 | cut -d, -f1-3),"
run quiet render "$S" -o "$T/h/%05d.png" --quiet --progress-interval 0
same quiet_prints_nothing "" "$(cat "$T/quiet.err")"

# ---- steady in time: at most one line per interval, however many frames ---------------------
# 3000 frames of a still box (about 2000 a second here); every 0.2 s: the lines are at most the
# intervals the whole run lasted (measured around it) and one more, far fewer than the frames.
t0=$(date +%s.%N)
run steady render data/render/long.md5scene -o "$T/steady.y4m" --frames 0-2999 --size 32x32 \
    --msaa 0 --progress log --progress-interval 0.2
t1=$(date +%s.%N)
expect steady_exits_0 0
n=$(grep -c '^md5cine: frame' "$T/steady.err")
most=$(python3 -c "import math; print(math.floor(($t1 - $t0) / 0.2) + 1)")
if [ "$n" -ge 2 ] && [ "$n" -le "$most" ] && [ "$n" -lt 3000 ]; then
    ok "at_most_one_line_per_interval ($n lines in $(python3 -c "print(round($t1 - $t0, 1))") s)"
else
    fail at_most_one_line_per_interval "$n lines, at most $most"
fi
last=$(grep '^md5cine: frame' "$T/steady.err" | tail -n 1)
same the_last_line_is_the_end "md5cine: frame 2999 (3000/3000, 100%)" "$(sed -E 's/^(.*\)), .*/\1/' <<<"$last")"
counts=$(sed -nE 's/^md5cine: frame [0-9]+ \(([0-9]+)\/.*/\1/p' "$T/steady.err" | paste -sd' ')
sorted=$(tr ' ' '\n' <<<"$counts" | sort -n | uniq | paste -sd' ')
same the_counts_rise "$sorted" "$counts"

# ---- the option's values -------------------------------------------------------------------
run neg render "$S" -o "$T/x.mp4" --progress-interval -1
expect negative_interval_is_refused 2 "" "bad --progress-interval '-1'"
run word render "$S" -o "$T/x.mp4" --progress bar
expect unknown_mode_is_refused 2 "" "bad --progress 'bar': expected auto, log, json or none"

finish
