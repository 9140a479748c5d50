"""Write the tiny llama target with its EAGLE-3 and DFlash drafters (GGUF files).

    python scripts/make_tiny_drafters.py --out DIR

What is written, and the options: :mod:`app.devtools.tiny_drafters`.
"""

import sys

from app.devtools.tiny_drafters import main

if __name__ == "__main__":
    sys.exit(main())
