"""The Python module md5cine against the md5cine command (run by python_module_test.sh under
pytest, in tests/): the same pixels, the same timeline, the same error positions, and the pytest
helper in a real pytest session. Environment: MD5CINE (the binary), MC_TEST_BACKENDS, MC_TEST_TMP,
PYTHONPATH naming the built package."""

import json
import math
import os
import shutil
import subprocess
import sys
import threading

import numpy as np
import pytest

import md5cine

MD5CINE = os.environ["MD5CINE"]
BACKENDS = os.environ.get("MC_TEST_BACKENDS", "egl osmesa").split()
DEMO_DIR = os.path.abspath("../scenes/demo")
DEMO = os.path.join(DEMO_DIR, "demo.md5scene")
W, H = 96, 54


def cli(*args, env=None, check=True):
    e = dict(os.environ, **(env or {}))
    p = subprocess.run([MD5CINE] + list(args), capture_output=True, text=True, env=e)
    if check and p.returncode != 0:
        raise AssertionError("md5cine %s: exit %d\n%s" % (" ".join(args), p.returncode, p.stderr))
    return p


def read_png(path):
    """RGBA pixels decoded by ImageMagick (an independent PNG reader)."""
    raw = subprocess.run(["convert", path, "-depth", "8", "rgba:-"], capture_output=True,
                         check=True).stdout
    return np.frombuffer(raw, dtype=np.uint8).reshape(H, W, 4)


@pytest.fixture(scope="module")
def demo():
    with md5cine.Scene(DEMO) as s:
        yield s


def test_struct_layouts_match_the_compiler():
    assert md5cine._check_abi() == []
    # The mirrors hold what abi.c printed for every struct they stand for.
    assert md5cine._abi.SIZES["mc_error"] == 4 + 512 + 4 + 4 + 512


def test_mirrors_follow_the_headers():
    # Written from the headers at build time: the fields in the header's order and types.
    rect = md5cine.mc_compare_rect
    assert [f for f, _ in rect._fields_] == ["x", "y", "w", "h"]
    assert all(t is md5cine.ctypes.c_int for _, t in rect._fields_)
    err = dict(md5cine.mc_error._fields_)
    assert err["file"]._length_ == 512 and err["file"]._type_ is md5cine.ctypes.c_char
    desc = dict(md5cine.mc_refcheck_desc._fields_)
    assert desc["ignore"]._type_ is rect and desc["opts"] is md5cine.mc_compare_opts
    # mc_scene is mirrored up to its camera; the rest is a buffer of the compiler's size.
    assert md5cine.mc_scene._fields_[-1][0] == "resolved"


GEN = os.path.abspath("../python/gen_mirrors.py")


def gen(tmp_path, header, *structs):
    h = tmp_path / "t.h"
    h.write_text(header)
    p = subprocess.run([sys.executable, GEN, str(tmp_path / "s.py"), str(tmp_path / "a.inc"),
                        str(h), "--"] + list(structs), capture_output=True, text=True)
    return p, (tmp_path / "s.py"), (tmp_path / "a.inc")


def test_mirror_generator_reads_the_header_style(tmp_path):
    p, py, inc = gen(tmp_path, """
#define N 7
typedef enum e { A, B } e;
typedef long long wide;
typedef void (*cb)(void *user, int level);
typedef struct pair { float v[2][3]; } pair;
/* a comment; with a semicolon */
typedef struct out {
    int a, *b, c[N];
    const char *name; // another
    e kind;
    wide big;
    pair inner;
    const pair *pin;
    cb fn;
    bool tail;
} out;
""", "out:tail", "pair")
    assert p.returncode == 0, p.stderr
    ns = {}
    exec(py.read_text(), ns)
    f = dict(ns["out"]._fields_)
    assert list(f) == ["a", "b", "c", "name", "kind", "big", "inner", "pin", "fn"]
    assert f["c"]._length_ == 7 and f["b"] is md5cine.ctypes.c_void_p
    assert f["kind"] is md5cine.ctypes.c_int and f["big"] is md5cine.ctypes.c_longlong
    assert f["inner"] is ns["pair"] and f["pin"]._type_ is ns["pair"]
    v = dict(ns["pair"]._fields_)["v"]  # float[2][3]: 2 of float[3]
    assert v._length_ == 2 and v._type_._length_ == 3 and v._type_._type_ is md5cine.ctypes.c_float
    assert ns["WHOLE"] == [ns["pair"]] and ns["LEADING"] == [ns["out"]]
    assert "S(pair);" in inc.read_text() and "O(out, fn);" in inc.read_text()
    assert "S(out);" not in inc.read_text()


@pytest.mark.parametrize("body", ["int bits : 3;", "struct { int x; } anon;",
                                  "mystery_t m;", "int a[SIZE];"])
def test_mirror_generator_refuses_what_it_cannot_read(tmp_path, body):
    p, _, _ = gen(tmp_path, "typedef struct s {\n    %s\n} s;\n" % body, "s")
    assert p.returncode == 1 and "gen_mirrors.py: error: " in p.stderr and "t.h" in p.stderr


def test_layout_check_sees_a_wrong_mirror(monkeypatch):
    monkeypatch.setitem(md5cine._abi.SIZES, "mc_scene_frame_info",
                        md5cine._abi.SIZES["mc_scene_frame_info"] + 8)
    monkeypatch.setitem(md5cine._abi.OFFSETS, ("mc_refcheck_desc", "on_fail"), 0)
    bad = md5cine._check_abi()
    assert len(bad) == 2 and "sizeof(mc_scene_frame_info)" in bad[0], bad
    assert "offsetof(mc_refcheck_desc, on_fail)" in bad[1], bad


# Frames 0-2 (shot 1's start) and 82-85 (around the first cut, between 83 and 84).
@pytest.mark.parametrize("backend", BACKENDS)
def test_frames_are_byte_identical_to_render_pngs(demo, tmp_path, backend):
    frames = [0, 1, 2, 82, 83, 84, 85]
    for a, b in ((0, 2), (82, 85)):
        cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "%d-%d" % (a, b), "--quiet",
            "-o", str(tmp_path / "%05d.png"), env={"MD5CINE_GL": backend})
    with demo.renderer(width=W, height=H, backend=backend) as r:
        assert r.backend == backend
        assert (r.width, r.height) == (W, H)
        for k in frames:
            got = r.frame(k)
            want = read_png(str(tmp_path / ("%05d.png" % k)))
            assert got.shape == (H, W, 4) and got.dtype == np.uint8
            diff = np.argwhere(got != want)
            assert diff.size == 0, "frame %d differs first at %s" % (k, diff[:1])
        # Different frames really differ (the comparison above could not pass on any input).
        assert not np.array_equal(r.frame(83), r.frame(84))


