"""Scene.render's side of md5cine: the library's render run (render_run.h) -- its desc kept
alive for one call, the progress callback that can stop it, and the RenderResult it returns --
and the table of output kinds (output_kinds.h) by name. Imported by the package's __init__ once
the helpers it uses there are defined."""

import ctypes
import fractions
import os

from . import (_MC_OK, CheckRows, Error, _choice, _compare_opts, _enum, _fn, _int, _jobs_arg, _P,
               _raise, _s, _structs, _vp, mc_compare_rect, mc_error)

mc_render_run_desc = _structs.mc_render_run_desc
mc_render_run_info = _structs.mc_render_run_info
mc_render_run_stats = _structs.mc_render_run_stats
mc_output_kind_info = _structs.mc_output_kind_info
_PROGRESS_FN = _structs.mc_render_progress_fn

_run_create = _fn("mc_render_run_create", _enum, _P(mc_render_run_desc), _P(_vp), _P(mc_error))
_run_prepare = _fn("mc_render_run_prepare", _enum, _vp, _P(mc_error))
_run_frames = _fn("mc_render_run_frames", _enum, _vp, _P(mc_error))
_run_release = _fn("mc_render_run_release", None, _vp)
_run_info = _fn("mc_render_run_get_info", None, _vp, _P(mc_render_run_info))
_run_stats = _fn("mc_render_run_get_stats", None, _vp, _P(mc_render_run_stats))
_run_codec = _fn("mc_render_run_codec_name", ctypes.c_char_p, _vp)
_run_check = _fn("mc_render_run_check", _vp, _vp)
_output_kinds = _fn("mc_output_kinds", _vp, _P(ctypes.c_size_t))


class RenderResult:
    """What Scene.render wrote: output (the name), kind ("mp4", "png", ...; None without an
    output), frames (how many), first, last, width, height, fps (a Fraction), codec (the
    encoder used, "libx264", "yuv4mpeg2"; None for PNGs), samples, backend, gl_renderer, jobs,
    stats (a dict of seconds per stage: pose_s, draw_s, end_s, encode_s, png_s, compare_s,
    wait_s, wall_s, sound_s), sound_track (the video got a sound track), sound_events and check (a CheckRows of the reference check, or None); report_path
    (DIR/index.html) and junit when they were written."""

    def __repr__(self):
        return "RenderResult(output=%r, kind=%r, frames=%d (%d-%d), %dx%d, codec=%r)" % (
            self.output, self.kind, self.frames, self.first, self.last, self.width, self.height,
            self.codec)


class _RenderRun:
    """One call of Scene.render: the desc and everything it points to, kept alive until the
    run is released."""

    def __init__(self, scene, output, frames, jobs, kind, codec, crf, preset, progress):
        self.scene = scene
        self.keep = []
        self.stop = ctypes.c_int(0)  # sig_atomic_t: set when the progress callback raised
        self.raised = None
        self.user_progress = progress
        self.progress = _PROGRESS_FN(self._on_progress)
        self.output = os.fspath(output) if output is not None else None
        d = self.desc = mc_render_run_desc(jobs=_jobs_arg(jobs), crf=_int(crf, 32, "crf"),
                                           codec=self._b(codec), preset=self._b(preset),
                                           output=self._b(self.output), progress=self.progress)
        if kind is not None:
            names = {v: k for k, v in _OUTPUT_KINDS.items()}
            d.output_kind = _choice(names, kind, "output kind")
        if frames is not None:
            if isinstance(frames, range):
                if frames.step != 1 or len(frames) == 0:
                    raise Error("MC_ERR_USAGE", "frames must be a non-empty range of step 1")
                frames = (frames.start, frames.stop - 1)
            d.has_frames = True
            d.first, d.last = (_int(v, 64, "frames") for v in frames)

    def sound(self, audio, rate):
        """audio None, "off" or a FILE.wav; rate the track's (0: the default)."""
        if audio == "off":
            self.desc.sound_off = True
        elif audio is not None:
            self.desc.audio_path = self._b(audio)
        self.desc.audio_rate = _int(rate, 32, "audio_rate")

    def _b(self, text):
        if text is None:
            return None
        b = os.fspath(text).encode()
        self.keep.append(b)
        return b

    def _on_progress(self, user, done, total, frame):
        if self.raised is not None or not self.user_progress:
            return
        try:
            self.user_progress(done, total, frame)
        except BaseException as e:  # Ctrl-C included: stops the run, raised once it returns
            self.raised = e
            self.stop.value = 1

    def check(self, reference, diff_dir, update, offset, mask, ignore, report_dir, max_frames,
              junit, limits):
        d = self.desc
        ignore = [tuple(_int(v, 32, "ignore rectangle") for v in r) for r in ignore]
        self.rects = (mc_compare_rect * max(len(ignore), 1))(*[mc_compare_rect(*r)
                                                                for r in ignore])
        d.reference, d.diff_dir, d.mask = self._b(reference), self._b(diff_dir), self._b(mask)
        d.report_dir, d.junit = self._b(report_dir), self._b(junit)
        d.update_reference = update
        d.offset = _int(offset, 64, "offset")
        d.limits = _compare_opts(limits)
        d.ignore = self.rects
        d.num_ignore = len(ignore)
        d.report_max_frames = _int(max_frames or 0, 32, "report_max_frames")
        self.report_dir, self.junit = report_dir, junit

    def run(self):
        self.desc.renderer.stop = ctypes.addressof(self.stop)
        handle, err = _vp(), mc_error()
        if _run_create(ctypes.byref(self.desc), ctypes.byref(handle), ctypes.byref(err)) != _MC_OK:
            _raise(err)
        self.scene._users += 1  # the run borrows the C scene until it is released
        try:
            if (_run_prepare(handle, ctypes.byref(err)) != _MC_OK
                    or _run_frames(handle, ctypes.byref(err)) != _MC_OK):
                if self.raised is not None:
                    raise self.raised
                _raise(err)
            return self._result(handle)
        finally:
            _run_release(handle)
            self.scene._users -= 1
            self.scene._free()

    def _result(self, handle):
        info, st = mc_render_run_info(), mc_render_run_stats()
        _run_info(handle, ctypes.byref(info))
        _run_stats(handle, ctypes.byref(st))
        r = RenderResult()
        r.output = self.output
        r.kind = _OUTPUT_KINDS.get(info.output_kind)
        r.frames, r.first, r.last = st.frames, info.first, info.last
        r.width, r.height, r.jobs = info.width, info.height, info.jobs
        r.fps = fractions.Fraction(info.fps.num, info.fps.den)
        r.codec = _s(_run_codec(handle))
        r.samples, r.backend = info.gl.samples, _s(info.gl.backend)
        r.gl_renderer = _s(info.gl.gl_renderer)
        r.sound_track, r.sound_events = info.sound_track, info.sound_events
        r.stats = {name: getattr(st, name) for name, _ in mc_render_run_stats._fields_
                   if name != "frames"}
        rc = _run_check(handle)
        r.check = None
        if rc:
            r.check = CheckRows()
            r.check._read(rc)
        r.report_path = (os.path.join(os.fspath(self.report_dir), "index.html")
                         if self.report_dir else None)
        r.junit = os.fspath(self.junit) if self.junit else None
        return r


def _output_kind_names():
    """{enum value: name} of the table of output kinds (output_kinds.h)."""
    n = ctypes.c_size_t()
    rows = ctypes.cast(_output_kinds(ctypes.byref(n)), _P(mc_output_kind_info))
    return {rows[i].kind: _s(rows[i].name) for i in range(n.value)}


_OUTPUT_KINDS = _output_kind_names()
