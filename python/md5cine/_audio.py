"""The sound side of md5cine's comparison: two videos' sound tracks read (audio_in.h) and
compared (audio_compare.h) as `md5cine compare` compares them. Imported by the package's
__init__ once the helpers it uses there are defined."""

import ctypes
import os

from . import _MC_OK, _enum, _fn, _P, _raise, _structs, _vp, mc_error

mc_audio_track = _structs.mc_audio_track
mc_audio_opts = _structs.mc_audio_opts
mc_audio_result = _structs.mc_audio_result

_SOUND_RATE = 44100  # MC_SOUND_RATE (types.h)
_FRAMES_VIDEO = 2    # MC_FRAMES_VIDEO (frames_in.h)
_SET_ONSET, _SET_RMS = 1, 2

_read = _fn("mc_audio_read", _enum, ctypes.c_char_p, ctypes.c_int, _P(mc_audio_track),
            _P(mc_error))
_track_release = _fn("mc_audio_track_release", None, _P(mc_audio_track))
_compare = _fn("mc_audio_compare", _enum, _P(mc_audio_track), _P(mc_audio_track),
               _P(mc_audio_opts), _P(mc_audio_result), _P(mc_error))
_result_release = _fn("mc_audio_result_release", None, _P(mc_audio_result))
_pair_reference = _fn("mc_refpair_reference", _vp, _vp)
_pair_candidate = _fn("mc_refpair_candidate", _vp, _vp)
_kind_of = _fn("mc_frames_kind_of", _enum, _vp)


class AudioResult:
    """Two sound tracks compared (audio_compare.h), as compare's JSON "audio" member: has_a,
    has_b, rate; rms_a_db, rms_b_db, rms_diff_db (dBFS, -inf for silence); onsets_a_ms,
    onsets_b_ms (lists); pairs (a list of (a_ms, b_ms, offset_ms)); unpaired_a_ms,
    unpaired_b_ms; worst_offset_ms; max_onset_ms and max_rms_db (the limits in force); ok and
    reasons. True when it passed."""

    def __init__(self, r):
        ms = 1000.0 / r.rate if r.rate > 0 else 0.0
        def onsets(p, n):  # int64_t * in the struct: c_void_p in its mirror
            v = ctypes.cast(p, _P(ctypes.c_int64))
            return [v[i] * ms for i in range(n)]

        self.has_a, self.has_b, self.rate = bool(r.has_a), bool(r.has_b), r.rate
        self.rms_a_db, self.rms_b_db, self.rms_diff_db = r.rms_a_db, r.rms_b_db, r.rms_diff_db
        self.onsets_a_ms = onsets(r.onsets_a, r.count_a)
        self.onsets_b_ms = onsets(r.onsets_b, r.count_b)
        self.pairs = [(r.pairs[i].a * ms, r.pairs[i].b * ms, r.pairs[i].offset_ms)
                      for i in range(r.pair_count)]
        self.unpaired_a_ms = onsets(r.unpaired_a, r.unpaired_count_a)
        self.unpaired_b_ms = onsets(r.unpaired_b, r.unpaired_count_b)
        self.worst_offset_ms = r.worst_offset_ms
        self.max_onset_ms, self.max_rms_db = r.limits.max_onset_ms, r.limits.max_rms_db
        self.ok = bool(getattr(r, "pass"))
        self.reasons = r.reasons.decode("utf-8", "replace")

    def __bool__(self):
        return self.ok

    def __repr__(self):
        return "AudioResult(ok=%r, rms_diff_db=%.2f, pairs=%d, worst_offset_ms=%+.2f%s)" % (
            self.ok, self.rms_diff_db, len(self.pairs), self.worst_offset_ms,
            ", reasons=%r" % self.reasons if self.reasons else "")


def _opts(max_onset_ms, max_rms_db):
    o = mc_audio_opts()
    if max_onset_ms is not None:
        o.set |= _SET_ONSET
        o.max_onset_ms = float(max_onset_ms)
    if max_rms_db is not None:
        o.set |= _SET_RMS
        o.max_rms_db = float(max_rms_db)
    return o


def compare_sound(a, b, max_onset_ms=None, max_rms_db=None):
    """Compares the sound of video b against video a, as `md5cine compare a b` does with
    --audio-max-onset-ms and --audio-max-rms-db (None: their defaults, 10 ms and -30 dBFS).
    Returns an AudioResult, or None when neither video has a sound track. Raises Error naming
    the file when a sound track cannot be read, or for a limit out of range."""
    ta, tb, r, err = mc_audio_track(), mc_audio_track(), mc_audio_result(), mc_error()
    opts = _opts(max_onset_ms, max_rms_db)
    try:
        for path, t in ((a, ta), (b, tb)):
            if _read(os.fspath(path).encode(), _SOUND_RATE, ctypes.byref(t),
                     ctypes.byref(err)) != _MC_OK:
                _raise(err)
        if not ta.has_audio and not tb.has_audio:
            return None
        if _compare(ctypes.byref(ta), ctypes.byref(tb), ctypes.byref(opts), ctypes.byref(r),
                    ctypes.byref(err)) != _MC_OK:
            _raise(err)
        try:
            return AudioResult(r)
        finally:
            _result_release(ctypes.byref(r))
    finally:
        _track_release(ctypes.byref(ta))
        _track_release(ctypes.byref(tb))


def _pair_sound(pair, reference, candidate, max_onset_ms, max_rms_db):
    """check_sources' sound: compared when both sources of the pair are videos."""
    if (_kind_of(_pair_reference(pair)) != _FRAMES_VIDEO or
            _kind_of(_pair_candidate(pair)) != _FRAMES_VIDEO):
        return None
    return compare_sound(reference, candidate, max_onset_ms, max_rms_db)
