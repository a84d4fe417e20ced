"""The reference check of md5cine's Python module: CheckRows (the rows of a check), RefCheck
(frames checked against a reference as `md5cine render --reference` checks them, refcheck.h)
and check_sources (two sources paired as `md5cine compare` pairs them, refpair.h). Imported by
the package's __init__ once the helpers it uses there are defined."""

import ctypes
import os

from . import (_abi, compare, _compare_opts, Error, _int, _KINDS, mc_compare_rect, mc_error,
               _MC_OK, mc_refcheck_desc, mc_refcheck_summary, mc_refpair_desc, mc_report_desc,
               mc_report_info, mc_shot_range, _pair_check_all, _pair_fill_desc, _pair_open,
               _pair_release, _raise, _rc_frame, _rc_open, _rc_release, _rc_row_at, _rc_row_count,
               _rc_summary, _rp_attach, _rp_finish, _rp_open, _rp_release, _s, _view, _vp)
from . import _audio


class CheckRows:
    """The rows and summary of a reference check (refcheck.h): rows, one dict per frame checked
    (frame, kind, the metrics of compare.h's table, reasons, written); summary, the counts;
    ok, failing and table; audio, check_sources' sound comparison (an AudioResult, or None).
    RefCheck is one; Scene.render's result holds one as .check."""
    rows = []
    summary = None
    audio = None

    def _read(self, rc):
        n = _rc_row_count(rc)
        self.rows = [self._row(_rc_row_at(rc, i).contents) for i in range(n)]
        s = mc_refcheck_summary()
        _rc_summary(rc, ctypes.byref(s))
        self.summary = {name: getattr(s, name) for name, _ in mc_refcheck_summary._fields_}

    @staticmethod
    def _row(r):
        row = {"frame": r.frame, "kind": _KINDS[r.kind]}
        row.update((key, getattr(r.r, field)) for key, field in _abi.METRICS)
        row.update(reasons=_s(r.reasons), written=_s(r.written))
        return row

    @property
    def ok(self):
        sound = self.audio is None or self.audio.ok
        return bool(self.summary and self.summary["ok"]) and sound

    @property
    def failing(self):
        return [r for r in self.rows if r["kind"] != "passed"]

    @property
    def table(self):
        """The rows that did not pass, one line each."""
        return "\n".join("frame %d: %s%s" % (r["frame"], r["kind"],
                                              ": " + r["reasons"] if r["reasons"] else "")
                         for r in self.failing)


