"""How the registry's models are shown in the Models page and the launch dialog: the status
dots, and the texts of statuses, sources, mixture-of-experts, memory verdicts and disk use.

Every text keeps the ``RegistryModel`` translation context it always had.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap

from app.core.catalog.fit import FitEstimate
from app.core.registry import AnySpec, Family
from app.core.units import human_bytes
from app.gui.i18n import active_language

STATUS_COLORS = {"cached": "#2e9d5b", "partial": "#d99a1e", "absent": "#b8bec6"}
_dot_cache: dict[str, QIcon] = {}


def status_icon(status: str) -> QIcon:
    """A small filled (cached), half (partial) or hollow (absent) dot."""
    icon = _dot_cache.get(status)
    if icon is None:
        pm = QPixmap(12, 12)
        pm.fill(Qt.GlobalColor.transparent)
        p = QPainter(pm)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        color = QColor(STATUS_COLORS.get(status, "#b8bec6"))
        p.setPen(color)
        if status == "cached":
            p.setBrush(color)
            p.drawEllipse(1, 1, 10, 10)
        elif status == "partial":
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(1, 1, 10, 10)
            p.setBrush(color)
            p.drawPie(1, 1, 10, 10, 90 * 16, 180 * 16)
        else:
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(1, 1, 10, 10)
        p.end()
        icon = QIcon(pm)
        _dot_cache[status] = icon
    return icon


def status_text(status: str) -> str:
    return {
        "cached": QCoreApplication.translate("RegistryModel", "Downloaded"),
        "partial": QCoreApplication.translate("RegistryModel", "Partially downloaded"),
        "absent": QCoreApplication.translate("RegistryModel", "Not downloaded"),
        "unknown": QCoreApplication.translate("RegistryModel", "Checking…"),
    }.get(status, status)


def family_description(family: Family) -> str:
    """The family's description in the window's language; English where it has no translation."""
    return family.description_in(active_language())


def size_text(spec: AnySpec) -> str:
    return spec.size_text


UNVERIFIED_COLOR = "#a8660c"


def unverified_tag() -> str:
    return QCoreApplication.translate("RegistryModel", "unverified")


def source_tooltip(spec: AnySpec) -> str | None:
    """Where the spec's repository and file names were confirmed, or that nothing confirms them
    (a user's own entry carries neither, and gets no line)."""
    lines: list[str] = []
    for hub in spec.sources.hubs():
        src = spec.source(hub)
        if src.unverified:
            lines.append(
                QCoreApplication.translate(
                    "RegistryModel",
                    "{hub}: unverified. No stored public page confirms {repo} and its file names; "
                    "the download checks the repository's own listing and says what it finds.",
                ).format(hub=HUB_NAMES.get(hub, hub), repo=src.model_id)
            )
        elif src.evidence:
            ev = src.evidence[0]
            lines.append(
                QCoreApplication.translate("RegistryModel", "{hub}: checked on {date} against {url}").format(
                    hub=HUB_NAMES.get(hub, hub), date=ev.checked, url=ev.url
                )
            )
    return "\n".join(lines) or None


HUB_NAMES = {"huggingface": "Hugging Face", "modelscope": "ModelScope"}


def moe_tooltip(spec: AnySpec) -> str | None:
    """For a mixture-of-experts spec: what that means for speculative decoding."""
    active = spec.activated_size_in_billions
    if not active:
        return None
    return QCoreApplication.translate(
        "RegistryModel",
        "Mixture of experts: {active}B of {total}B parameters run per token. A drafter often slows "
        "MoE models down: verifying several drafted tokens wakes more experts than generating one.",
    ).format(active=f"{active:g}", total=f"{spec.size_in_billions:g}")


def disk_use_help() -> str:
    return QCoreApplication.translate(
        "RegistryModel",
        "The disk its files use: every downloaded quantization, its drafters and its image "
        "projector. A file several models share is counted once.",
    )


def disk_use_text(total: int, partial: int) -> str:
    """``4.2 GB on disk``, and how much of it unfinished downloads hold."""
    text = QCoreApplication.translate("RegistryModel", "{size} on disk").format(size=human_bytes(total))
    if partial:
        text += " " + QCoreApplication.translate(
            "RegistryModel", "({size} of it in unfinished downloads)"
        ).format(size=human_bytes(partial))
    return text


def sizes_text(fam: Family) -> str:
    sizes = sorted(fam.specs, key=lambda s: s.size_in_billions)
    return ", ".join(dict.fromkeys(size_text(s) for s in sizes))


VERDICT_COLORS = {"fits": "#2e9d5b", "tight": "#d99a1e", "too-large": "#b3261e"}


def verdict_text(verdict: str) -> str:
    return {
        "fits": QCoreApplication.translate("RegistryModel", "Fits"),
        "tight": QCoreApplication.translate("RegistryModel", "Tight"),
        "too-large": QCoreApplication.translate("RegistryModel", "Too large"),
        "unknown": QCoreApplication.translate("RegistryModel", "Unknown"),
    }.get(verdict, verdict)


def gib_text(n: int) -> str:
    return f"{n / (1 << 30):.2f} GiB" if n >= 1 << 28 else f"{n / (1 << 20):.0f} MiB"


def fit_tooltip(est: FitEstimate, recommended: bool = False) -> str:
    """The numbers behind a verdict: weights, KV cache, drafter, overhead, total vs available."""
    unknown = QCoreApplication.translate("RegistryModel", "unknown")
    weights = gib_text(est.weights_bytes) if est.weights_bytes is not None else unknown
    if "estimated" in est.notes:
        weights = QCoreApplication.translate(
            "RegistryModel", "{size} (estimated from the parameter count)"
        ).format(size=weights)
    elif "listing" in est.notes:
        weights = QCoreApplication.translate("RegistryModel", "{size} (from the hub listing)").format(
            size=weights
        )
    elif "registry" in est.notes:
        weights = QCoreApplication.translate(
            "RegistryModel", "{size} (as the hub listed it when the catalog entry was checked)"
        ).format(size=weights)
    kv = (
        gib_text(est.kv_bytes)
        if est.kv_bytes is not None
        else QCoreApplication.translate(
            "RegistryModel", "unknown until a file is downloaded (its header gives it)"
        )
    )
    drafter = gib_text(est.drafter_bytes)
    if "drafter-unknown" in est.notes:
        drafter = QCoreApplication.translate("RegistryModel", "unknown until it is listed or downloaded")
    total = gib_text(est.total_bytes) if est.total_bytes is not None else unknown
    lines = [
        QCoreApplication.translate("RegistryModel", "{verdict} at {ctx} tokens").format(
            verdict=verdict_text(est.verdict), ctx=est.ctx
        ),
        QCoreApplication.translate("RegistryModel", "Weights: {size}").format(size=weights),
        QCoreApplication.translate("RegistryModel", "KV cache: {size}").format(size=kv),
        QCoreApplication.translate("RegistryModel", "Drafter: {size}").format(size=drafter),
        QCoreApplication.translate("RegistryModel", "Overhead: {size}").format(
            size=gib_text(est.overhead_bytes)
        ),
        QCoreApplication.translate("RegistryModel", "Total: {size}").format(size=total),
        QCoreApplication.translate("RegistryModel", "Available now: {size}").format(
            size=gib_text(est.available_bytes)
        ),
    ]
    if recommended:
        lines.append(QCoreApplication.translate("RegistryModel", "★ The largest quantization that fits"))
    return "\n".join(lines)
