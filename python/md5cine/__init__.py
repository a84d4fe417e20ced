"""md5cine: Doom 3 MD5 cut scenes rendered headless, frame by frame, into numpy arrays.

A thin ctypes layer over libmd5cine.so (the library `md5cine render` is built from), so a frame
rendered here is the frame the command line writes, and a check here is the command line's
check (the same reference checker, limits and report).

    import md5cine
    scene = md5cine.Scene("scenes/demo/demo.md5scene")
    with scene.renderer(width=320, height=180) as r:
        rgba = r.frame(10)              # numpy uint8 array, 180 x 320 x 4, top row first
        info = r.info(10)               # FrameInfo(frame, time, stored, next, lerp, shot, ...)
        check = r.check("ref/", frames=range(0, 40))   # a folder of %05d.png, a PNG or a video
        assert check.ok, check.table

Every failure raises md5cine.Error, which carries file, line, col, code and the message, and
reads as "file:line:col: error: message"; a scene file's several mistakes come in one Error,
each in its errors list as (file, line, col, message). A closed Scene or Renderer raises it at every call
(also when a render_many generator is resumed after its renderer or scene was closed).

Threads: a Scene may be used from any thread. A Renderer with jobs=1 (the default) draws on the
thread that made it, whose GL context it holds current; a call from another thread raises
md5cine.Error. A Renderer with jobs > 1 (or 0) draws on worker threads of its own, so any thread
may call it; its calls are serialised by a lock (one frame, or one step of render_many, at a
time), and frames never go to the wrong caller. One render_many of a jobs renderer runs at a
time: render() and another render_many raise until it ends. close() may come from any thread
and waits for the frames being drawn.

The library is looked for, in order: next to this package's install location (the place
`cmake --install` put it), the path in the environment variable MD5CINE_LIBRARY, then the
system's library path (libmd5cine.so.0).
"""

import ctypes
import ctypes.util
import fractions
import operator
import os
import threading
import weakref

import numpy as np

from . import _abi, _config, _structs

__all__ = ["Error", "Scene", "Renderer", "RenderResult", "FrameInfo", "CompareResult",
           "CheckRows", "RefCheck", "compare", "AudioResult", "compare_sound",
           "check_sources", "library_path"]

# --- the library --------------------------------------------------------------------------


def _formatted(file, line, col, message):
    # As the command prints an mc_error (src/cli/diag.c): "file:line:col: error: message";
    # "file: error: message" without a position; "md5cine: error: message" without a file
    # or when the message already names it in quotes. Control bytes are shown as \xNN.
    if file and line > 0:
        head = "%s:%d:%d: error: " % (_escape(file), line, col)
    elif file and ("'%s'" % file) not in message:
        head = "%s: error: " % _escape(file)
    else:
        head = "md5cine: error: "
    return head + _escape(message)


class Error(Exception):
    """Every md5cine failure. file, line and col locate the offending token of a data error
    (line == col == 0 when the error has no position); code is the status name
    ("MC_ERR_SYNTAX"); message is the one-line text. errors lists every error of the call as
    (file, line, col, message), in the file's order, this one last: a scene file with several
    mistakes reports each (the parser skips a bad statement and reads on, as `md5cine render`
    does, up to MC_LIMIT_SCENE_ERRORS); other failures have one. str(e) is the formatted line of
    each, one a line; text is all the command prints for them (mc_error_format: each line, then
    the source line and a caret under the column when the file can be read)."""

    def __init__(self, code, message, file="", line=0, col=0, text=None, errors=None):
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.col = col
        self.errors = list(errors) if errors else [(file, line, col, message)]
        self.text = text if text is not None else "".join(
            _formatted(*e) + "\n" for e in self.errors)
        super().__init__("\n".join(_formatted(*e) for e in self.errors))

    @property
    def formatted(self):
        """This error's line (the last of errors)."""
        return _formatted(self.file, self.line, self.col, self.message)


def _escape(text):
    return "".join("\\x%02X" % ord(c) if ord(c) < 0x20 and c != "\t" or ord(c) == 0x7F else c
                   for c in text)


def _candidates():
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.normpath(os.path.join(here, _config.LIBRARY_RELPATH))
    env = os.environ.get("MD5CINE_LIBRARY")
    if env:
        yield env
    yield "libmd5cine.so.%s" % _config.SOVERSION


def _load_library():
    tried = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            tried.append(path + " (absent)")
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise Error("MC_ERR_IO", "libmd5cine not found; tried " + "; ".join(tried))


_lib, library_path = _load_library()

# --- the C structs: mirrors written from include/md5cine/*.h at build time (_structs.py),
# checked against the compiler's layout ---------------------------------------------------