class RefCheck(CheckRows):
    """The reference checker of `md5cine render --reference` and `md5cine compare`
    (refcheck.h): frames checked one by one against reference -- a folder of %05d.png, one
    PNG, or a video -- with the limits given as keywords (as compare()). diff_dir: where
    failing frames and their diff images go (frame_%05d.png, diff_%05d.png); report_dir: an
    HTML report folder (report.h) written by finish() when a frame failed; update: write missing
    or failing frames into a reference folder; offset: frame k is checked against reference
    frame k + offset (as --offset and the library); mask: a PNG whose black or transparent
    pixels are ignored; ignore: (x, y, w, h) rectangles ignored; shots: (number, first, last)
    groups for the report; report_max_frames: the runs of failing frames the report lists
    (None: its default)."""

    def __init__(self, reference, width, height, diff_dir=None, report_dir=None, update=False,
                 offset=0, mask=None, ignore=(), candidate=None, shots=None,
                 report_max_frames=None, **limits):
        self._rc = _vp()
        self._rp = _vp()
        width, height = _int(width, 32, "width"), _int(height, 32, "height")
        offset = _int(offset, 64, "offset")
        report_max_frames = _int(report_max_frames or 0, 32, "report_max_frames")
        ignore = [tuple(_int(v, 32, "ignore rectangle") for v in r) for r in ignore]
        self.reference = os.fspath(reference)
        self.diff_dir = os.fspath(diff_dir) if diff_dir is not None else None
        self.report_dir = os.fspath(report_dir) if report_dir is not None else None
        self.width, self.height = width, height
        self._shots = shots or []
        self._candidate = candidate
        self.report_path = None
        self.rows = []
        self.summary = None
        self._ignore = (mc_compare_rect * max(len(ignore), 1))(*[mc_compare_rect(*r)
                                                                  for r in ignore])
        d = mc_refcheck_desc(reference=self.reference.encode(),
                             candidate=candidate.encode() if candidate else None,
                             width=width, height=height, opts=_compare_opts(limits),
                             diff_dir=self.diff_dir.encode() if self.diff_dir else None,
                             update=update, offset=offset, threads=1,
                             mask=os.fspath(mask).encode() if mask else None,
                             ignore=self._ignore, num_ignore=len(ignore))
        err = mc_error()
        if self.report_dir:
            self._shot_array = (mc_shot_range * max(len(self._shots), 1))(
                *[mc_shot_range(n, a, b) for n, a, b in self._shots])
            rd = mc_report_desc(dir=self.report_dir.encode(), width=width, height=height,
                                threads=1, max_frames=report_max_frames or 0,
                                shots=self._shot_array, shot_count=len(self._shots))
            if _rp_open(ctypes.byref(rd), ctypes.byref(self._rp), ctypes.byref(err)) != _MC_OK:
                _raise(err)
            _rp_attach(self._rp, ctypes.byref(d))
        if _rc_open(ctypes.byref(d), ctypes.byref(self._rc), ctypes.byref(err)) != _MC_OK:
            self.close()
            _raise(err)

    def check(self, frame, k):
        """Checks frame (H x W x 4 uint8) as frame number k; returns its row (a dict)."""
        if not self._rc:
            raise Error("MC_ERR_USAGE", "the check is closed")
        view, frame = _view(frame)
        err = mc_error()
        if _rc_frame(self._rc, 0, ctypes.byref(view), _int(k, 64, "frame"), ctypes.byref(err)) != _MC_OK:
            _raise(err)
        self._collect()
        return self.rows[-1]

    def _collect(self):
        self._read(self._rc)

    def finish(self, title=None):
        """Writes the HTML report when report_dir was given and a frame did not pass (the
        report shows failing frames; none is written for a clean check). Call once, after the
        frames; report_path then names index.html, or is None."""
        if not self._rc:
            raise Error("MC_ERR_USAGE", "the check is closed")
        if not self._rp:
            return
        self._collect()
        if not self.failing:
            _rp_release(self._rp)
            self._rp = _vp()
            return
        shots = (mc_shot_range * max(len(self._shots), 1))(
            *[mc_shot_range(n, a, b) for n, a, b in self._shots])
        info = mc_report_info(title=(title or self.reference).encode(),
                              reference=self.reference.encode(),
                              candidate=self._candidate.encode() if self._candidate else None,
                              check=self._rc, shots=shots, shot_count=len(self._shots))
        err = mc_error()
        st = _rp_finish(self._rp, ctypes.byref(info), ctypes.byref(err))
        _rp_release(self._rp)
        self._rp = _vp()
        if st != _MC_OK:
            _raise(err)
        self.report_path = os.path.join(self.report_dir, "index.html")

    def close(self):
        if getattr(self, "_rc", None):
            self._collect()
            _rc_release(self._rc)
            self._rc = _vp()
        if getattr(self, "_rp", None):
            _rp_release(self._rp)
            self._rp = _vp()

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def check_sources(reference, candidate, offset=None, frames=None, audio_max_onset_ms=None,
                  audio_max_rms_db=None, **kw):
    """Checks frame source candidate against reference, each a PNG, a folder of numbered PNGs
    or a video, as `md5cine compare reference candidate` does (refpair.h): the candidate's frame
    k against the reference's frame k + offset (offset given: the candidate may cover only
    part of the reference), only the frames first..last when frames=(first, last). A video
    candidate takes the lossy limits unless lossy= is given. The other keywords are RefCheck's
    (diff_dir, report_dir, mask, ignore, shots, the limits). Returns the finished, closed
    RefCheck: its ok, rows, failing, table and summary. Raises Error (the command's message)
    when the sources do not pair: a frame one holds and the other lacks, a range the candidate
    does not hold, an unreadable source. Two videos' sound is compared too (compare_sound, with
    the audio_ limits) into the result's audio, which its ok takes in."""
    err = mc_error()
    pair = _vp()
    pd = mc_refpair_desc(reference=os.fspath(reference).encode(),
                         candidate=os.fspath(candidate).encode(),
                         offset=_int(offset or 0, 64, "offset"), placed=offset is not None)
    if frames is not None:
        pd.has_range = True
        pd.first, pd.last = (_int(v, 64, "frames") for v in frames)
    if _pair_open(ctypes.byref(pd), ctypes.byref(pair), ctypes.byref(err)) != _MC_OK:
        _raise(err)
    try:
        d = mc_refcheck_desc()
        _pair_fill_desc(pair, ctypes.byref(d))
        kw.setdefault("lossy", d.opts.lossy)
        rc = RefCheck(os.fspath(reference), d.width, d.height, offset=d.offset,
                      candidate=os.fspath(candidate), **kw)
        try:
            if _pair_check_all(pair, rc._rc, ctypes.byref(err)) != _MC_OK:
                _raise(err)
            rc.finish()
            rc.audio = _audio._pair_sound(pair, reference, candidate, audio_max_onset_ms,
                                          audio_max_rms_db)
        finally:
            rc.close()
    finally:
        _pair_release(pair)
    return rc
