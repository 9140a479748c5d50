"""Tools for developing Tandem, never used by the app itself: where the test assets live, the tiny
models the tests and benchmarks build, real image files, and the benchmarks' prompts.

The tests, the benchmarks and the scripts import these from the installed package (nothing puts
the repository on ``sys.path`` or imports ``tests``). The bundle leaves this package out.
"""