def test_msaa_0_is_off_in_the_command_and_the_library(demo, tmp_path):
    # --msaa 0 and the library's msaa 0 are both "off" (1 sample); the default of both the
    # command and the module is render.h's MC_MSAA_DEFAULT, 4 samples.
    assert md5cine.MSAA_DEFAULT == 4
    cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "84-84", "--msaa", "0",
        "--quiet", "-o", str(tmp_path / "off%05d.png"))
    cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "84-84", "--quiet",
        "-o", str(tmp_path / "on%05d.png"))
    with demo.renderer(width=W, height=H, msaa=0) as r:
        assert r.samples == 1
        assert np.array_equal(r.frame(84), read_png(str(tmp_path / "off00084.png")))
    with demo.renderer(width=W, height=H) as r:
        assert r.samples == 4
        on = r.frame(84)
        assert np.array_equal(on, read_png(str(tmp_path / "on00084.png")))
    # and the two really differ (antialiased edges)
    assert not np.array_equal(on, read_png(str(tmp_path / "off00084.png")))


def test_shadow_samples_as_the_command(demo, tmp_path):
    # shadow_samples="pixel" (the default) and "sample" draw what --shadow-samples draws
    for mode in ("pixel", "sample"):
        cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "10-10", "--quiet",
            "--shadow-samples", mode, "-o", str(tmp_path / (mode + "%05d.png")))
    with demo.renderer(width=W, height=H) as r:
        pixel = r.frame(10)
    with demo.renderer(width=W, height=H, shadow_samples="sample") as r:
        sample = r.frame(10)
    assert np.array_equal(pixel, read_png(str(tmp_path / "pixel00010.png")))
    assert np.array_equal(sample, read_png(str(tmp_path / "sample00010.png")))
    assert not np.array_equal(pixel, sample)  # the shadows' edges
    with pytest.raises(md5cine.Error):
        demo.renderer(width=W, height=H, shadow_samples="subsample")


@pytest.mark.parametrize("args,kw", [((), {}), (("--fps", "30"), {"fps": 30}),
                                     (("--clock", "engine"), {"clock": "engine"})])
def test_timeline_equals_info_json(demo, args, kw):
    info = json.loads(cli("info", "--timeline", "--json", DEMO, *args).stdout)
    got = demo.timeline(**kw)
    assert len(got) == len(info["timeline"]) == info["outputFrames"]
    for mine, theirs in zip(got, info["timeline"]):
        # info prints time and lerp with %.6g.
        mine = dict(mine, time=float("%.6g" % mine["time"]), lerp=float("%.6g" % mine["lerp"]))
        assert mine == theirs


def test_frame_info_follows_the_timeline(demo):
    rows = demo.timeline()
    with demo.renderer(width=32, height=18, msaa=0) as r:
        assert r.frame_count == len(rows)
        for k in (0, 83, 84, 100, len(rows) - 1):
            _, info = r.render(k)
            row = rows[k]
            assert (info.frame, info.stored, info.next, info.shot) == (
                k, row["stored"], row["next"], row["shot"])
            assert info.lerp == pytest.approx(row["lerp"]) and info.time == row["time"]
            assert r.info(k).stored == row["stored"]
        # The first cut's shot boundary, from `md5cine info` (shot 1 ends at frame 83).
        assert (rows[83]["shot"], rows[84]["shot"]) == (0, 1)


def test_bad_scene_raises_with_its_position(tmp_path):
    path = tmp_path / "bad.md5scene"
    # Line 3, column 5: the unknown keyword.
    path.write_text('md5scene 1\ncamera "x.md5camera"\n    colour 3\n')
    with pytest.raises(md5cine.Error) as e:
        md5cine.Scene(str(path))
    assert (e.value.file, e.value.line, e.value.col) == (str(path), 3, 5)
    assert e.value.code == "MC_ERR_SYNTAX"
    # The same first line as the command prints.
    p = cli("info", str(path), check=False)
    assert p.returncode == 2
    assert str(e.value) == p.stderr.splitlines()[0]
    assert str(e.value).startswith("%s:3:5: error: " % path)
    # and all of it, source line and caret, from the library's mc_error_format
    assert e.value.text == p.stderr
    assert e.value.text.endswith("    3 |     colour 3\n      |     ^\n")


def test_several_mistakes_raise_together(tmp_path):
    path = tmp_path / "three.md5scene"
    # Three mistakes, each a statement the parser skips: 'frame' at 3:1; the actor's origin
    # of two numbers, whose ')' is column 43 of line 4; 'widht' at 5:10 (after "output { ").
    path.write_text('md5scene 1\ncamera "c.md5camera"\nframe 30\n'
                    'actor "b" { mesh "m.md5mesh" origin ( 1 2 ) }\noutput { widht 64 }\n')
    with pytest.raises(md5cine.Error) as e:
        md5cine.Scene(str(path))
    assert [x[:3] for x in e.value.errors] == [(str(path), 3, 1), (str(path), 4, 43),
                                               (str(path), 5, 10)]
    assert e.value.errors[1][3] == "'origin' takes three numbers ( x y z ), found ')'"
    # the last is the error itself; str() lists all three as the command prints them
    assert (e.value.line, e.value.col) == (5, 10)
    p = cli("info", str(path), check=False)
    assert p.returncode == 2
    assert str(e.value).splitlines() == [x for x in p.stderr.splitlines() if ": error: " in x]
    assert e.value.text == p.stderr


def test_missing_file_raises_without_position(tmp_path):
    with pytest.raises(md5cine.Error) as e:
        md5cine.Scene(str(tmp_path / "none.md5scene"))
    assert e.value.line == 0 and e.value.code == "MC_ERR_IO"
    p = cli("info", str(tmp_path / "none.md5scene"), check=False)
    assert str(e.value) == p.stderr.splitlines()[0]


