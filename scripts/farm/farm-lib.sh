# Shared by the farm scripts (sourced, not run). A farm render lives in one work folder on storage
# every worker sees at the same path:
#   WORK/farm.env        what to render: MD5CINE, SCENE, OUT, EXT and the RENDER_OPTS array
#   WORK/plan.txt        `md5cine plan` text: one chunk a line, "INDEX FIRST-LAST shot(s) ..."
#   WORK/parts/part-IIIII.EXT   chunk INDEX's video (absent until its render completed)
#   WORK/log/            per-task logs of the schedulers
# A PNG pattern OUT has no parts: each chunk writes its own frames straight into OUT's pattern.

farm_err() {
    echo "${FARM_PROG:-farm}: $*" >&2
}

# farm_abs PATH: PATH made absolute (its folder must exist; the file itself need not)
farm_abs() {
    case $1 in
        /*) printf '%s\n' "$1" ;;
        *) printf '%s/%s\n' "$(cd "$(dirname "$1")" && pwd)" "$(basename "$1")" ;;
    esac
}

# farm_find_bin BIN: BIN made absolute, or looked up on PATH when it names no folder
farm_find_bin() {
    case $1 in
        */*) farm_abs "$1" ;;
        *) command -v "$1" || { farm_err "no $1 on PATH (--md5cine BIN)"; return 3; } ;;
    esac
}

# farm_check_work WORK: fails, saying so, unless WORK was prepared (farm.env and plan.txt)
farm_check_work() {
    [ -f "$1/farm.env" ] && [ -f "$1/plan.txt" ] && return 0
    farm_err "$1: no farm.env or plan.txt (not a farm work folder)"
    return 2
}

# farm_prepare WORK MD5CINE SCENE OUT RESUME PLAN_ARGS_COUNT PLAN_ARGS... RENDER_OPTS...
# Writes farm.env and plan.txt, empties parts/ unless RESUME is 1. Returns md5cine's status when
# the plan is refused (exit 2: bad scene or chunk option).
farm_prepare() {
    local work=$1 bin=$2 scene=$3 out=$4 resume=$5 nplan=$6 ext
    shift 6
    local plan_args=("${@:1:$nplan}")
    shift "$nplan"
    # The render options that change the frame count go to the plan too (--fps, --lenient);
    # --frames A-B limits the plan to those frames and is left to each chunk's own --frames (PNG
    # patterns only: md5cine concat joins parts into the whole scene, never a range of it).
    local render_opts=()
    while [ $# -gt 0 ]; do
        case $1 in
            --frames | --frames=*)
                case $out in
                    *%*) ;;
                    *) farm_err "--frames: a joined video holds the whole scene (md5cine" \
                           "concat); render a range to a PNG pattern, or in one process"
                       return 2 ;;
                esac
                ;;&
            --fps | --frames)
                [ $# -ge 2 ] || { farm_err "$1 wants a value"; return 2; }
                plan_args+=("$1" "$2")
                [ "$1" = --fps ] && render_opts+=("$1" "$2")
                shift 2
                ;;
            --fps=*) plan_args+=("$1"); render_opts+=("$1"); shift ;;
            --frames=*) plan_args+=("$1"); shift ;;
            --lenient) plan_args+=("$1"); render_opts+=("$1"); shift ;;
            --audio | --audio=*)
                # Every chunk would write its own piece of the sound over one WAV.
                local a=${1#--audio=}
                [ "$1" = --audio ] && a=${2:-}
                if [ "$a" != off ]; then
                    farm_err "--audio $a: each chunk would write its own piece over it; the" \
                        "joined video carries the sound, and \`md5cine render SCENE -o FILE.wav\`" \
                        "writes the WAV alone"
                    return 2
                fi
                render_opts+=("$1")
                [ "$1" = --audio ] && { render_opts+=("$2"); shift; }
                shift
                ;;
            *) render_opts+=("$1"); shift ;;
        esac
    done
    set -- "${render_opts[@]}"
    mkdir -p "$work/parts" "$work/log" || return 3
    "$bin" plan "$scene" "${plan_args[@]}" >"$work/plan.txt.tmp" || {
        local rc=$?
        rm -f "$work/plan.txt.tmp"
        return $rc
    }
    if [ "$resume" = 1 ] && [ -f "$work/plan.txt" ] &&
        ! cmp -s "$work/plan.txt" "$work/plan.txt.tmp"; then
        farm_err "--resume: the plan differs from the one in $work; not resuming"
        resume=0
    fi
    mv -f "$work/plan.txt.tmp" "$work/plan.txt"
    [ "$resume" = 1 ] || rm -f "$work/parts"/part-* "$work/parts"/.part-*
    case $out in
        *%*) ext=png ;;
        *.*) ext=${out##*.} ;;
        *) ext=mp4 ;;
    esac
    {
        printf 'MD5CINE=%q\nSCENE=%q\nOUT=%q\nEXT=%q\n' "$bin" "$scene" "$out" "$ext"
        printf 'RENDER_OPTS=('
        [ $# -gt 0 ] && printf ' %q' "$@"
        printf ' )\n'
    } >"$work/farm.env.tmp" && mv -f "$work/farm.env.tmp" "$work/farm.env"
}

# farm_chunks WORK: "INDEX FIRST-LAST" for each chunk of the plan
farm_chunks() {
    awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+-[0-9]+$/ { print $1, $2 }' "$1/plan.txt"
}

# farm_count WORK: the number of chunks
farm_count() {
    farm_chunks "$1" | wc -l
}

# farm_part WORK INDEX: the part file of chunk INDEX (after farm.env is sourced)
farm_part() {
    printf '%s/parts/part-%05d.%s\n' "$1" "$2" "$EXT"
}
