"""The pytest plugin of md5cine (entry point pytest11 "md5cine", so installed packages need no
conftest.py; `-p md5cine.pytest_plugin` loads it by hand). It defines the fixtures and the
option --md5cine-regen, and imports the library when a test asks for it, so a pytest session
that does not use md5cine never loads libmd5cine.

--md5cine-regen: md5cine.testing.assert_frames_match (and so the fixture) writes each reference
frame it does not find, or that does not pass, into its reference folder (made when missing)
instead of checking it, and fails each test that wrote one, saying what it wrote; run again
without the option to check against them. A new suite starts from nothing this way.
md5cine.testing.assert_sound_matches (and the fixture md5cine_sound) does the same with a
reference WAV."""

import pytest

# Set from the command line in pytest_configure; md5cine.testing reads it.
REGEN = False


def pytest_addoption(parser):
    parser.getgroup("md5cine").addoption(
        "--md5cine-regen", action="store_true", default=False,
        help="md5cine: write the reference frames and sounds that are missing or do not pass "
             "into their reference folders and files; the tests that wrote one fail, saying so")


def pytest_configure(config):
    global REGEN
    REGEN = bool(config.getoption("md5cine_regen", False))


@pytest.fixture
def md5cine_frames(tmp_path):
    """md5cine.testing.assert_frames_match with its output folder under the test's tmp_path."""
    from md5cine.testing import assert_frames_match

    def check(scene, reference, frames=None, **kw):
        __tracebackhide__ = True
        kw.setdefault("out_dir", tmp_path / "md5cine")
        return assert_frames_match(scene, reference, frames=frames, **kw)
    return check


@pytest.fixture
def md5cine_sound(tmp_path):
    """md5cine.testing.assert_sound_matches with its output folder (the scene's sound.wav) under
    the test's tmp_path."""
    from md5cine.testing import assert_sound_matches

    def check(source, reference, **kw):
        __tracebackhide__ = True
        kw.setdefault("out_dir", tmp_path / "md5cine")
        return assert_sound_matches(source, reference, **kw)
    return check
