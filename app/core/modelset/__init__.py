"""Many models behind one server: what a set serves (:mod:`.entries`) and which are loaded
(:mod:`.modelset`)."""

from app.core.modelset.entries import ModelEntry, ModelSetError
from app.core.modelset.modelset import (
    Lease,
    Loaded,
    LoadFailed,
    ModelSet,
    ModelSource,
    ModelState,
    ModelStatus,
    NoRoom,
    SetConfig,
    UnknownModel,
)

__all__ = [
    "Lease",
    "LoadFailed",
    "Loaded",
    "ModelEntry",
    "ModelSet",
    "ModelSetError",
    "ModelSource",
    "ModelState",
    "ModelStatus",
    "NoRoom",
    "SetConfig",
    "UnknownModel",
]
