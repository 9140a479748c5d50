"""Real model hubs on loopback for the cache and download tests, the benchmarks and the screenshots.

- ``OlahHub``: the ``olah`` Hugging Face mirror in offline mode, serving git repositories that
  :func:`build_hf_repo` writes (large files as git-LFS pointers with the object under
  ``.git/lfs/objects``, as TEST_ASSETS.md describes). Clients point ``HF_ENDPOINT`` at it.
- ``ModelScopeHub``: a small HTTP server implementing exactly the ModelScope endpoints that
  modelscope 1.40 calls for a download (file listing, acceleration probe, file bytes with Range).
- ``FlakyProxy``: a TCP proxy in front of either hub that can throttle the response stream and
  drop the connection once, which is how the tests make "the network breaks mid-file" happen.

Everything binds to 127.0.0.1 on a free port and is stopped by whoever starts it (the tests' fixtures
are in ``tests/integration/hub_servers.py``).
Threads are named ``tandem-test-*`` so the suite's leak check sees them.

"""
