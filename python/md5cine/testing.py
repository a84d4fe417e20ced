"""Frame regression checks for pytest (or any test runner).

    from md5cine.testing import assert_frames_match

    def test_intro_cut_scene(tmp_path):
        assert_frames_match("cuts/intro.md5scene", "golden/intro", frames=range(0, 48, 8),
                            width=320, height=180, max_failing_share=0.001)

renders the frames and checks them against the reference (a folder of %05d.png, a PNG or a
video) with the same checker and limits as `md5cine render --reference`. When a frame does not
pass it writes the failing frames, their diff images and an HTML report and raises
AssertionError naming them. The fixture `md5cine_frames` (md5cine/pytest_plugin.py, which
pytest loads by itself from the installed package's entry point) is the same function with the
output folder under pytest's tmp_path. With `pytest --md5cine-regen` (or regen=True) the
references are written instead: each frame missing from the reference folder, or failing, is
written there and the call raises AssertionError saying how many it wrote and where.

The sound has two assertions of its own:

    from md5cine.testing import assert_sound_matches, assert_sound_events

    def test_intro_sound(tmp_path):
        assert_sound_matches("cuts/intro.md5scene", "golden/intro.wav", max_onset_ms=10)
        assert_sound_events("cuts/intro.md5scene", [
            {"frame": 96, "actor": "guard", "shader": "guard_line", "channel": "voice"}],
            where=lambda e: e.command == "cue")

assert_sound_matches compares a scene's mix (or a video's or WAV's sound) with a reference WAV
(or video) by md5cine.compare_sound, the comparison of `md5cine compare`: every onset within
max_onset_ms of its pair, the RMS of the difference under max_rms_db. assert_sound_events
checks the scene's sound events (Scene.sound().events, as `md5cine info --timeline` lists
them) field by field. The fixture `md5cine_sound` is assert_sound_matches with its output
folder under pytest's tmp_path; --md5cine-regen writes a reference WAV that is missing or does
not match, as it writes frames.
"""

import math
import os
import shutil
import sys
import tempfile

import md5cine

# Keywords of assert_frames_match that go to the Renderer; every other one is a limit or a
# RefCheck setting (mask, ignore, offset).
_RENDER_KEYS = ("width", "height", "fps", "clock", "msaa", "shading", "fov_mode", "background",
                "overlay", "backend", "gl_device", "developer_images")


# References --md5cine-regen cannot write: it writes PNGs into a folder.
_FILE_SUFFIXES = (".png", ".mp4", ".mkv", ".mov", ".y4m", ".webm", ".avi")


def _regen_requested():
    plugin = sys.modules.get("md5cine.pytest_plugin")
    return bool(getattr(plugin, "REGEN", False))


def assert_frames_match(scene, reference, frames=None, out_dir=None, lenient=False, regen=None,
                        **kw):
    """Renders frames (output frame numbers; None: every frame) of scene (a path or an
    md5cine.Scene) and checks them against reference. Renderer settings (width, height, fps,
    clock, msaa, shading, background, backend ...) and limits (threshold, max_failing_share,
    max_diff, min_ssim, min_psnr, min_block_psnr, max_block_bias, lossy, mask, ignore, offset)
    are keywords. out_dir: where the diff images ("diff/") and the report ("report/") go on
    failure; None: a new temporary folder, removed when every frame passes. regen: write the
    frames missing from the reference folder, or failing, into it and raise AssertionError
    naming how many were written (None: as pytest's --md5cine-regen says, else False). Returns
    the finished md5cine.RefCheck."""
    __tracebackhide__ = True  # pytest shows the caller's line, not this function's
    if regen is None:
        regen = _regen_requested()
    if regen:
        if os.fspath(reference).lower().endswith(_FILE_SUFFIXES):
            raise AssertionError(
                "md5cine: --md5cine-regen writes a folder of PNGs, and %s is a file: make it "
                "with `md5cine render SCENE -o %s`, or name a folder" % (reference, reference))
        kw["update"] = True
    render_kw = {k: kw.pop(k) for k in _RENDER_KEYS if k in kw}
    own = not isinstance(scene, md5cine.Scene)
    sc = md5cine.Scene(scene, lenient=lenient) if own else scene
    try:
        out = os.fspath(out_dir) if out_dir is not None else tempfile.mkdtemp(prefix="md5cine-")
        os.makedirs(out, exist_ok=True)
        diff_dir = os.path.join(out, "diff")
        report_dir = os.path.join(out, "report")
        with sc.renderer(**render_kw) as r:
            check = r.check(reference, frames=frames, diff_dir=diff_dir, report_dir=report_dir,
                            **kw)
    finally:
        if own:
            sc.close()
    if check.ok and out_dir is None:
        shutil.rmtree(out, ignore_errors=True)
    if regen and check.summary["written"]:
        s = check.summary
        raise AssertionError(
            "md5cine: --md5cine-regen wrote %d of %d reference frames into %s (missing or not "
            "passing); look at them, then run the tests again without --md5cine-regen" % (
                s["written"], s["checked"], reference))
    if not check.ok:
        s = check.summary
        raise AssertionError(
            "md5cine: %d of %d frames of %s do not match %s\n%s\n"
            "diff images: %s\nreport: %s" % (
                s["checked"] - s["passed"], s["checked"], sc.path, reference, check.table,
                diff_dir, check.report_path))
    return check


