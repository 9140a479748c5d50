"""Where the test and benchmark assets are kept: downloaded and generated model files, built once.

``TANDEM_TEST_ASSETS`` names the folder, else ``~/.cache/tandem-test-assets`` of the real home
(read when this module is first imported, before the tests point ``HOME`` at a temporary one).
"""

from __future__ import annotations

import os
from pathlib import Path

#: the real home, before the tests replace it with a temporary one
REAL_HOME = Path.home()
ASSET_DIR = Path(os.environ.get("TANDEM_TEST_ASSETS", REAL_HOME / ".cache" / "tandem-test-assets"))