_i64 = ctypes.c_int64
_enum = ctypes.c_int
_WARN_FN = _structs.mc_warn_fn
_S = _structs._S
mc_error = _structs.mc_error
mc_rate = _structs.mc_rate
mc_image_view = _structs.mc_image_view
mc_parse_opts = _structs.mc_parse_opts
# mc_scene: only the leading fields are mirrored; the struct itself is a buffer of the
# compiler's size, and the camera is passed by its offset (_abi).
mc_scene = _structs.mc_scene
mc_scene_renderer_desc = _structs.mc_scene_renderer_desc
mc_scene_frame_info = _structs.mc_scene_frame_info
mc_renderer_info = _structs.mc_renderer_info
mc_timeline_sample = _structs.mc_timeline_sample
mc_compare_opts = _structs.mc_compare_opts
mc_compare_result = _structs.mc_compare_result
mc_compare_rect = _structs.mc_compare_rect
mc_compare_work = _structs.mc_compare_work
mc_refcheck_desc = _structs.mc_refcheck_desc
mc_refcheck_row = _structs.mc_refcheck_row
mc_refcheck_summary = _structs.mc_refcheck_summary
mc_shot_range = _structs.mc_shot_range
mc_report_desc = _structs.mc_report_desc
mc_report_info = _structs.mc_report_info
mc_refpair_desc = _structs.mc_refpair_desc
mc_frame_jobs_desc = _structs.mc_frame_jobs_desc


def _check_abi():
    """Compares every mirror's size and field offsets with the compiler's (_abi, generated at
    build time from the headers); returns the list of differences (empty when they agree)."""
    bad = []
    if _abi.SIZES["enum"] != ctypes.sizeof(_enum) or _abi.SIZES["bool"] != 1:
        bad.append("enum or bool size")
    for s in _structs.WHOLE:
        name = s.__name__
        if ctypes.sizeof(s) != _abi.SIZES.get(name):
            bad.append("sizeof(%s): C %s, ctypes %d" % (name, _abi.SIZES.get(name),
                                                        ctypes.sizeof(s)))
    for s in _structs.WHOLE + _structs.LEADING:
        for field, _ in s._fields_:
            off = _abi.OFFSETS.get((s.__name__, field))
            if off is None or getattr(s, field).offset != off:
                bad.append("offsetof(%s, %s): C %s, ctypes %d"
                           % (s.__name__, field, off, getattr(s, field).offset))
    return bad


_abi_diff = _check_abi()
if _abi_diff:
    raise Error("MC_ERR_USAGE", "the module's structs do not match libmd5cine's headers: "
                + "; ".join(_abi_diff))

_P = ctypes.POINTER
_vp = ctypes.c_void_p


def _fn(name, res, *args):
    f = getattr(_lib, name)
    f.restype = res
    f.argtypes = list(args)
    return f


_status_name = _fn("mc_status_name", ctypes.c_char_p, _enum)
_error_format = _fn("mc_error_format", ctypes.c_size_t, _P(mc_error), ctypes.c_char_p,
                    ctypes.c_char_p, ctypes.c_size_t)
_scene_load = _fn("mc_scene_load", _enum, ctypes.c_char_p, _P(mc_parse_opts), _vp, _P(mc_error))
_scene_release = _fn("mc_scene_release", None, _vp)
_scene_fps = _fn("mc_scene_fps", mc_rate, _vp, mc_rate)
_scene_frame_count_clock = _fn("mc_scene_frame_count_clock", _i64, _vp, mc_rate, _enum)
_sample_frame_clock = _fn("mc_timeline_sample_frame_clock", None, _vp, mc_rate, _enum, _i64,
                          _P(mc_timeline_sample))
_plan_shots = _fn("mc_plan_shots", ctypes.c_size_t, _vp, mc_rate, _enum, _i64, _P(mc_shot_range),
                  ctypes.c_size_t)
_sr_create = _fn("mc_scene_renderer_create", _enum, _P(mc_scene_renderer_desc), _P(_vp),
                 _P(mc_error))
_sr_release = _fn("mc_scene_renderer_release", None, _vp)
_sr_get_info = _fn("mc_scene_renderer_get_info", None, _vp, _P(ctypes.c_int), _P(ctypes.c_int),
                   _P(mc_rate), _P(mc_renderer_info))
_sr_frame_count = _fn("mc_scene_renderer_frame_count", _i64, _vp)
_sr_frame = _fn("mc_scene_renderer_frame", _enum, _vp, _i64, _P(mc_image_view),
                _P(mc_scene_frame_info), _P(mc_error))
_jobs_create = _fn("mc_frame_jobs_create", _enum, _P(mc_frame_jobs_desc), _P(_vp), _P(mc_error))
_jobs_release = _fn("mc_frame_jobs_release", None, _vp)
_jobs_submit = _fn("mc_frame_jobs_submit", _enum, _vp, _i64, _P(mc_image_view), _P(mc_error))
_jobs_collect = _fn("mc_frame_jobs_collect", _enum, _vp, _P(_i64), _P(mc_scene_frame_info),
                    _P(mc_error))
_jobs_in_flight = _fn("mc_frame_jobs_in_flight", ctypes.c_int, _vp)
_jobs_count = _fn("mc_frame_jobs_count", ctypes.c_int, _vp)
_jobs_get_info = _fn("mc_frame_jobs_get_info", None, _vp, _P(ctypes.c_int), _P(ctypes.c_int),
                     _P(mc_rate), _P(mc_renderer_info))
_jobs_frame_count = _fn("mc_frame_jobs_frame_count", _i64, _vp)
_jobs_auto = _fn("mc_frame_jobs_auto", ctypes.c_int, ctypes.c_int)
_compare_rgba = _fn("mc_compare_rgba", _enum, _vp, ctypes.c_size_t, _vp, ctypes.c_size_t,
                    ctypes.c_int, ctypes.c_int, _P(mc_compare_opts), _P(mc_compare_work),
                    _P(mc_compare_result), _P(mc_error))
