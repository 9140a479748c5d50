"""Where the test and benchmark assets are kept: downloaded and generated model files, built once.

``TANDEM_TEST_ASSETS`` names the folder, else ``~/.cache/tandem-test-assets`` of the real home (the
tests point ``HOME`` at a temporary one, so the home is read from the password database).
"""

from __future__ import annotations

import os
from pathlib import Path


def _real_home() -> Path:
    try:
        import pwd
    except ImportError:  # Windows: HOME is not redirected there
        return Path.home()
    try:
        return Path(pwd.getpwuid(os.getuid()).pw_dir)
    except KeyError:
        return Path.home()


#: the user's home, whatever ``HOME`` says
REAL_HOME = _real_home()
ASSET_DIR = Path(os.environ.get("TANDEM_TEST_ASSETS", REAL_HOME / ".cache" / "tandem-test-assets"))
