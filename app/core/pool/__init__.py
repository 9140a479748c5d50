"""The engine pool of one served model: llama.cpp children on the same weights, one speculative
configuration each, and what it learns from every answer.

* :mod:`~app.core.pool.pool`: :class:`~app.core.pool.pool.EnginePool`, which child answers a
  request, background starts, sharing an answer's pass, priming;
* :mod:`~app.core.pool.turns`: whose turn it is to compute among the children;
* :mod:`~app.core.pool.learning`: every answer's speedup, replay and predictions, and what is
  learned from them;
* :mod:`~app.core.pool.pool_types`: what a pool is given and reports;
* :mod:`~app.core.pool.build`: the pool around a loaded engine.

The window's chat, its Local server and ``tandem serve`` all send their requests through it; the
HTTP layer (:mod:`app.core.serving`) sits above it.
"""