_compare_work_release = _fn("mc_compare_work_release", None, _P(mc_compare_work))
_compare_reasons = _fn("mc_compare_reasons", None, _P(mc_compare_result), _P(mc_compare_opts),
                       ctypes.c_char_p, ctypes.c_size_t)
_compare_effective = _fn("mc_compare_effective", None, _P(mc_compare_opts), _P(mc_compare_opts))
_rc_open = _fn("mc_refcheck_open", _enum, _P(mc_refcheck_desc), _P(_vp), _P(mc_error))
_rc_release = _fn("mc_refcheck_release", None, _vp)
_rc_frame = _fn("mc_refcheck_frame", _enum, _vp, ctypes.c_int, _P(mc_image_view), _i64,
                _P(mc_error))
_rc_summary = _fn("mc_refcheck_get_summary", None, _vp, _P(mc_refcheck_summary))
_rc_row_count = _fn("mc_refcheck_row_count", ctypes.c_size_t, _vp)
_rc_row_at = _fn("mc_refcheck_row_at", _P(mc_refcheck_row), _vp, ctypes.c_size_t)
_pair_open = _fn("mc_refpair_open", _enum, _P(mc_refpair_desc), _P(_vp), _P(mc_error))
_pair_release = _fn("mc_refpair_release", None, _vp)
_pair_fill_desc = _fn("mc_refpair_fill_desc", None, _vp, _P(mc_refcheck_desc))
_pair_check_all = _fn("mc_refpair_check_all", _enum, _vp, _vp, _P(mc_error))
_rp_open = _fn("mc_report_open", _enum, _P(mc_report_desc), _P(_vp), _P(mc_error))
_rp_finish = _fn("mc_report_finish", _enum, _vp, _P(mc_report_info), _P(mc_error))
_rp_release = _fn("mc_report_release", None, _vp)
_rp_attach = _fn("mc_report_attach", None, _vp, _P(mc_refcheck_desc))

_MC_OK = 0
_END = object()  # the end of an iterable of frames (None is an item like any other)
# Antialiasing samples of `md5cine render` (render.h MC_MSAA_DEFAULT); 0 is off, as --msaa 0.
MSAA_DEFAULT = _abi.CONSTANTS["MC_MSAA_DEFAULT"]
# The most frame jobs a Renderer may have (limits.h MC_LIMIT_FRAME_JOBS).
MAX_JOBS = _abi.CONSTANTS["MC_FRAME_JOBS_MAX"]


def auto_jobs(cores=None):
    """The job count jobs=0 picks on a machine of cores cores (None: this one's), as
    mc_frame_jobs_auto."""
    return _jobs_auto(_int((os.cpu_count() or 1) if cores is None else cores, 32, "cores"))
_CLOCKS = {"ideal": 0, "engine": 1}
_SHADINGS = {"lit": 0, "unlit": 1, "normals": 2}
_SHADOW_SAMPLES = {"pixel": 0, "sample": 1}
_FOV_MODES = {"horizontal": 0, "doom": 1}
_BACKENDS = {"auto": 0, "egl": 1, "osmesa": 2}
_KINDS = ["passed", "failed", "missing", "size", "unreadable"]


def _s(b):
    return b.decode("utf-8", "replace") if b is not None else None


def _format(err, severity=b"error"):
    """The command's text for an mc_error (error.h, mc_error_format)."""
    n = _error_format(ctypes.byref(err), severity, None, 0)
    buf = ctypes.create_string_buffer(n + 1)
    _error_format(ctypes.byref(err), severity, buf, n + 1)
    return _s(buf.value)


def _entry(err):
    """An mc_error as Error.errors holds it, and its text (mc_error_format)."""
    return (_s(err.file), err.line, err.col, _s(err.msg)), _format(err)


def _raise(err, earlier=()):
    """Raises err, after the errors the parser read past (earlier: _entry's pairs)."""
    entries = list(earlier) + [_entry(err)]
    raise Error(_s(_status_name(err.code)), _s(err.msg), _s(err.file), err.line, err.col,
                text="".join(t for _, t in entries), errors=[e for e, _ in entries])


def _warning_text(p):
    e = ctypes.cast(p, _P(mc_error)).contents
    pos = ("%s:%d:%d: " % (_s(e.file), e.line, e.col) if e.line > 0
           else "%s: " % _s(e.file) if e.file else "")
    return "%swarning: %s" % (pos, _s(e.msg))


def _int(v, bits, what):
    """v as an int that fits a signed C integer of bits bits; OverflowError otherwise (ctypes
    would wrap it silently: 2**64 + 5 would become 5)."""
    i = operator.index(v)
    lim = 1 << (bits - 1)
    if not -lim <= i < lim:
        raise OverflowError("%s %d does not fit a %d-bit integer" % (what, i, bits))
    return i


# Rendering needs Mesa's threads, which a fork() does not copy: a child of a process that made a
# renderer would block forever on the first frame, so the module refuses there (see _need_gl).
_gl_pid = None


