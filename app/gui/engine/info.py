"""What the window, the chat and the Local server know of a loaded model: :class:`ModelInfo`,
and Auto's pick for its launch (:class:`AutoPick`)."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.engines.base import Sampling
from app.core.launch import auto
from app.core.launch.plan import AutoLaunch
from app.core.settings import LastLaunch


@dataclass(frozen=True)
class AutoPick:
    """What Auto chose for a launch: the candidate's label, why, and where the measurement is.

    ``measured`` is False while Auto runs its prior (nothing measured here yet): the
    launch did not wait, and :class:`~app.gui.controllers.auto_tuner.AutoTuner` measures in the
    background from ``plan``."""

    label: str
    why: str = ""
    stored: str = ""
    measured: bool = True
    candidate: auto.Candidate | None = None
    plan: AutoLaunch | None = None


@dataclass
class ModelInfo:
    """What the window, the chat and the server know of the loaded model, one typed record. A load
    job fills it; the host publishes a copy once the model is loaded
    (:attr:`~app.gui.engine.host.EngineHost.info`)."""

    engine: str = ""
    #: the family's name, or a remote server's label
    family: str = ""
    #: what the stats strip names ("draft 4/round", "Auto: ngram-mod 64/round", "" when off)
    speculation: str = ""
    size: str = ""
    quantization: str = ""
    format: str = ""
    #: the sampling the chat answers with once the model is loaded
    sampling: Sampling | None = None
    #: the launch as the settings store it (None for a remote server: no files to reopen)
    launch: LastLaunch | None = None
    #: plain and speculative answers of one file, engine and thread count are compared
    baseline_key: str = ""
    endpoint: str = ""
    server_kind: str = ""
    remote_model: str = ""
    auto: AutoPick | None = None
    #: the model's label (the job's), set when published
    label: str = ""
    #: the method the engine runs (:attr:`Engine.spec_kind`, None: off or unknown), read on the
    #: load thread when published (a remote engine asks its server)
    spec_kind: str | None = None
    #: the loaded model reads images (:attr:`Engine.supports_images`, read on the load thread
    #: when published); the chat refuses attachments before sending when False
    vision: bool = False
    #: the model's Auto launch (its calibration key, candidates and drafter), whether or not it
    #: was launched with Auto: the conversation's "Auto" is routed per request from it
    routes_plan: AutoLaunch | None = None
    #: the memory the loaded model takes (the launch dialog's fit estimate; 0: not known)
    memory_bytes: int = 0