def test_compare_measures_a_changed_pixel(demo):
    with demo.renderer(width=W, height=H, msaa=0) as r:
        a = r.frame(10)
    assert md5cine.compare(a, a.copy()).max_diff == 0
    b = a.copy()
    b[20, 30, 1] = (int(b[20, 30, 1]) + 100) % 256
    res = md5cine.compare(a, b, max_diff=50)
    assert not res.passed and res.max_diff == 100 and (res.max_x, res.max_y) == (30, 20)
    assert "max" in res.reasons
    assert md5cine.compare(a, b, max_diff=100, max_failing_share=1, min_psnr=0,
                           min_block_psnr=0, max_block_bias=255, min_ssim=-1).passed
    with pytest.raises(md5cine.Error):
        md5cine.compare(a, b, no_such_limit=1)


def test_offset_has_the_same_sign_in_the_command_and_the_library(demo, tmp_path):
    # The reference holds frames 80 and 81 under the numbers 82 and 83: each is found by
    # --offset 2 (frame k against reference frame k + 2) and by the library's offset=2, in
    # render, compare and RefCheck alike; -2 finds none of them (render then stops before the
    # first frame, exit 2, as compare does).
    cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "80-81", "--quiet",
        "-o", str(tmp_path / "a/%05d.png"))
    os.makedirs(tmp_path / "ref")
    for k in (80, 81):
        shutil.copy(tmp_path / "a" / ("%05d.png" % k), tmp_path / "ref" / ("%05d.png" % (k + 2)))
    ref = str(tmp_path / "ref")
    with demo.renderer(width=W, height=H) as r:
        c = r.check(ref, frames=[80, 81], offset=2)
        assert c.ok and c.summary["passed"] == 2, c.rows
        c = r.check(ref, frames=[80, 81], offset=-2)
        assert not c.ok and [row["kind"] for row in c.rows] == ["missing", "missing"]
    for off, want in (("2", 0), ("-2", 2)):
        p = cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "80-81", "--quiet",
                "--reference", ref, "--offset", off, "-o", str(tmp_path / ("o%s/%%05d.png" % off)),
                check=False)
        assert p.returncode == want, (off, p.stderr)
    assert cli("compare", ref, str(tmp_path / "a"), "--offset", "2", check=False).returncode == 0
    assert cli("compare", ref, str(tmp_path / "a"), "--offset", "-2",
               check=False).returncode != 0


def test_check_against_a_folder_and_a_video(demo, tmp_path):
    cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "0-5", "--quiet",
        "-o", str(tmp_path / "ref/%05d.png"))
    cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "0-5", "--quiet",
        "-o", str(tmp_path / "ref.mp4"))
    with demo.renderer(width=W, height=H) as r:
        c = r.check(str(tmp_path / "ref"), frames=range(6))
        assert c.ok and c.summary["checked"] == 6 and c.summary["passed"] == 6
        # A clean check writes no report; a failing one does.
        c = r.check(str(tmp_path / "ref"), frames=[0], report_dir=str(tmp_path / "rep"))
        assert c.ok and c.report_path is None and not os.path.exists(tmp_path / "rep")
        c = r.check(str(tmp_path / "ref"), frames=[0, 6], report_dir=str(tmp_path / "rep"))
        assert c.report_path == str(tmp_path / "rep" / "index.html")
        assert os.path.isfile(c.report_path)
        # Frame 6 has no reference picture.
        c = r.check(str(tmp_path / "ref"), frames=[5, 6], diff_dir=str(tmp_path / "d"))
        assert not c.ok and [row["kind"] for row in c.rows] == ["passed", "missing"]
        assert os.path.exists(tmp_path / "d" / "frame_00006.png")
        v = r.check(str(tmp_path / "ref.mp4"), frames=range(6))
        assert v.summary["lossy"] and v.ok, v.table


def test_sources_checked_as_compare_checks_them(tmp_path):
    # Folder against folder, video against video, as `md5cine compare A B`: B's frame k against
    # A's frame k + offset. Frame 2 of the copy gets one channel of one pixel moved by 200
    # levels, so it alone fails, with max diff 200 (the demo's pixels are not all 0 or 255
    # there: the change is 200 whichever way it goes).
    cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "0-3", "--quiet",
        "-o", str(tmp_path / "a/%05d.png"))
    cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "0-3", "--quiet",
        "-o", str(tmp_path / "a.mp4"))
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    px = read_png(str(tmp_path / "a" / "00002.png")).copy()
    px[10, 20, 1] = px[10, 20, 1] - 200 if px[10, 20, 1] >= 200 else px[10, 20, 1] + 200
    raw = tmp_path / "px.rgba"
    raw.write_bytes(px.tobytes())
    subprocess.run(["convert", "-size", "%dx%d" % (W, H), "-depth", "8", "rgba:%s" % raw,
                    str(tmp_path / "b" / "00002.png")], check=True)
    c = md5cine.check_sources(tmp_path / "a", tmp_path / "a")
    assert c.ok and c.summary["checked"] == 4 and not c.summary["lossy"]
    c = md5cine.check_sources(tmp_path / "a", tmp_path / "b", diff_dir=tmp_path / "d")
    assert not c.ok and [r["kind"] for r in c.failing] == ["failed"]
    assert c.failing[0]["frame"] == 2 and c.failing[0]["max_diff"] == 200, c.table
    assert os.path.exists(tmp_path / "d" / "diff_00002.png")
    p = cli("compare", str(tmp_path / "a"), str(tmp_path / "b"), "--json", check=False)
    rows = json.loads(p.stdout)["frames"]
    assert p.returncode == 1 and [r["pass"] for r in rows] == [r["kind"] == "passed"
                                                              for r in c.rows]
    # Each row carries every metric of the command's JSON under its key (null there: inf).
    want = next(r for r in rows if r["frame"] == 2)
    for key in ("max_diff", "mean_diff", "psnr", "over_share", "ssim", "block_psnr",
                "block_bias"):
        got = c.failing[0][key]
        assert (math.isinf(got) if want[key] is None else abs(got - want[key]) < 1e-4), key
    # Only frames 1-2 of B.
    c = md5cine.check_sources(tmp_path / "a", tmp_path / "b", frames=(1, 2))
    assert [r["frame"] for r in c.rows] == [1, 2]
    os.remove(tmp_path / "b" / "00003.png")
    # B placed at +1 (its frame k against A's k + 1): B's frames 0-2 pair, A's 0 is not needed.
    c = md5cine.check_sources(tmp_path / "a", tmp_path / "b", offset=1)
    assert [r["frame"] for r in c.rows] == [0, 1, 2] and c.summary["missing"] == 0
    # A frame of A that B lacks: the command's message.
    with pytest.raises(md5cine.Error) as e:
        md5cine.check_sources(tmp_path / "a", tmp_path / "b")
    msg = "frame 3 is in '%s' but not in '%s'" % (tmp_path / "a", tmp_path / "b")
    assert str(e.value) == "md5cine: error: " + msg
    assert msg in cli("compare", str(tmp_path / "a"), str(tmp_path / "b"), check=False).stderr
    # A video against itself and against its folder: the lossy limits, every frame passes.
    v = md5cine.check_sources(tmp_path / "a.mp4", tmp_path / "a.mp4")
    assert v.ok and v.summary["lossy"] and v.summary["checked"] == 4, v.table
    v = md5cine.check_sources(tmp_path / "a", tmp_path / "a.mp4")
    assert v.ok and v.summary["lossy"] and v.summary["checked"] == 4, v.table