def _need_gl():
    global _gl_pid
    if _gl_pid is not None and _gl_pid != os.getpid():
        raise Error("MC_ERR_USAGE", "cannot render in a fork()ed child of a process that made a "
                    "Renderer (Mesa's threads do not survive fork); start worker processes with "
                    "multiprocessing's 'spawn' or 'forkserver' method, or make no Renderer before "
                    "forking")
    _gl_pid = os.getpid()


def _rate(fps):
    """None -> {0, 0} (the default); an int, a Fraction, a float or a (num, den) pair."""
    if fps is None:
        return mc_rate(0, 0)
    if isinstance(fps, tuple):
        return mc_rate(_int(fps[0], 32, "fps numerator"), _int(fps[1], 32, "fps denominator"))
    f = fractions.Fraction(fps).limit_denominator(1001)
    return mc_rate(f.numerator, f.denominator)


def _choice(table, value, what):
    try:
        return table[value]
    except KeyError:
        raise Error("MC_ERR_USAGE", "%s '%s' is not one of %s" % (what, value, ", ".join(table)))


# --- limits: the keyword arguments every comparison takes ----------------------------------

# name -> (mc_compare_opts field, MC_COMPARE_SET_* bit, int field): compare.h's table of limits
# (MC_COMPARE_LIMITS), as the CLI's options (--threshold, --max-diff, ...) take them.
_LIMITS = _abi.LIMITS


def _compare_opts(limits):
    o = mc_compare_opts()
    for k, v in limits.items():
        if k == "lossy":
            o.lossy = bool(v)
        elif k == "diff_gain":
            o.diff_gain = float(v)
        elif k in _LIMITS:
            field, bit, is_int = _LIMITS[k]
            if is_int:
                v = _int(v, 32, k)
            setattr(o, field, v)
            o.set |= bit
        else:
            raise Error("MC_ERR_USAGE", "unknown limit '%s' (known: lossy, diff_gain, %s)"
                        % (k, ", ".join(_LIMITS)))
    return o


def _view(arr):
    if (not isinstance(arr, np.ndarray) or arr.dtype != np.uint8 or arr.ndim != 3
            or arr.shape[2] != 4):
        raise Error("MC_ERR_USAGE", "a frame is a numpy uint8 array of H x W x 4")
    if not arr.flags["C_CONTIGUOUS"]:
        arr = np.ascontiguousarray(arr)
    return mc_image_view(arr.shape[1], arr.shape[0], arr.shape[1] * 4, arr.ctypes.data), arr


def _check_out(out, h, w):
    """out must be memory the renderer may write h x w x 4 bytes into: a numpy uint8 array of
    that shape, writable and C-contiguous, as the buffer protocol's PyBUF_WRITABLE |
    PyBUF_C_CONTIGUOUS request checks it (a read-only memmap, or an array over a bytes object,
    is refused rather than written)."""
    if not isinstance(out, np.ndarray) or out.dtype != np.uint8:
        raise TypeError("out must be a numpy uint8 array, not %s" % (
            type(out).__name__ if not isinstance(out, np.ndarray) else out.dtype))
    if out.shape != (h, w, 4):
        raise ValueError("out has shape %s; the renderer draws %d x %d x 4"
                         % (tuple(out.shape), h, w))
    try:
        mv = memoryview(out)
    except (TypeError, ValueError, BufferError) as e:
        raise ValueError("out does not expose its memory: %s" % e)
    with mv:
        if mv.readonly or not out.flags["WRITEABLE"]:
            raise ValueError("out is read-only (a read-only memmap or an array over bytes); "
                             "pass a writable array")
        if not mv.c_contiguous or not out.flags["C_CONTIGUOUS"]:
            raise ValueError("out must be C-contiguous")


class CompareResult:
    """The metrics of one comparison (compare.h's mc_compare_result) and why it failed."""

    def __init__(self, r, reasons):
        for name, _ in mc_compare_result._fields_:
            if name != "pass":  # a Python keyword: .passed
                setattr(self, name, getattr(r, name))
        self.passed = bool(getattr(r, "pass"))
        self.reasons = reasons

    def __bool__(self):
        return self.passed

    def __repr__(self):
        return "CompareResult(passed=%s, max_diff=%d, psnr=%g, ssim=%g%s)" % (
            self.passed, self.max_diff, self.psnr, self.ssim,
            ", reasons=%r" % self.reasons if self.reasons else "")


def compare(a, b, **limits):
    """Compares frames a and b (numpy H x W x 4 uint8 of one size) with the CLI's metrics and
    limits (threshold=, max_failing_share=, max_diff=, min_ssim=, min_psnr=, min_block_psnr=,
    max_block_bias=, lossy=); returns a CompareResult (true when it passes)."""
    va, a = _view(a)
    vb, b = _view(b)
    if a.shape != b.shape:
        raise Error("MC_ERR_USAGE", "frames of different sizes: %dx%d and %dx%d"
                    % (a.shape[1], a.shape[0], b.shape[1], b.shape[0]))
    opts = _compare_opts(limits)
    work = mc_compare_work()
    res = mc_compare_result()
    err = mc_error()
    try:
        if _compare_rgba(va.pixels, va.stride, vb.pixels, vb.stride, va.width, va.height,
                         ctypes.byref(opts), ctypes.byref(work), ctypes.byref(res),
                         ctypes.byref(err)) != _MC_OK:
            _raise(err)
    finally:
        _compare_work_release(ctypes.byref(work))
    buf = ctypes.create_string_buffer(512)
    eff = mc_compare_opts()
    _compare_effective(ctypes.byref(opts), ctypes.byref(eff))
    _compare_reasons(ctypes.byref(res), ctypes.byref(eff), buf, len(buf))
    return CompareResult(res, _s(buf.value))