# --- sound ----------------------------------------------------------------------------------

_SCENE_SUFFIX = ".md5scene"


def _sound_table(res):
    """The rows of a failed sound comparison: each pair over the onset limit and each onset
    without a pair, in A's time, then the levels."""
    lines = []
    for a, b, off in res.pairs:
        if abs(off) > res.max_onset_ms:
            lines.append("  onset %10.2f ms in A, %10.2f ms in B: %+.2f ms (limit %.2f ms)" % (
                a, b, off, res.max_onset_ms))
    for side, onsets in (("A", res.unpaired_a_ms), ("B", res.unpaired_b_ms)):
        for t in onsets:
            lines.append("  onset %10.2f ms in %s only (none within 200 ms in %s)" % (
                t, side, "B" if side == "A" else "A"))
    def db(v):
        return "silent" if math.isinf(v) and v < 0 else "%.2f dBFS" % v
    lines.append("  RMS difference %s (limit %s; A %s, B %s)" % (
        db(res.rms_diff_db), db(res.max_rms_db), db(res.rms_a_db), db(res.rms_b_db)))
    return "\n".join(lines)


def _candidate_sound(source, out, fps, clock, strict, lenient):
    """The file whose sound is compared: a scene's mix written to out/sound.wav, or source
    itself (a video or a WAV)."""
    if isinstance(source, md5cine.Scene) or os.fspath(source).endswith(_SCENE_SUFFIX):
        own = not isinstance(source, md5cine.Scene)
        sc = md5cine.Scene(source, lenient=lenient) if own else source
        try:
            snd = sc.sound(fps=fps, clock=clock, strict=strict)
            name = sc.path
        finally:
            if own:
                sc.close()
        wav = os.path.join(out, "sound.wav")
        snd.write_wav(wav)
        return wav, name, True
    return os.fspath(source), os.fspath(source), False


