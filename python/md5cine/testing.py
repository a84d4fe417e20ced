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
"""

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