# --- scenes ---------------------------------------------------------------------------------


class Scene:
    """A loaded and resolved .md5scene (scene.h): its camera, actors and files, all checked.
    lenient: accept the harmless deviations of shipped game files (as --lenient), as
    warnings. The warnings of loading and rendering collect in .warnings, formatted."""

    def __init__(self, path, lenient=False):
        self._lock = threading.RLock()  # held while the C scene is used, freed or handed out
        self._loaded = False
        self.path = os.fspath(path)
        self.warnings = []
        self._renderers = weakref.WeakSet()
        self._users = 0  # renderers not yet released, which use the C scene
        self._freed = True
        self._buf = ctypes.create_string_buffer(_abi.SIZES["mc_scene"])
        self._warn = _WARN_FN(lambda user, e: self.warnings.append(_warning_text(e)))
        earlier = []  # the mistakes the parser read past (mc_parse_opts.error), in order
        self._error = _WARN_FN(
            lambda user, e: earlier.append(_entry(ctypes.cast(e, _P(mc_error)).contents)))
        opts = mc_parse_opts(lenient=lenient, warn=self._warn, error=self._error)
        err = mc_error()
        if _scene_load(self.path.encode(), ctypes.byref(opts), self._buf,
                       ctypes.byref(err)) != _MC_OK:
            _raise(err, earlier)
        self._loaded = True
        self._freed = False

    @property
    def _c(self):
        return mc_scene.from_buffer(self._buf)

    @property
    def _camera(self):
        return ctypes.addressof(self._buf) + _abi.OFFSETS[("mc_scene", "camera")]

    def close(self):
        """Closes the scene (also done when it is collected), closing its renderers first. The
        C scene is freed once no renderer uses it, so any order of closing and collection is
        safe (a garbage cycle may finalize the scene before its renderer)."""
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            if not getattr(self, "_loaded", False):
                return
            self._loaded = False
            renderers = list(self._renderers)
        # Outside the scene's lock: a renderer's close takes its own lock, then the scene's.
        for r in renderers:
            r.close()
        self._free()

    def _free(self):
        with self._lock:
            if not self._loaded and not self._freed and self._users == 0:
                self._freed = True
                _scene_release(self._buf)

    def _unuse(self):
        """A renderer of this scene released its C renderer."""
        with self._lock:
            self._users -= 1
        self._free()

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _need(self):
        if not self._loaded:
            raise Error("MC_ERR_USAGE", "the scene is closed", self.path)

    def fps(self, fps=None):
        """The output rate as a Fraction: fps if given, else the scene's, else the camera's."""
        rate = _rate(fps)
        with self._lock:
            self._need()
            r = _scene_fps(self._buf, rate)
        return fractions.Fraction(r.num, r.den)

    def frame_count(self, fps=None, clock="ideal"):
        rate, c = _rate(fps), _choice(_CLOCKS, clock, "clock")
        with self._lock:
            self._need()
            return _scene_frame_count_clock(self._buf, _scene_fps(self._buf, rate), c)

    def timeline(self, fps=None, clock="ideal"):
        """One dict per output frame, as `md5cine info --timeline --json` lists them: frame,
        time, stored, next, lerp, shot (0-based), and ms on the engine clock."""
        c = _choice(_CLOCKS, clock, "clock")
        asked = _rate(fps)
        out = []
        s = mc_timeline_sample()
        with self._lock:
            self._need()
            rate = _scene_fps(self._buf, asked)
            for k in range(_scene_frame_count_clock(self._buf, rate, c)):
                _sample_frame_clock(self._camera, rate, c, k, ctypes.byref(s))
                row = {"frame": k, "time": s.time, "stored": s.stored, "next": s.next,
                       "lerp": s.lerp, "shot": s.shot}
                if c == 1:
                    row["ms"] = s.engine_ms
                out.append(row)
        return out

    def shots(self, fps=None, clock="ideal"):
        """The shots as (number, first, last) output frames, inclusive (mc_plan_shots)."""
        c = _choice(_CLOCKS, clock, "clock")
        asked = _rate(fps)
        with self._lock:
            self._need()
            rate = _scene_fps(self._buf, asked)
            count = _scene_frame_count_clock(self._buf, rate, c)
            n = _plan_shots(self._camera, rate, c, count, None, 0)
            arr = (mc_shot_range * max(n, 1))()
            _plan_shots(self._camera, rate, c, count, arr, n)
        return [(arr[i].number, arr[i].first, arr[i].last) for i in range(n)]

    def sound(self, fps=None, clock="ideal", strict=False):
        """The scene's sound over its whole timeline (soundtrack.h): a Soundtrack whose events
        are SoundEvent records (as `md5cine info --timeline --json` lists them) and whose mix is
        a float32 array of samples x 2 (left, right) at 44100 Hz on the 16-bit scale, as
        `md5cine render --audio` writes it. strict: a missing sound file raises (else it is
        silence)."""
        return _sound.soundtrack(self, fps, clock, strict)

    def renderer(self, **kw):
        """A Renderer of this scene; see Renderer for the settings."""
        return Renderer(self, **kw)

    def render(self, output, frames=None, width=0, height=0, fps=None, clock="ideal",
               msaa=MSAA_DEFAULT, shading="lit", fov_mode="horizontal", background=None,
               overlay=False, backend="auto", gl_device=0, developer_images=False, shadows=True,
               shadow_samples="pixel", jobs=0, kind=None, codec=None, crf=0, preset=None,
               reference=None, diff_dir=None,
               update_reference=False, offset=0, mask=None, ignore=(), report_dir=None,
               report_max_frames=None, junit=None, progress=None, audio=None, audio_rate=0,
               **limits):
        """Renders the scene into output as `md5cine render SCENE -o output` does, through the
        library's render run (render_run.h): a video (.mp4 .mkv .mov .y4m; kind names the
        container whatever the name: "mp4", "mkv", "mov", "y4m"), a PNG pattern such as
        "frames/%05d.png", or None with a reference (the frames only checked). Written under a
        temporary name and renamed when complete: never half-written.

        frames: None (all), (first, last) inclusive output frames, or a range of step 1. The
        drawing keywords are Renderer's; jobs: frames drawn at once (0: automatic, as render
        --jobs). codec, crf, preset: the encoder's (None, 0: its defaults). reference and the
        keywords after it: the check of every frame, as render --reference (the limits as
        compare()). audio: None (a video of a scene with sound gets its AAC track), "off" (no
        track) or a FILE.wav also written with the mix of the rendered frames (render --audio);
        audio_rate: the track's rate (0: 48000; 44100 keeps the engine's). progress: called
        as progress(done, total, frame) after each frame; an
        exception it raises (a KeyboardInterrupt from Ctrl-C included) stops the run, which
        removes the unfinished video, and is raised again. Returns a RenderResult; raises
        md5cine.Error."""
        self._need()
        _need_gl()
        run = _RenderRun(self, output, frames, jobs, kind, codec, crf, preset, progress)
        run.sound(audio, audio_rate)
        run.desc.renderer = _renderer_desc(self, width, height, fps, clock, msaa, shading,
                                           fov_mode, background, overlay, backend, gl_device,
                                           developer_images, shadows, shadow_samples)
        run.check(reference, diff_dir, update_reference, offset, mask, ignore, report_dir,
                  report_max_frames, junit, limits)
        return run.run()