def sound_video(path, wav, pad):
    """One second of grey with a 10 ms, 1000 Hz burst at vol 0.5 from sample pad (sox)."""
    subprocess.run(["sox", "-D", "-r", "44100", "-c", "2", "-n", "-b", "16", str(wav), "synth",
                    "0.01", "sine", "1000", "vol", "0.5", "pad", "%ds" % pad,
                    "%ds" % (44100 - 441 - pad)], check=True)
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "color=c=gray:s=64x48:r=24:d=1", "-i", str(wav), "-c:v", "libx264",
                    "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", str(path)], check=True)


def test_sound_compared_as_compare_compares_it(tmp_path):
    # B's burst 441 samples (10 ms) after A's: the onsets 22054 / 44100 s = 500.09 ms and
    # 510.09 ms (the burst's 4th sample is its first over half its peak), within 4 samples
    # after AAC; the bursts do not overlap, so the difference holds both, -9.03 + 10 log10(882
    # / 44100) = -26.02 dBFS, over the default -30: the check fails on its sound alone.
    a, b = tmp_path / "a.mp4", tmp_path / "b.mp4"
    sound_video(a, tmp_path / "a.wav", 22050)
    sound_video(b, tmp_path / "b.wav", 22491)
    c = md5cine.check_sources(a, b)
    assert c.summary["ok"] and not c.ok and not c.audio
    assert abs(c.audio.onsets_a_ms[0] - 500.09) < 0.091 and len(c.audio.pairs) == 1
    assert abs(c.audio.pairs[0][2] - 10.0) < 0.091 and abs(c.audio.rms_diff_db + 26.02) < 0.2
    assert c.audio.reasons.startswith("RMS difference -26.")
    got = json.loads(cli("compare", str(a), str(b), "--json", check=False).stdout)["audio"]
    assert got["onsets_b_ms"] == [round(v, 4) for v in c.audio.onsets_b_ms]
    assert abs(got["rms_diff_db"] - c.audio.rms_diff_db) < 1e-4 and got["pass"] is False
    c = md5cine.check_sources(a, b, audio_max_rms_db=-20)
    assert c.ok and c.audio.max_rms_db == -20 and c.audio.max_onset_ms == 10
    s = md5cine.compare_sound(a, a)
    assert s.ok and math.isinf(s.rms_diff_db) and s.rms_diff_db < 0
    assert not md5cine.compare_sound(a, b, max_onset_ms=5, max_rms_db=0)
    # Folders have no sound; a video without a track against one with a track fails.
    cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "0-1", "--quiet",
        "-o", str(tmp_path / "f/%05d.png"))
    assert md5cine.check_sources(tmp_path / "f", tmp_path / "f").audio is None
    cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "0-1", "--quiet",
        "--audio", "off", "-o", str(tmp_path / "silent.mp4"))
    s = md5cine.compare_sound(tmp_path / "silent.mp4", a)
    assert not s.ok and s.reasons.startswith("A has no sound track")
    assert md5cine.compare_sound(tmp_path / "silent.mp4", tmp_path / "silent.mp4") is None
    with pytest.raises(md5cine.Error):
        md5cine.compare_sound(a, b, max_rms_db=3)


def test_pytest_helper_in_a_pytest_session(tmp_path):
    ref = tmp_path / "ref"
    frames = "0,40,90"
    for k in frames.split(","):
        cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "%s-%s" % (k, k), "--quiet",
            "-o", str(ref / "%05d.png"))
    # The demo with the walker moved 20 inches along +Y: its files reached through links.
    moved = tmp_path / "moved"
    moved.mkdir()
    for name in os.listdir(DEMO_DIR):
        os.symlink(os.path.join(DEMO_DIR, name), moved / name)
    os.unlink(moved / "demo.md5scene")
    # The base's folders are walked without following links to folders (vfs.c), and a model
    # declaration names only files inside the base: the walker's declaration and the drone's
    # files it names are copied.
    for name in ("def", "drone"):
        os.unlink(moved / name)
        shutil.copytree(os.path.join(DEMO_DIR, name), moved / name)
    text = open(DEMO).read()
    assert "origin ( 30 -45 0 )" in text
    (moved / "demo.md5scene").write_text(text.replace("origin ( 30 -45 0 )",
                                                      "origin ( 30 -25 0 )"))
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "test_frames.py").write_text(
        "from md5cine.testing import assert_frames_match\n"
        "def test_unchanged(tmp_path):\n"
        "    assert_frames_match(%r, %r, frames=[%s], width=%d, height=%d, out_dir=tmp_path)\n"
        "def test_unchanged_fixture(md5cine_frames):\n"
        "    md5cine_frames(%r, %r, frames=[%s], width=%d, height=%d)\n"
        "def test_moved():\n"
        "    assert_frames_match(%r, %r, frames=[%s], width=%d, height=%d, out_dir=%r)\n"
        % (DEMO, str(ref), frames, W, H, DEMO, str(ref), frames, W, H,
           str(moved / "demo.md5scene"), str(ref), frames, W, H, str(tmp_path / "out")))
    # The fixture comes from the package's pytest11 entry point: no -p, no conftest.py.
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "test_frames.py"],
                       cwd=suite, capture_output=True, text=True)
    out = p.stdout + p.stderr
    assert p.returncode == 1, out
    assert "1 failed, 2 passed" in out, out
    report = str(tmp_path / "out" / "report" / "index.html")
    assert "report: " + report in out, out
    assert os.path.isfile(report)
    with open(report) as f:
        assert 'class="fail"' in f.read()
    # At least one frame with the walker in view differs and has its diff image.
    diffs = [n for n in os.listdir(tmp_path / "out" / "diff") if n.startswith("diff_")]
    assert diffs, out
    assert "diff images: " + str(tmp_path / "out" / "diff") in out
    shutil.rmtree(tmp_path / "out")


