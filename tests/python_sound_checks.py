"""The pytest helper's sound assertions (md5cine.testing.assert_sound_matches,
assert_sound_events, the fixture md5cine_sound) against references the md5cine command writes
(run by python_module_test.sh under pytest, in tests/, beside python_module_checks.py).

The scenes: a base whose one shader plays a burst made here with numpy, 100 ms (4410 samples at
44100 Hz, mono 16-bit) of a 1000 Hz sine at amplitude 16384, as a global cue in a scene of one
second (a one-second look_at at 24 fps: 25 output frames, ceil(25 * 44100 / 24) = 45938
samples). Worked by hand from the mixer's rules (docs/sound-mixer.md): the cue's `volume 0`
scales it by 2^(0/6) = 1, a global sound is heard at 0.8 in both ears, so each ear gets a sine
of amplitude 13107.2; at 0.5 s it starts on sample round(0.5 * 44100) = 22050, frame
floor(22050 * 24 / 44100) = 12.
  - shifted, the cue at 0.52 s: sample 22932, 882 samples = 20.00 ms late: the onset pair is
    +20.00 ms apart, over the default 10 ms. 20 ms is 20 whole periods of the sine, so where
    the bursts overlap they cancel: the difference is the 882 samples at each end, an RMS of
    13107.2 / sqrt(2) * sqrt(1764 / 45938) = 1816.2, -25.13 dBFS, over the default -30 too.
    Each side alone: 13107.2 / sqrt(2) * sqrt(4410 / 45938) = 2871.6, -21.15 dBFS.
  - quieter, `volume -12`: 2^(-12/6) = 0.25, amplitude 3276.8; the difference is a sine of
    amplitude 9830.4 over the 4410 samples, so its RMS over the 45938 samples of both ears is
    9830.4 / sqrt(2) * sqrt(4410 / 45938) = 2153.7, 20 log10(2153.7 / 32768) = -23.65 dBFS,
    over the default -30 dBFS; the onsets stay paired at 0 ms.
"""

import os
import shutil
import subprocess
import sys
import wave

import numpy as np
import pytest

import md5cine

MD5CINE = os.environ["MD5CINE"]


def scene(folder, name, at=0.5, volume=0):
    """A scene of the burst base: the cue at `at` seconds with `volume` dB."""
    path = folder / name
    path.write_text("md5scene 1\nbase \"base\"\n"
                    "camera { look_at { position ( 0 0 0 ) target ( 100 0 0 ) seconds 1 } }\n"
                    "sound \"burst\" { at %s volume %s }\n" % (at, volume))
    return str(path)


