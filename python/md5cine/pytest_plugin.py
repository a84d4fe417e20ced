"""The pytest plugin of md5cine (entry point pytest11 "md5cine", so installed packages need no
conftest.py; `-p md5cine.pytest_plugin` loads it by hand). It only defines the fixture, and
imports the library when a test asks for it, so a pytest session that does not use md5cine
never loads libmd5cine."""

import pytest


@pytest.fixture
def md5cine_frames(tmp_path):
    """md5cine.testing.assert_frames_match with its output folder under the test's tmp_path."""
    from md5cine.testing import assert_frames_match

    def check(scene, reference, frames=None, **kw):
        __tracebackhide__ = True
        kw.setdefault("out_dir", tmp_path / "md5cine")
        return assert_frames_match(scene, reference, frames=frames, **kw)
    return check