def run_suite(suite, *opts):
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
                       + list(opts) + ["test_frames.py"], cwd=suite, capture_output=True,
                       text=True)
    return p.returncode, p.stdout + p.stderr


def test_pytest_regen_writes_the_missing_references(tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "test_frames.py").write_text(
        "from md5cine.testing import assert_frames_match\n"
        "def test_folder(tmp_path):\n"
        "    assert_frames_match(%r, 'golden/a', frames=[0, 40, 90], width=%d, height=%d,\n"
        "                        out_dir=tmp_path)\n"
        "def test_fixture(md5cine_frames):\n"
        "    md5cine_frames(%r, 'golden/b', frames=[5], width=%d, height=%d)\n"
        "def test_video():\n"
        "    assert_frames_match(%r, 'golden/c.mp4', frames=[0], width=%d, height=%d)\n"
        % (DEMO, W, H, DEMO, W, H, DEMO, W, H))
    # Without the option a missing reference is a failure that writes nothing.
    rc, out = run_suite(suite)
    assert rc == 1 and "3 failed" in out, out
    assert not (suite / "golden").exists(), out
    # With it: the folders are made, the frames written, and the tests that wrote fail saying so.
    rc, out = run_suite(suite, "--md5cine-regen")
    assert rc == 1 and "3 failed" in out, out
    assert "--md5cine-regen wrote 3 of 3 reference frames into golden/a" in out, out
    assert "--md5cine-regen wrote 1 of 1 reference frames into golden/b" in out, out
    assert "--md5cine-regen writes a folder of PNGs, and golden/c.mp4 is a file" in out, out
    assert sorted(os.listdir(suite / "golden" / "a")) == ["00000.png", "00040.png", "00090.png"]
    assert os.listdir(suite / "golden" / "b") == ["00005.png"]
    # What it wrote is what `md5cine render` writes for those frames, pixel for pixel.
    for k in (0, 40, 90):
        cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "%d-%d" % (k, k), "--quiet",
            "-o", str(tmp_path / "cli" / "%05d.png"))
        assert np.array_equal(read_png(str(suite / "golden" / "a" / ("%05d.png" % k))),
                              read_png(str(tmp_path / "cli" / ("%05d.png" % k))))
    # Run again without it: the written references pass (the video one is still missing).
    rc, out = run_suite(suite)
    assert rc == 1 and "1 failed, 2 passed" in out, out
    # A frame that no longer passes is written again with the option, and only that one.
    shutil.copy(suite / "golden" / "a" / "00000.png", suite / "golden" / "a" / "00090.png")
    before = os.path.getmtime(suite / "golden" / "a" / "00040.png")
    rc, out = run_suite(suite, "--md5cine-regen", "-k", "test_folder")
    assert rc == 1 and "wrote 1 of 3 reference frames into golden/a" in out, out
    assert os.path.getmtime(suite / "golden" / "a" / "00040.png") == before
    rc, out = run_suite(suite, "-k", "test_folder or test_fixture")
    assert rc == 0 and "2 passed" in out, out
    # With every reference there and passing, the option changes nothing: the tests pass.
    rc, out = run_suite(suite, "--md5cine-regen", "-k", "test_folder or test_fixture")
    assert rc == 0 and "2 passed" in out, out


# --- hardening: lifetimes, output buffers, fork, integer ranges, closed objects -------------