class FrameInfo:
    """What output frame k showed (mc_scene_frame_info): frame, time (s), engine_ms (-1 with
    the ideal clock), stored, next, lerp, shot (0-based), and the seconds spent."""
    __slots__ = ("frame", "time", "engine_ms", "stored", "next", "lerp", "shot", "pose_s",
                 "draw_s", "end_s")

    def __init__(self, i):
        for name in self.__slots__:
            setattr(self, name, getattr(i, name))

    def __repr__(self):
        return "FrameInfo(frame=%d, time=%g, stored=%d, next=%d, lerp=%g, shot=%d)" % (
            self.frame, self.time, self.stored, self.next, self.lerp, self.shot)


def _jobs_arg(jobs):
    jobs = 0 if jobs is None else _int(jobs, 32, "jobs")
    if not 0 <= jobs <= MAX_JOBS:
        raise Error("MC_ERR_USAGE", "jobs %d is outside 0..%d" % (jobs, MAX_JOBS))
    return jobs


def _renderer_desc(scene, width, height, fps, clock, msaa, shading, fov_mode, background,
                   overlay, backend, gl_device, developer_images, shadows, shadow_samples):
    """The scene renderer's desc (scene_renderer.h) from the keywords Renderer and
    Scene.render share."""
    if msaa not in (0, 4):
        raise Error("MC_ERR_USAGE", "msaa %r is not 0 or 4" % (msaa,))
    d = mc_scene_renderer_desc(scene=ctypes.addressof(scene._buf),
                               width=_int(width, 32, "width"), height=_int(height, 32, "height"),
                               fps=_rate(fps), clock=_choice(_CLOCKS, clock, "clock"),
                               msaa=msaa,
                               shading=_choice(_SHADINGS, shading, "shading"),
                               fov_mode=_choice(_FOV_MODES, fov_mode, "fov mode"),
                               overlay=overlay, backend=_choice(_BACKENDS, backend, "backend"),
                               gl_device=_int(gl_device, 32, "gl_device"), warn=scene._warn,
                               developer_images=developer_images, no_shadows=not shadows,
                               shadow_samples=_choice(_SHADOW_SAMPLES, shadow_samples,
                                                      "shadow samples"))
    if isinstance(background, str) and background == "none":
        d.background_mode = 2
    elif background is not None:
        d.background_mode = 1
        d.background = (ctypes.c_float * 3)(*[float(c) for c in background])
    return d