def assert_sound_matches(source, reference, max_onset_ms=None, max_rms_db=None, fps=None,
                         clock="ideal", strict=False, lenient=False, out_dir=None, regen=None):
    """Checks the sound of source against reference (a WAV or a video) as `md5cine compare`
    compares two videos' sound (md5cine.compare_sound): every onset of one paired with one of
    the other within max_onset_ms (default 10), none left without a pair, and the RMS of the
    difference at most max_rms_db (dBFS, default -30). source: a scene (a path ending
    .md5scene or an md5cine.Scene), whose whole timeline is mixed at fps (None: the scene's)
    and written to out_dir/sound.wav, as `md5cine render SCENE -o sound.wav` writes it; or a
    video or WAV, taken as it is. out_dir: None makes a temporary folder, removed when the sound
    matches. regen (None: as pytest's --md5cine-regen says): a scene's WAV is written to
    reference when reference is missing or does not match, and the call raises AssertionError
    saying so. Raises AssertionError naming the pairs over the limit, the onsets without a pair
    and the levels; md5cine.Error when a file cannot be read. Returns the md5cine.AudioResult
    (None when neither side has a sound track)."""
    __tracebackhide__ = True
    if regen is None:
        regen = _regen_requested()
    ref = os.fspath(reference)
    out = os.fspath(out_dir) if out_dir is not None else tempfile.mkdtemp(prefix="md5cine-")
    os.makedirs(out, exist_ok=True)
    cand, name, from_scene = _candidate_sound(source, out, fps, clock, strict, lenient)
    if regen and not from_scene:
        raise AssertionError(
            "md5cine: --md5cine-regen writes a scene's sound, and %s is no scene: make %s with "
            "`md5cine render SCENE -o %s`" % (name, ref, ref))
    if not os.path.exists(ref) and not regen:
        raise AssertionError(
            "md5cine: no reference sound %s: make it with `md5cine render SCENE -o %s`, or run "
            "pytest --md5cine-regen" % (ref, ref))
    res = md5cine.compare_sound(ref, cand, max_onset_ms, max_rms_db) \
        if os.path.exists(ref) else None
    if regen and (res is None or not res.ok):
        os.makedirs(os.path.dirname(ref) or ".", exist_ok=True)
        shutil.copyfile(cand, ref)
        if out_dir is None:
            shutil.rmtree(out, ignore_errors=True)
        raise AssertionError(
            "md5cine: --md5cine-regen wrote the sound of %s into %s (%s); listen to it, then run "
            "the tests again without --md5cine-regen" % (
                name, ref, "missing" if res is None else "not matching"))
    if res is not None and not res.ok:
        raise AssertionError(
            "md5cine: the sound of %s does not match %s: %s\n%s%s" % (
                name, ref, res.reasons, _sound_table(res),
                "\nrendered sound: %s" % cand if from_scene else ""))
    if out_dir is None:
        shutil.rmtree(out, ignore_errors=True)
    return res


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _shown(v):
    """A value in a message: floats to 6 significant digits (times are float32 in the
    library: 0.52 rather than 0.5199999809265137)."""
    return "%.6g" % v if isinstance(v, float) else repr(v)


def _event_differences(ev, want):
    """The fields of want (a mapping of SoundEvent fields) that ev does not have."""
    bad = []
    for key, value in want.items():
        if key not in md5cine.SoundEvent._fields:
            raise TypeError("%r is not a field of md5cine.SoundEvent (%s)" % (
                key, ", ".join(md5cine.SoundEvent._fields)))
        got = getattr(ev, key)
        if _number(got) and _number(value) and float in (type(got), type(value)):
            same = abs(got - value) <= 1e-6
        else:
            same = got == value
        if not same:
            bad.append("%s %s, expected %s" % (key, _shown(got), _shown(value)))
    return bad


def assert_sound_events(scene, expected, where=None, fps=None, clock="ideal", strict=False,
                        lenient=False):
    """Checks the sound events of scene (a path or an md5cine.Scene; Scene.sound(fps, clock,
    strict).events, in time order, those for which where(event) is true when where is given)
    against expected, a list of mappings from SoundEvent fields (frame, time, sample, actor,
    command, anim_frame, channel, shader, file, volume, cut, outcome) to values: as many events
    as mappings, event i with every value of mapping i (time and volume within 1e-6, the rest
    equal; fields not named are not checked). Raises AssertionError listing every event that
    differs and the count when it differs. Returns the list of events checked."""
    __tracebackhide__ = True
    own = not isinstance(scene, md5cine.Scene)
    sc = md5cine.Scene(scene, lenient=lenient) if own else scene
    try:
        events = sc.sound(fps=fps, clock=clock, strict=strict).events
        name = sc.path
    finally:
        if own:
            sc.close()
    if where is not None:
        events = [e for e in events if where(e)]
    lines = []
    for i, (ev, want) in enumerate(zip(events, expected)):
        bad = _event_differences(ev, want)
        if bad:
            lines.append("  event %d (frame %d, %s %s, %s): %s" % (
                i, ev.frame, ev.actor or "global", ev.command, ev.shader, "; ".join(bad)))
    if len(events) != len(expected):
        lines.append("  %d events, expected %d%s" % (
            len(events), len(expected), "" if len(events) < len(expected) else
            "; the first not expected: frame %d, %s %s, %s" % (
                events[len(expected)].frame, events[len(expected)].actor or "global",
                events[len(expected)].command, events[len(expected)].shader)))
    if lines:
        raise AssertionError("md5cine: the sound events of %s differ:\n%s" % (
            name, "\n".join(lines)))
    return events