def run_py(code, timeout=120):
    """code in a fresh python3 (its own interpreter exit); the completed process."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ, DEMO=DEMO))


LIFETIME_CASES = {
    "cycle": "s = md5cine.Scene(DEMO); r = s.renderer(width=32, height=18); r.frame(0)\n"
             "s.me = s; r.me = r; s.r = r; del s, r; gc.collect()",
    "kept_error": "s = md5cine.Scene(DEMO); r = s.renderer(width=32, height=18)\n"
                  "try:\n    r.render(10**6)\nexcept md5cine.Error as e:\n    kept = e",
    "thread_error": "def f():\n    s = md5cine.Scene(DEMO); r = s.renderer(width=32, height=18)\n"
                    "    s.r = r; r.frame(0); raise md5cine.Error('MC_ERR_USAGE', 'boom')\n"
                    "t = threading.Thread(target=f); t.start(); t.join(); gc.collect()",
    "scene_then_renderer": "s = md5cine.Scene(DEMO); r = s.renderer(width=32, height=18)\n"
                           "s.close(); r.close(); del s; gc.collect(); r.close()",
    "renderer_then_scene": "s = md5cine.Scene(DEMO); r = s.renderer(width=32, height=18)\n"
                           "r.close(); s.close(); s.close(); r.close()",
    "scene_dropped_first": "s = md5cine.Scene(DEMO); r = s.renderer(width=32, height=18)\n"
                           "del s; gc.collect(); print(int(r.frame(0).sum() > 0))",
    "at_exit": "s = md5cine.Scene(DEMO); r = s.renderer(width=32, height=18); r.frame(0)\n"
               "s.r = r; r.s = s",
}


@pytest.mark.parametrize("case", sorted(LIFETIME_CASES))
def test_scene_and_renderer_close_in_any_order(case):
    code = "import gc, os, threading, md5cine\nDEMO = os.environ['DEMO']\n" + LIFETIME_CASES[case]
    p = run_py(code)
    assert p.returncode == 0, (case, p.returncode, p.stderr)
    assert "Exception ignored" not in p.stderr, p.stderr
    if case == "scene_dropped_first":  # the renderer kept its scene alive and still draws
        assert p.stdout.strip() == "1", p.stdout


def test_render_refuses_an_output_it_must_not_write(demo, tmp_path):
    with demo.renderer(width=W, height=H, backend=BACKENDS[0]) as r:
        path = tmp_path / "frame.raw"
        path.write_bytes(b"\x07" * (W * H * 4))
        ro = np.memmap(path, dtype=np.uint8, mode="r", shape=(H, W, 4))
        with pytest.raises(ValueError, match="read-only"):
            r.render(0, ro)
        data = b"\x07" * (W * H * 4)
        over = np.frombuffer(data, dtype=np.uint8).reshape(H, W, 4)
        with pytest.raises(ValueError, match="read-only"):
            r.render(0, over)
        assert data == b"\x07" * (W * H * 4)
        with pytest.raises(ValueError, match="C-contiguous"):
            r.render(0, np.empty((W, H, 4), np.uint8).transpose(1, 0, 2))
        with pytest.raises(ValueError, match="shape"):
            r.render(0, np.empty((H, W, 3), np.uint8))
        with pytest.raises(TypeError):
            r.render(0, np.empty((H, W, 4), np.float32))
        with pytest.raises(TypeError):
            r.render(0, bytearray(W * H * 4))
        out = np.zeros((H, W, 4), np.uint8)
        assert r.render(0, out)[0] is out and out.any()


def test_render_in_a_forked_child_fails_clearly_instead_of_hanging():
    code = ("import os, sys, md5cine\n"
            "s = md5cine.Scene(os.environ['DEMO']); r = s.renderer(width=32, height=18)\n"
            "r.frame(0)\n"
            "pid = os.fork()\n"
            "if pid == 0:\n"
            "    for make in (lambda: r.frame(1), lambda: s.renderer(width=32, height=18)):\n"
            "        try:\n            make()\n            os._exit(1)\n"
            "        except md5cine.Error as e:\n"
            "            if 'spawn' not in str(e) or 'fork' not in str(e):\n                os._exit(2)\n"
            "    os._exit(0)\n"
            "_, st = os.waitpid(pid, 0)\n"
            "r.frame(1)\n"
            "print('child', os.waitstatus_to_exitcode(st))\n")
    p = run_py(code, timeout=60)  # a hang raises subprocess.TimeoutExpired
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "child 0", p.stdout + p.stderr


def test_integers_out_of_range_raise(demo):
    with demo.renderer(width=W, height=H, backend=BACKENDS[0]) as r:
        for k in (2 ** 64 + 5, 2 ** 63, -2 ** 63 - 1):
            with pytest.raises(OverflowError):
                r.render(k)
            with pytest.raises(OverflowError):
                r.info(k)
    with pytest.raises(OverflowError):
        demo.renderer(width=2 ** 32 + W, height=H)
    with pytest.raises(OverflowError):
        demo.renderer(width=W, height=H, gl_device=2 ** 40)
    with pytest.raises(OverflowError):
        demo.fps((2 ** 32 + 24, 1))
    with pytest.raises(TypeError):
        demo.renderer(width=W, height=H).render(1.5)


def test_a_closed_renderer_or_scene_raises(tmp_path):
    s = md5cine.Scene(DEMO)
    r = s.renderer(width=32, height=18)
    r.close()
    for call in (lambda: r.info(0), lambda: r.render(0), lambda: r.frame(0),
                 lambda: r.check(str(tmp_path))):
        with pytest.raises(md5cine.Error, match="closed"):
            call()
    s.close()
    for call in (lambda: s.fps(), lambda: s.frame_count(), lambda: s.timeline(),
                 lambda: s.shots(), lambda: s.renderer()):
        with pytest.raises(md5cine.Error, match="closed"):
            call()


def test_a_spawn_pool_renders_after_the_parent_rendered(tmp_path):
    # The way the refusal points to: workers started with 'spawn' render (fresh processes).
    code = ("import multiprocessing as mp, os, md5cine\n"
            "def work(k):\n"
            "    with md5cine.Scene(os.environ['DEMO']) as s, s.renderer(width=32, height=18) as r:\n"
            "        return int(r.frame(k).any())\n"
            "if __name__ == '__main__':\n"
            "    s = md5cine.Scene(os.environ['DEMO']); r = s.renderer(width=32, height=18)\n"
            "    r.frame(0)\n"
            "    with mp.get_context('spawn').Pool(2) as p:\n"
            "        print(p.map(work, [0, 84]))\n")
    script = tmp_path / "spawn_pool.py"
    script.write_text(code)
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, DEMO=DEMO))
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[1, 1]", p.stdout + p.stderr


def test_check_and_compare_integers_out_of_range_raise(tmp_path):
    a = np.zeros((4, 4, 4), np.uint8)
    with pytest.raises(OverflowError):
        md5cine.compare(a, a, max_diff=2 ** 32)
    with pytest.raises(OverflowError):
        md5cine.RefCheck(str(tmp_path), 2 ** 32 + 4, 4)
    with pytest.raises(OverflowError):
        md5cine.RefCheck(str(tmp_path), 4, 4, offset=2 ** 64)
    with pytest.raises(OverflowError):
        md5cine.RefCheck(str(tmp_path), 4, 4, ignore=[(0, 0, 2 ** 32 + 1, 1)])


# render_many with frame jobs: frames around the first cut (83/84) in a shuffled order come back
# in that order with the command's PNG pixels (ImageMagick's decoding), for jobs 1 and 3.
@pytest.mark.parametrize("jobs", [1, 3])
def test_render_many_yields_frames_in_order_with_the_commands_pixels(demo, tmp_path, jobs):
    frames = [84, 82, 85, 83, 0]
    cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "82-85", "--quiet",
        "-o", str(tmp_path / "%05d.png"))
    cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "0", "--quiet",
        "-o", str(tmp_path / "%05d.png"))
    with demo.renderer(width=W, height=H, jobs=jobs) as r:
        assert r.jobs == jobs
        got = list(r.render_many(frames))
        assert [k for k, _ in got] == frames
        for k, px in got:
            assert px.shape == (H, W, 4) and px.dtype == np.uint8
            assert np.array_equal(px, read_png(str(tmp_path / ("%05d.png" % k)))), k
        # render() of a renderer with jobs draws the same frame
        assert np.array_equal(r.frame(83), got[3][1])


def test_render_many_stopped_early_and_bad_jobs(demo):
    with demo.renderer(width=W, height=H, jobs=2) as r:
        gen = r.render_many(range(10))
        k, _ = next(gen)
        assert k == 0
        with pytest.raises(md5cine.Error):
            r.render(1)  # the jobs are the generator's until it ends
        gen.close()  # waits for the frames in flight
        assert r.frame(5).shape == (H, W, 4)
        with pytest.raises(md5cine.Error):
            list(r.render_many([1, r.frame_count]))  # a frame out of range
    for bad in (-1, md5cine.MAX_JOBS + 1):
        with pytest.raises(md5cine.Error):
            demo.renderer(width=W, height=H, jobs=bad)
    assert md5cine.MAX_JOBS == 16
    assert md5cine.auto_jobs(2) == 1 and md5cine.auto_jobs(8) == 4
    # jobs=None is render --jobs auto: the documented rule (1 on up to 3 cores, else half of
    # them) on this machine's cores
    cores = os.cpu_count() or 1
    with demo.renderer(width=W, height=H, jobs=None) as r:
        assert r.jobs == (1 if cores <= 3 else min(cores // 2, md5cine.MAX_JOBS))


# ---- Scene.render: the library's render run against the command ----------------------------

def probe_video(path):
    """(format, width, height, frames decoded) as ffprobe reads them."""
    out = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                          "-show_entries", "format=format_name:stream=width,height,nb_read_frames",
                          "-of", "json", path], capture_output=True, text=True, check=True).stdout
    j = json.loads(out)
    s = j["streams"][0]
    return j["format"]["format_name"], s["width"], s["height"], int(s["nb_read_frames"])


def decode_video(path):
    """Every frame as RGBA, decoded by the ffmpeg command (an independent decoder)."""
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt",
                          "rgba", "-"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, dtype=np.uint8).reshape(-1, H, W, 4)


# Frames 82-85 (around the first cut, between 83 and 84) rendered by Scene.render and by
# `md5cine render`: the video ffprobe reads has their count and size and is the command's, byte
# for byte and frame for frame; the PNG sequence has the command's pixels (ImageMagick's
# decoding), and those frames differ from each other.
def test_scene_render_writes_what_the_command_writes(demo, tmp_path):
    env = {"MD5CINE_GL": BACKENDS[0]}
    seen = []
    res = demo.render(tmp_path / "lib.mp4", frames=(82, 85), width=W, height=H,
                      backend=BACKENDS[0], progress=lambda *a: seen.append(a))
    assert (res.kind, res.frames, res.first, res.last) == ("mp4", 4, 82, 85)
    assert (res.width, res.height, res.codec, res.samples) == (W, H, "libx264", 4)
    assert res.check is None and res.stats["wall_s"] > 0
    assert seen == [(1, 4, 82), (2, 4, 83), (3, 4, 84), (4, 4, 85)]
    assert probe_video(str(tmp_path / "lib.mp4")) == ("mov,mp4,m4a,3gp,3g2,mj2", W, H, 4)
    cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "82-85", "--quiet",
        "-o", str(tmp_path / "cli.mp4"), env=env)
    assert (tmp_path / "lib.mp4").read_bytes() == (tmp_path / "cli.mp4").read_bytes()
    lib = decode_video(str(tmp_path / "lib.mp4"))
    assert lib.shape == (4, H, W, 4)
    assert np.array_equal(lib, decode_video(str(tmp_path / "cli.mp4")))

    res = demo.render(str(tmp_path / "lib" / "%05d.png"), frames=range(83, 85), width=W,
                      height=H, backend=BACKENDS[0])
    assert (res.kind, res.frames, res.codec) == ("png", 2, None)
    cli("render", DEMO, "--size", "%dx%d" % (W, H), "--frames", "83-84", "--quiet",
        "-o", str(tmp_path / "cli" / "%05d.png"), env=env)
    assert sorted(os.listdir(tmp_path / "lib")) == ["00083.png", "00084.png"]
    for k in (83, 84):
        got = read_png(str(tmp_path / "lib" / ("%05d.png" % k)))
        assert np.array_equal(got, read_png(str(tmp_path / "cli" / ("%05d.png" % k)))), k
    assert not np.array_equal(read_png(str(tmp_path / "lib" / "00083.png")),
                              read_png(str(tmp_path / "lib" / "00084.png")))

    # The frames checked against the command's PNGs, as render --reference: every one passes.
    res = demo.render(None, frames=(83, 84), width=W, height=H, backend=BACKENDS[0],
                      reference=str(tmp_path / "cli"))
    assert res.kind is None and res.check.ok, res.check.table
    assert [(r["frame"], r["kind"]) for r in res.check.rows] == [(83, "passed"), (84, "passed")]


def test_scene_render_takes_a_kind_and_refuses_what_it_cannot_write(demo, tmp_path):
    res = demo.render(tmp_path / "clip.bin", kind="mkv", frames=(0, 1), width=W, height=H)
    assert res.kind == "mkv"
    assert probe_video(str(tmp_path / "clip.bin"))[0] == "matroska,webm"
    with pytest.raises(md5cine.Error, match="holds sound only"):
        demo.render(tmp_path / "sound.wav")
    with pytest.raises(md5cine.Error, match="transparent background"):
        demo.render(tmp_path / "a.mp4", background="none")
    with pytest.raises(md5cine.Error, match="outside the scene's frames"):
        demo.render(tmp_path / "a.mp4", frames=(0, 10 ** 6))
    with pytest.raises(md5cine.Error, match="need a reference"):
        demo.render(tmp_path / "a.mp4", junit=str(tmp_path / "j.xml"))
    assert sorted(os.listdir(tmp_path)) == ["clip.bin"]


# A progress callback that raises (as Ctrl-C does) stops the run after its frame: the exception
# comes back, and the video is not left, neither whole nor as a temporary.
def test_scene_render_stopped_from_progress_leaves_nothing(demo, tmp_path):
    def stop(done, total, frame):
        if done == 2:
            raise KeyboardInterrupt

    (tmp_path / "out").mkdir()
    with pytest.raises(KeyboardInterrupt):
        demo.render(tmp_path / "out" / "demo.mp4", width=W, height=H, progress=stop)
    assert os.listdir(tmp_path / "out") == []


# --- every entry checks its objects at each call and each resumption; threads ---------------

# A render_many generator resumed after its renderer or its scene was closed raises (it once
# submitted to freed jobs: a segfault, so each case runs in a python3 of its own). The "loop"
# case is ordinary code: a for loop left by break into cleanup that closes the renderer, then
# the generator touched again.
RESUME_CASES = {
    "renderer": "g = r.render_many(range(6)); next(g); r.close()",
    "scene": "g = r.render_many(range(6)); next(g); s.close()",
    "before_start": "g = r.render_many(range(6)); r.close()",
    "loop": "g = r.render_many(range(6))\n"
            "for k, px in g:\n    break\n"
            "r.close()",
}


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("case", sorted(RESUME_CASES))
def test_render_many_resumed_after_close_raises(case, jobs):
    code = ("import os, md5cine\n"
            "s = md5cine.Scene(os.environ['DEMO']); r = s.renderer(width=32, height=18, "
            "jobs=%d)\n%s\n"
            "try:\n    list(g)\n    print('no error')\n"
            "except md5cine.Error as e:\n    print(e)\n" % (jobs, RESUME_CASES[case]))
    p = run_py(code, timeout=60)
    assert p.returncode == 0, (case, p.returncode, p.stderr)
    assert p.stdout.strip() == "md5cine: error: the renderer is closed", p.stdout + p.stderr


def test_a_jobs_renderer_serves_several_threads_without_mixing_frames(demo):
    frames = list(range(0, 160, 8))
    with demo.renderer(width=32, height=18, jobs=2) as r:
        want = {k: r.frame(k) for k in frames}
        assert len({px.tobytes() for px in want.values()}) == len(frames)  # a mix-up shows
        wrong, errors = [], []

        def work(i):
            try:
                for n in range(10):
                    k = frames[(i * 5 + n) % len(frames)]
                    if not np.array_equal(r.frame(k), want[k]):
                        wrong.append(k)
            except Exception as e:
                errors.append(repr(e))

        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == [] and wrong == [], (errors, wrong)
        # A render_many holds the jobs until it ends: another thread's render() or render_many
        # is refused, the generator's frames are right.
        gen = r.render_many(frames[:6])
        first = next(gen)
        refused = []

        def other():
            for call in (lambda: r.frame(0), lambda: list(r.render_many([0]))):
                try:
                    call()
                except md5cine.Error as e:
                    refused.append(str(e))

        t = threading.Thread(target=other)
        t.start()
        t.join()
        assert len(refused) == 2 and all("render_many" in m for m in refused), refused
        got = [first] + list(gen)
        assert [k for k, _ in got] == frames[:6]
        assert all(np.array_equal(px, want[k]) for k, px in got)


def test_a_renderer_without_jobs_refuses_another_thread_clearly(demo):
    with demo.renderer(width=32, height=18) as r:
        r.frame(0)
        seen = []

        def other():
            try:
                r.frame(1)
                seen.append("drew")
            except md5cine.Error as e:
                seen.append(str(e))
            seen.append(r.info(1).frame)  # the timeline needs no GL context: any thread

        t = threading.Thread(target=other)
        t.start()
        t.join()
        assert "thread that made it" in seen[0] and seen[1] == 1, seen
        assert r.frame(1).shape == (18, 32, 4)  # its own thread still draws


# An item that is no frame number raises the same exception at any job count, after the frames
# before it (jobs > 1 once took None for the end of the frames and yielded 1 of 3 silently).
@pytest.mark.parametrize("jobs", [1, 2, 3])
@pytest.mark.parametrize("items,exc", [([0, None, 1], TypeError), ([0, 2 ** 64, 1], OverflowError),
                                       ([0, 1.5, 1], TypeError)])
def test_render_many_refuses_a_bad_item_alike_at_any_job_count(demo, jobs, items, exc):
    with demo.renderer(width=32, height=18, jobs=jobs) as r:
        with pytest.raises(exc):
            list(r.render_many(items))
        gen = r.render_many(items)
        assert next(gen)[0] == 0
        with pytest.raises(exc):
            next(gen)
        assert r.frame(1).shape == (18, 32, 4)  # the renderer is free again


def read_wav_s16(path):
    import wave
    with wave.open(path, "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (2, 2, 44100)
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").reshape(-1, 2)


def test_scene_sound_gives_the_events_and_the_mix_the_command_writes(demo, tmp_path):
    snd = demo.sound()
    # 44 footsteps of the walker's model and the scene's two cues (docs/soundtrack.md)
    assert len(snd.events) == 46 and snd.rate == 44100 and snd.seed == 1
    first = snd.events[0]
    # rightfoot at frame 4 of the walk: (4 - 1) / 24 s = 5512.5 samples, rounded to 5513
    assert (first.frame, first.sample, first.actor, first.command, first.anim_frame,
            first.channel, first.shader) == (3, 5513, "walker", "rightfoot", 4, "body",
                                             "demo_step")
    line = [e for e in snd.events if e.command == "cue"][0]
    assert (line.frame, line.sample, line.actor, line.channel, line.shader, line.file,
            line.volume, line.cut, line.outcome) == (
        96, 176400, "guard", "voice", "demo_sector_clear", "sound/demo/sector_clear.ogg", 2.0,
        False, "played")
    # the whole scene: 241 frames at 24 fps, ceil(241 * 44100 / 24) samples
    assert snd.mix.shape == (442838, 2) and snd.mix.dtype == np.float32
    cli("render", DEMO, "-o", str(tmp_path / "cli.wav"), "--quiet")
    wav = read_wav_s16(str(tmp_path / "cli.wav"))
    # the engine's float to short: clamped, then truncated toward zero
    want = np.trunc(np.clip(snd.mix, -32768, 32767)).astype(np.int16)
    assert np.array_equal(wav, want)
    assert np.abs(snd.mix).max() > 1000

    res = demo.render(tmp_path / "a.mp4", frames=(0, 5), width=W, height=H,
                      audio=tmp_path / "a.wav", audio_rate=44100)
    assert res.sound_track and res.sound_events == 46
    # frames 0-5: ceil(6 * 44100 / 24) = 11025 samples of the same mix
    assert np.array_equal(read_wav_s16(str(tmp_path / "a.wav")), want[:11025])
    res = demo.render(tmp_path / "b.mp4", frames=(0, 5), width=W, height=H, audio="off")
    assert not res.sound_track