class Renderer:
    """Draws a scene's output frames (scene_renderer.h) with the settings of `md5cine render`:
    width, height (0: the scene's, else 1280 x 720), fps (int, Fraction or (num, den); None:
    the scene's), clock ("ideal" | "engine"), msaa (MSAA_DEFAULT = 4, or 0: off, as --msaa
    and the library), shading ("lit" | "unlit" | "normals"), fov_mode ("horizontal" |
    "doom"), background (None: the scene's; an (r, g, b) in 0..1; "none": transparent),
    overlay, backend ("auto" | "egl" | "osmesa"), gl_device, developer_images (as
    --developer-images), shadows (False: as --shadows off), shadow_samples ("pixel": with MSAA
    a pixel's shadow is decided once, as Doom's renderer does; "sample": at each sample, as
    --shadow-samples), jobs (frames drawn at once by
    render_many, each by a GL context of its own, as render --jobs: 1..16, or None (or 0):
    automatic, as render --jobs auto, auto_jobs() on this machine's cores; 1, the default, is
    one renderer on the calling thread).

    Threads (see the module's docstring): with jobs=1 only the thread that made the renderer
    may draw with it; with jobs != 1 any thread may, one call at a time (a lock)."""

    def __init__(self, scene, width=0, height=0, fps=None, clock="ideal", msaa=MSAA_DEFAULT,
                 shading="lit", fov_mode="horizontal", background=None, overlay=False,
                 backend="auto", gl_device=0, developer_images=False, shadows=True, jobs=1,
                 shadow_samples="pixel"):
        self._lock = threading.RLock()  # held while the C renderer or jobs are used or freed
        self._sr = _vp()
        self._jobs = _vp()
        self._many = None  # the render_many drawing with the jobs, if any (its token)
        self._owner = threading.get_ident()  # the thread a jobs=1 renderer draws on
        self.scene = None
        _need_gl()
        jobs = _jobs_arg(jobs)
        d = _renderer_desc(scene, width, height, fps, clock, msaa, shading, fov_mode, background,
                           overlay, backend, gl_device, developer_images, shadows,
                           shadow_samples)
        err = mc_error()
        # Under the scene's lock: a close() of the scene on another thread waits, then closes
        # this renderer too.
        with scene._lock:
            scene._need()
            if jobs == 1:
                st = _sr_create(ctypes.byref(d), ctypes.byref(self._sr), ctypes.byref(err))
            else:
                jd = mc_frame_jobs_desc(renderer=d, jobs=jobs)
                st = _jobs_create(ctypes.byref(jd), ctypes.byref(self._jobs), ctypes.byref(err))
            if st != _MC_OK:
                _raise(err)
            # The renderer holds its scene, and the scene's C memory lives until this releases.
            self.scene = scene
            scene._users += 1
            scene._renderers.add(self)
        w, h, rate, gl = ctypes.c_int(), ctypes.c_int(), mc_rate(), mc_renderer_info()
        (_sr_get_info if self._sr else _jobs_get_info)(self._sr or self._jobs, ctypes.byref(w),
                                                       ctypes.byref(h), ctypes.byref(rate),
                                                       ctypes.byref(gl))
        self.width, self.height = w.value, h.value
        self.fps = fractions.Fraction(rate.num, rate.den)
        self._rate = mc_rate(rate.num, rate.den)
        self._clock = d.clock
        self.samples = gl.samples
        self.backend = _s(gl.backend)
        self.gl_renderer = _s(gl.gl_renderer)
        if self._sr:
            self.frame_count = _sr_frame_count(self._sr)
            self.jobs = 1
        else:
            self.frame_count = _jobs_frame_count(self._jobs)
            self.jobs = _jobs_count(self._jobs)

    def close(self):
        """Releases the renderer (also done when it is collected, or when its scene closes);
        from any thread, once the frame being drawn is done. Every later call raises
        md5cine.Error, and so does a render_many generator resumed after it."""
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            if not self._sr and not self._jobs:
                return
            sr, self._sr = self._sr, _vp()
            jobs, self._jobs = self._jobs, _vp()
            if sr:
                _sr_release(sr)
            else:
                _jobs_release(jobs)  # waits for the frames being drawn
        self.scene._unuse()

    def _need(self, draw=True):
        """At every call and every resumption of render_many, with the lock held: the renderer
        is open, and the calling thread may draw with it (draw)."""
        if not self._sr and not self._jobs:
            raise Error("MC_ERR_USAGE", "the renderer is closed")
        _need_gl()
        if draw and self._sr and threading.get_ident() != self._owner:
            raise Error("MC_ERR_USAGE", "a renderer with jobs=1 draws on the thread that made it "
                        "(its GL context is current there); make one renderer per thread, or "
                        "one with jobs >= 2, which any thread may call")

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __len__(self):
        return self.frame_count

    def render(self, k, out=None):
        """Renders output frame k into out (a C-contiguous H x W x 4 uint8 array of the
        renderer's size; a new one when None). Returns (pixels, FrameInfo)."""
        k = _int(k, 64, "frame")
        if out is None:
            out = np.empty((self.height, self.width, 4), dtype=np.uint8)
        else:
            _check_out(out, self.height, self.width)
        view = mc_image_view(self.width, self.height, self.width * 4, out.ctypes.data)
        info = mc_scene_frame_info()
        err = mc_error()
        got = _i64()
        with self._lock:
            self._need()
            if self._jobs:
                self._not_busy()
                if _jobs_submit(self._jobs, k, ctypes.byref(view), ctypes.byref(err)) != _MC_OK:
                    _raise(err)
                if _jobs_collect(self._jobs, ctypes.byref(got), ctypes.byref(info),
                                 ctypes.byref(err)) != _MC_OK:
                    _raise(err)
            elif _sr_frame(self._sr, k, ctypes.byref(view), ctypes.byref(info),
                           ctypes.byref(err)) != _MC_OK:
                _raise(err)
        return out, FrameInfo(info)

    def render_many(self, frames=None):
        """Renders frames (an iterable of output frame numbers; None: all) and yields
        (k, pixels) for each, in the order given, each pixels a new H x W x 4 uint8 array. With
        jobs > 1, up to that many frames are drawn at once (frame_jobs.h); the pixels are those
        of render(k) whatever the number of jobs. A frame that fails, or an item of frames that
        is no frame number (TypeError, OverflowError), raises once the frames before it were
        yielded, at any job count; closing the generator early waits for the frames still being
        drawn. Each resumption checks that the renderer is still open (md5cine.Error)."""
        it = iter(range(self.frame_count) if frames is None else frames)
        with self._lock:
            self._need()
            jobs = bool(self._jobs)
            if jobs:
                self._not_busy()
                token = self._many = object()
        if not jobs:
            for k in it:
                yield k, self.render(k)[0]
            return
        yield from self._many_jobs(it, token)

    def _many_jobs(self, it, token):
        flight = []  # (k, array, view) of the frames submitted, oldest first
        bad = None  # the exception of an item that is no frame number, raised in its turn
        try:
            while True:
                while bad is None and len(flight) < self.jobs:
                    k = next(it, _END)
                    if k is _END:
                        break
                    try:
                        k = _int(k, 64, "frame")
                    except (TypeError, OverflowError) as e:
                        bad = e
                        break
                    out = np.empty((self.height, self.width, 4), dtype=np.uint8)
                    view = mc_image_view(self.width, self.height, self.width * 4,
                                         out.ctypes.data)
                    err = mc_error()
                    with self._lock:
                        self._need()
                        if _jobs_submit(self._jobs, k, ctypes.byref(view),
                                        ctypes.byref(err)) != _MC_OK:
                            _raise(err)
                    flight.append((k, out, view))
                if not flight:
                    if bad is not None:
                        raise bad
                    return
                got, err = _i64(), mc_error()
                with self._lock:
                    self._need()
                    st = _jobs_collect(self._jobs, ctypes.byref(got), None, ctypes.byref(err))
                k, out, _ = flight.pop(0)
                if st != _MC_OK:
                    _raise(err)
                yield k, out
        finally:
            # The jobs write into the arrays of frames in flight: wait for them before the
            # arrays can go (a close() of the renderer waited for them already).
            with self._lock:
                while flight and self._jobs:
                    got, err = _i64(), mc_error()
                    _jobs_collect(self._jobs, ctypes.byref(got), None, ctypes.byref(err))
                    flight.pop(0)
                if self._many is token:
                    self._many = None

    def _not_busy(self):
        if self._many is not None:
            raise Error("MC_ERR_USAGE", "the renderer's jobs are drawing for a render_many "
                        "that has not finished: finish or close it first")

    def frame(self, k, out=None):
        """Output frame k as a numpy H x W x 4 uint8 array (RGBA, top row first)."""
        return self.render(k, out)[0]

    def info(self, k):
        """FrameInfo of output frame k from the timeline, without drawing."""
        k = _int(k, 64, "frame")
        s = mc_timeline_sample()
        with self._lock:
            self._need(draw=False)
            if not 0 <= k < self.frame_count:
                raise Error("MC_ERR_USAGE", "frame %d is outside 0..%d"
                            % (k, self.frame_count - 1))
            _sample_frame_clock(self.scene._camera, self._rate, self._clock, int(k),
                                ctypes.byref(s))
        i = mc_scene_frame_info(frame=k, time=s.time, engine_ms=s.engine_ms, stored=s.stored,
                                next=s.next, lerp=s.lerp, shot=s.shot)
        return FrameInfo(i)

    def check(self, reference, frames=None, **kw):
        """Renders frames (an iterable of output frame numbers; None: all) and checks each
        against reference with RefCheck (same keyword arguments). Returns the RefCheck, closed
        and finished (its report written when report_dir was given)."""
        with self._lock:
            self._need()
        frames = range(self.frame_count) if frames is None else frames
        rc = RefCheck(reference, self.width, self.height, candidate=self.scene.path,
                      shots=self.scene.shots(self.fps, _choice_name(_CLOCKS, self._clock)), **kw)
        try:
            buf = np.empty((self.height, self.width, 4), dtype=np.uint8)
            for k in frames:
                self.render(k, buf)
                rc.check(buf, k)
            rc.finish(title=self.scene.path)
        finally:
            rc.close()
        return rc


def _choice_name(table, value):
    return next(k for k, v in table.items() if v == value)


# The reference check and Scene.render's run (render_run.h) live beside this file; they use
# the helpers above.
from . import _audio  # noqa: E402
from ._audio import AudioResult, compare_sound  # noqa: E402,F401
from ._check import CheckRows, RefCheck, check_sources  # noqa: E402,F401
from ._render import RenderResult, _RenderRun  # noqa: E402
from . import _sound  # noqa: E402
from ._sound import SoundEvent, Soundtrack  # noqa: E402,F401
