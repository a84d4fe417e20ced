"""Scene.sound's side of md5cine: the library's soundtrack (soundtrack.h) -- the scene's sound
events as records and its mix as a numpy array, as `md5cine info --timeline` lists them and
`md5cine render --audio` writes them. Imported by the package's __init__ once the helpers it
uses there are defined."""

import collections
import ctypes
import os

import numpy as np

from . import _MC_OK, _choice, _enum, _fn, _P, _raise, _rate, _s, _structs, mc_error

mc_soundtrack_desc = _structs.mc_soundtrack_desc
mc_soundtrack = _structs.mc_soundtrack
mc_parse_opts = _structs.mc_parse_opts

_make = _fn("mc_soundtrack_make", _enum, _P(mc_soundtrack_desc), _P(mc_soundtrack), _P(mc_error))
_release = _fn("mc_soundtrack_release", None, _P(mc_soundtrack))
_channel_word = _fn("mc_scene_channel_word", ctypes.c_char_p, ctypes.c_int)
_outcome_word = _fn("mc_mix_outcome_word", ctypes.c_char_p, _enum)
_wav_write = _fn("mc_wav_write", _enum, ctypes.c_char_p, _P(ctypes.c_float), ctypes.c_int64,
                 _P(mc_error))

RATE = 44100
"""Samples per second of the mix (the engine's PRIMARYFREQ)."""

SoundEvent = collections.namedtuple(
    "SoundEvent", "frame time sample actor command anim_frame channel shader file volume cut "
    "outcome")
SoundEvent.__doc__ = """One sound event, as `md5cine info --timeline --json` lists it: output
frame, time (s), sample of the mix, actor (None for a global or positioned cue), command (the
frame command's word, or "cue"), anim_frame (its frame N, 0 for a cue), channel ("voice"...),
shader, file (the file that played, None when none did), volume (dB), cut (it stopped
another sound) and outcome ("played", "dropped", ...)."""


class Soundtrack:
    """A scene's sound: events (a list of SoundEvent, in time order), mix (a float32 array of
    frames x 2, left and right, at RATE samples per second on the 16-bit scale; all zero when
    the scene has no sound), rate, seed and missing_files (files no place held, each warned
    once); write_wav(path) writes the mix as `md5cine render -o FILE.wav` does."""

    def write_wav(self, path):
        """Writes the mix to path as `md5cine render -o FILE.wav` writes it (audio.h
        mc_wav_write): 44100 Hz stereo 16-bit PCM, the samples converted as the engine converts
        them, under a temporary name renamed into place. Raises Error naming path when it
        cannot be written."""
        mix = np.ascontiguousarray(self.mix, dtype=np.float32)
        err = mc_error()
        if _wav_write(os.fspath(path).encode(), mix.ctypes.data_as(_P(ctypes.c_float)),
                      len(mix), ctypes.byref(err)) != _MC_OK:
            _raise(err)

    def __repr__(self):
        return "Soundtrack(%d events, %d samples at %d Hz, seed %d)" % (
            len(self.events), len(self.mix), self.rate, self.seed)


def soundtrack(scene, fps=None, clock="ideal", strict=False):
    """Scene.sound: makes the soundtrack of the scene's whole timeline at fps."""
    scene._need()
    from . import _scene_fps, _scene_frame_count_clock, _CLOCKS
    rate = _scene_fps(scene._buf, _rate(fps))
    count = _scene_frame_count_clock(scene._buf, rate, _choice(_CLOCKS, clock, "clock"))
    opts = mc_parse_opts()
    d = mc_soundtrack_desc(scene=ctypes.addressof(scene._buf), fps=rate, num_frames=count,
                           opts=ctypes.pointer(opts), strict=bool(strict))
    st, err = mc_soundtrack(), mc_error()
    if _make(ctypes.byref(d), ctypes.byref(st), ctypes.byref(err)) != _MC_OK:
        _raise(err)
    try:
        return _read(st)
    finally:
        _release(ctypes.byref(st))


def _read(st):
    out = Soundtrack()
    out.rate = RATE
    out.seed = st.seed
    out.missing_files = st.missing_files
    if st.mix:
        buf = ctypes.cast(st.mix, _P(ctypes.c_float * (2 * st.frames))).contents
        out.mix = np.frombuffer(buf, dtype=np.float32).reshape(st.frames, 2).copy()
    else:
        out.mix = np.zeros((st.frames, 2), dtype=np.float32)
    out.events = []
    for i in range(st.num_events):
        e = st.events[i]
        out.events.append(SoundEvent(
            e.frame, e.time, e.sample, _s(e.actor_name),
            _s(e.command), e.anim_frame, _s(_channel_word(e.channel)), _s(e.shader),
            _s(e.file), e.volume, e.cut, _s(_outcome_word(e.outcome))))
    return out
