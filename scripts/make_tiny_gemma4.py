"""Write the tiny Gemma 4 target and its assistant (GGUF files).

    python scripts/make_tiny_gemma4.py --out DIR

What is written, and the options: :mod:`app.devtools.tiny_gemma4`.
"""

import sys

from app.devtools.tiny_gemma4 import main

if __name__ == "__main__":
    sys.exit(main())