@pytest.fixture
def burst(tmp_path):
    """The base (sound/burst.wav, its shader) and the scenes: right, shifted, quieter."""
    (tmp_path / "base" / "sound").mkdir(parents=True)
    n = np.arange(4410)
    samples = np.round(16384 * np.sin(2 * np.pi * 1000 * n / 44100)).astype("<i2")
    with wave.open(str(tmp_path / "base" / "sound" / "burst.wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(44100)
        w.writeframes(samples.tobytes())
    (tmp_path / "base" / "sound" / "burst.sndshd").write_text("burst { sound/burst.wav }\n")
    return {"right": scene(tmp_path, "right.md5scene"),
            "shifted": scene(tmp_path, "shifted.md5scene", at=0.52),
            "quieter": scene(tmp_path, "quieter.md5scene", volume=-12)}


def cli_wav(scene_path, out):
    subprocess.run([MD5CINE, "render", scene_path, "-o", str(out), "--quiet"], check=True)
    return str(out)


def test_write_wav_writes_the_bytes_of_the_command(burst, tmp_path):
    with md5cine.Scene(burst["right"]) as s:
        s.sound().write_wav(tmp_path / "py.wav")
    cli = cli_wav(burst["right"], tmp_path / "cli.wav")
    assert open(tmp_path / "py.wav", "rb").read() == open(cli, "rb").read()
    with wave.open(str(tmp_path / "py.wav"), "rb") as w:
        assert (w.getnchannels(), w.getframerate(), w.getnframes()) == (2, 44100, 45938)
        v = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").reshape(-1, 2)
    # the first non-zero sample is the burst's second (the sine's first is 0), at 22051, and
    # the peak is 13107.2 truncated
    assert np.flatnonzero(v[:, 0])[0] == 22051 and v.max() == 13107


def test_sound_matches_the_command_s_wav_and_not_a_changed_one(burst, tmp_path):
    from md5cine.testing import assert_sound_matches
    ref = cli_wav(burst["right"], tmp_path / "ref.wav")
    res = assert_sound_matches(burst["right"], ref)
    assert res.ok and len(res.pairs) == 1 and res.pairs[0][2] == 0
    # the pair's onset: the sine's first sample at half its peak, sin(2 pi 1000 n / 44100) >=
    # 0.5 from n = 4 (3.675 rounded up): sample 22054, 500.09 ms
    assert abs(res.pairs[0][0] - 22054 * 1000 / 44100) < 1e-6
    with pytest.raises(AssertionError) as e:
        assert_sound_matches(burst["shifted"], ref, out_dir=tmp_path / "out")
    assert str(e.value) == (
        "md5cine: the sound of %s does not match %s: RMS difference -25.13 dBFS > -30.00 dBFS; "
        "onset offset +20.00 ms > 10.00 ms\n"
        "  onset     500.09 ms in A,     520.09 ms in B: +20.00 ms (limit 10.00 ms)\n"
        "  RMS difference -25.13 dBFS (limit -30.00 dBFS; A -21.15 dBFS, B -21.15 dBFS)\n"
        "rendered sound: %s" % (burst["shifted"], ref, tmp_path / "out" / "sound.wav"))
    # Looser limits pass it; the rendered WAV is the command's for that scene.
    assert assert_sound_matches(burst["shifted"], ref, max_onset_ms=25, max_rms_db=-20).ok
    shifted = cli_wav(burst["shifted"], tmp_path / "shifted.wav")
    assert open(tmp_path / "out" / "sound.wav", "rb").read() == open(shifted, "rb").read()
    with pytest.raises(AssertionError) as e:
        assert_sound_matches(burst["quieter"], ref)
    msg = str(e.value)
    assert ": RMS difference -23.6" in msg and "> -30.00 dBFS" in msg, msg
    rms = float(msg.split("RMS difference ")[1].split(" dBFS")[0])
    assert abs(rms - -23.65) < 0.02, msg
    assert "onset " not in msg.split("\n", 1)[1], msg  # the onsets still pair at 0 ms
    # A WAV or a video is taken as it is: the command's WAV of the shifted scene fails alike.
    with pytest.raises(AssertionError, match=r"onset offset \+20\.00 ms"):
        assert_sound_matches(shifted, ref)
    with pytest.raises(AssertionError, match="no reference sound"):
        assert_sound_matches(burst["right"], tmp_path / "none.wav")


def test_sound_events_are_checked_field_by_field(burst):
    from md5cine.testing import assert_sound_events
    want = {"frame": 12, "time": 0.5, "sample": 22050, "actor": None, "command": "cue",
            "channel": "any", "shader": "burst", "file": "sound/burst.wav", "volume": 0,
            "cut": False, "outcome": "played"}
    got = assert_sound_events(burst["right"], [want])
    assert len(got) == 1
    assert assert_sound_events(burst["right"], [], where=lambda e: e.command != "cue") == []
    # at 0.52 s: sample 22932, frame floor(22932 * 24 / 44100) = 12 still
    with pytest.raises(AssertionError) as e:
        assert_sound_events(burst["shifted"], [want])
    assert str(e.value) == (
        "md5cine: the sound events of %s differ:\n"
        "  event 0 (frame 12, global cue, burst): time 0.52, expected 0.5; "
        "sample 22932, expected 22050" % burst["shifted"])
    with pytest.raises(AssertionError, match="1 events, expected 2"):
        assert_sound_events(burst["right"], [want, want])
    with pytest.raises(TypeError, match="not a field"):
        assert_sound_events(burst["right"], [{"start": 1}])


def run_suite(folder, *opts):
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
                       + list(opts) + ["test_sound.py"], cwd=folder, capture_output=True,
                       text=True)
    return p.returncode, p.stdout + p.stderr


def test_sound_helpers_in_a_pytest_session_with_regen(burst, tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "test_sound.py").write_text(
        "from md5cine.testing import assert_sound_matches\n"
        "def test_right(md5cine_sound):\n"
        "    md5cine_sound(%r, 'golden/sound.wav')\n"
        "def test_shifted(md5cine_sound):\n"
        "    md5cine_sound(%r, 'golden/sound.wav')\n"
        % (burst["right"], burst["shifted"]))
    rc, out = run_suite(suite)
    assert rc == 1 and "2 failed" in out and "no reference sound golden/sound.wav" in out, out
    # --md5cine-regen writes the missing reference and fails the test that wrote it, saying so;
    # what it wrote is the command's WAV of the scene, byte for byte.
    rc, out = run_suite(suite, "--md5cine-regen", "-k", "test_right")
    assert rc == 1 and "1 failed" in out, out
    assert "--md5cine-regen wrote the sound of %s into golden/sound.wav (missing)" % (
        burst["right"]) in out, out
    assert (open(suite / "golden" / "sound.wav", "rb").read() ==
            open(cli_wav(burst["right"], tmp_path / "cli.wav"), "rb").read())
    # Without it the right scene passes and the shifted one fails, naming the onset; with it,
    # a reference that matches is left alone.
    rc, out = run_suite(suite)
    assert rc == 1 and "1 failed, 1 passed" in out, out
    assert "onset offset +20.00 ms > 10.00 ms" in out and "rendered sound: " in out, out
    before = os.path.getmtime(suite / "golden" / "sound.wav")
    rc, out = run_suite(suite, "--md5cine-regen", "-k", "test_right")
    assert rc == 0 and "1 passed" in out, out
    assert os.path.getmtime(suite / "golden" / "sound.wav") == before


def doc_block(lang):
    """The first ```lang block under "### Sound" of docs/python.md, as written."""
    text = open(os.path.join("..", "docs", "python.md"), encoding="utf-8").read()
    section = text.split("\n### Sound\n", 1)[1]
    return section.split("```%s\n" % lang, 1)[1].split("```\n", 1)[0]


def test_the_documented_sound_example_runs_as_written(tmp_path):
    # docs/python.md's test file and sh block, in a folder with a copy of scenes/demo, with the
    # md5cine under test and a `pytest` of this python3 first on the PATH.
    shutil.copytree(os.path.join("..", "scenes", "demo"), tmp_path / "scenes" / "demo",
                    symlinks=True)
    (tmp_path / "test_sound.py").write_text(doc_block("python"))
    (tmp_path / "block.sh").write_text(doc_block("sh"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(os.path.abspath(MD5CINE), bin_dir / "md5cine")
    (bin_dir / "pytest").write_text('#!/bin/sh\nexec %s -m pytest -p no:cacheprovider "$@"\n'
                                    % sys.executable)
    os.chmod(bin_dir / "pytest", 0o755)
    env = dict(os.environ, PATH="%s:%s" % (bin_dir, os.environ["PATH"]))
    p = subprocess.run(["bash", "-e", "-o", "pipefail", "block.sh"], cwd=tmp_path, env=env,
                       capture_output=True, text=True)
    assert p.returncode == 0 and "2 passed" in p.stdout, p.stdout + p.stderr
    # The same test file against a reference whose guard speaks 0.1 s later fails on the sound
    # test alone, naming onsets off (the syllables' onsets pair with the footsteps' between
    # them, so the offsets are not all 100 ms; that they are over the limit is the point).
    text = (tmp_path / "scenes" / "demo" / "demo.md5scene").read_text()
    cue = 'sound "demo_sector_clear" { at 4.0 actor "guard"'
    assert cue in text
    (tmp_path / "scenes" / "demo" / "late.md5scene").write_text(
        text.replace(cue, cue.replace("4.0", "4.1")))
    subprocess.run([MD5CINE, "render", "scenes/demo/late.md5scene", "-o", "golden/demo.wav",
                    "--quiet"], cwd=tmp_path, check=True)
    p = subprocess.run(["bash", "-c", "pytest -q test_sound.py"], cwd=tmp_path, env=env,
                       capture_output=True, text=True)
    assert p.returncode == 1 and "1 failed, 1 passed" in p.stdout, p.stdout + p.stderr
    assert ("FAILED test_sound.py::test_demo_sound - AssertionError: md5cine: the sound of"
            in p.stdout), p.stdout
    assert ("does not match golden/demo.wav: " in p.stdout and "onset offset" in p.stdout and
            "ms (limit 10.00 ms)" in p.stdout), p.stdout
