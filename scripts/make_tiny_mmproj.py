"""Write the tiny Gemma 4 vision projector (GGUF files).

    python scripts/make_tiny_mmproj.py --out DIR

What is written, and the options: :mod:`app.devtools.tiny_mmproj`.
"""

import sys

from app.devtools.tiny_mmproj import main

if __name__ == "__main__":
    sys.exit(main())
