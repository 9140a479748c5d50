"""Auto: pick the speculation that pays on this machine, from a short side-by-side measurement,
and route each request to the configuration that pays for its kind.

One idea per module:

* :mod:`.candidates`: what can be tried for a launch (:class:`Candidate`, :func:`candidates`):
  off, the drafter at a few depths, the engine's model-free methods and (where the engine runs two
  methods at once) a drafter combined with a model-free method.
* :mod:`.policy`: the launch-wide rule (:func:`choose`: never below :data:`PROSE_FLOOR` on prose,
  the best geometric mean over the workloads, the cheapest of those within the noise of it, off
  included) and :func:`prior`, what runs before anything was measured here; every figure with its
  interval, from the calibration's repeated pairs (:func:`pair_noise`, :func:`workload_figures`).
* :mod:`.store`: results keyed by :class:`CalibrationKey` (model file, drafter file, engine and
  its version, threads, machine: a change in any of them means "not measured here"), and the
  configurations demoted on the user's real answers.
* :mod:`.runner`: :func:`calibrate`, the measurement itself, reporting :class:`Step` progress.
* :mod:`.kinds`, :mod:`.routing`, :mod:`.learning`: per request, what kind of request it is,
  which measured configuration pays for that kind, and what the user's real answers say.

The names below are the package's public face: most callers need a few of several modules.
"""

from app.core.launch.auto.candidates import (
    DRAFT_P_MIN,
    NGRAM_DEPTH,
    NGRAM_MIN_DRAFT,
    OFF,
    Candidate,
    auto_model_free,
    candidates,
    with_images,
)
from app.core.launch.auto.kinds import RequestKind, classify
from app.core.launch.auto.learning import RouteLearner
from app.core.launch.auto.policy import (
    CAL_Z,
    PROSE_FLOOR,
    WORKLOADS,
    Choice,
    Measurement,
    choose,
    figure_cell,
    pair_noise,
    prior,
    ratio_text,
    workload_figures,
)
from app.core.launch.auto.progress import Progress, Step
from app.core.launch.auto.routing import Route, Routes, routes
from app.core.launch.auto.runner import (
    CalibrationCancelled,
    CalibrationError,
    calibrate,
    needs_prose_recheck,
)
from app.core.launch.auto.store import (
    FORMAT_VERSION,
    CalibrationKey,
    CalibrationResult,
    forget,
    load_demoted,
    load_result,
    store_demoted,
    store_dir,
    store_result,
)

__all__ = [
    "CAL_Z",
    "DRAFT_P_MIN",
    "FORMAT_VERSION",
    "NGRAM_DEPTH",
    "NGRAM_MIN_DRAFT",
    "OFF",
    "PROSE_FLOOR",
    "WORKLOADS",
    "CalibrationCancelled",
    "CalibrationError",
    "CalibrationKey",
    "CalibrationResult",
    "Candidate",
    "Choice",
    "Measurement",
    "Progress",
    "RequestKind",
    "Route",
    "RouteLearner",
    "Routes",
    "Step",
    "auto_model_free",
    "calibrate",
    "candidates",
    "choose",
    "classify",
    "figure_cell",
    "forget",
    "load_demoted",
    "load_result",
    "needs_prose_recheck",
    "pair_noise",
    "prior",
    "ratio_text",
    "routes",
    "store_demoted",
    "store_dir",
    "store_result",
    "with_images",
    "workload_figures",
]
