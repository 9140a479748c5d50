"""Before Qt starts on X11: are the system libraries its ``xcb`` platform plugin needs there?

Qt 6.5+ links ``libxcb-cursor.so.0``, which many desktops do not install. When it (or another of
the plugin's X11 libraries) is missing, Qt prints three lines ending in "Reinstalling the
application may fix this problem" and aborts; reinstalling does not help, installing one system
package does. This module checks the libraries first, with the dynamic loader Qt would use, and
makes one line that names the package for this distribution. No Qt import.
"""

from __future__ import annotations

import ctypes
import shlex
from collections.abc import Callable, Iterable, Mapping

#: The X11 libraries the xcb platform plugin links, each with the package that provides it on
#: (Debian/Ubuntu, Fedora, Arch). The list is the NEEDED entries of PySide6 6.11's
#: ``Qt/plugins/platforms/libqxcb.so`` and ``Qt/lib/libQt6XcbQpa.so.6`` other than Qt's own
#: libraries and the C/C++ runtime (``readelf -d``); tests/unit/test_xcb_libs.py checks the
#: installed PySide6 against it. The ones a desktop most often lacks come first.
XCB_LIBRARIES: dict[str, tuple[str, str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms", "xcb-util-keysyms"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image", "xcb-util-image"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util", "xcb-util"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11", "libxkbcommon-x11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon", "libxkbcommon"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb", "libxcb"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb", "libx11"),
    "libX11.so.6": ("libx11-6", "libX11", "libx11"),
    "libGL.so.1": ("libgl1", "libglvnd-glx", "libglvnd"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2", "glib2"),
    "libgthread-2.0.so.0": ("libglib2.0-0", "glib2", "glib2"),
}

#: distribution family -> (index into XCB_LIBRARIES' tuples, install command)
_FAMILIES = {
    "debian": (0, "sudo apt-get install"),
    "fedora": (1, "sudo dnf install"),
    "arch": (2, "sudo pacman -S"),
}
#: /etc/os-release ID / ID_LIKE values -> family
_FAMILY_OF_ID = {
    "debian": "debian",
    "ubuntu": "debian",
    "fedora": "fedora",
    "rhel": "fedora",
    "centos": "fedora",
    "arch": "arch",
    "archlinux": "arch",
}
OS_RELEASE_FILES = ("/etc/os-release", "/usr/lib/os-release")

Loader = Callable[[str], object]


def uses_xcb(env: Mapping[str, str], platform: str) -> bool:
    """Whether Qt will start on its ``xcb`` platform here (so the X11 libraries matter)."""
    if not platform.startswith("linux"):
        return False
    first = env.get("QT_QPA_PLATFORM", "").split(";", 1)[0].split(":", 1)[0].strip().lower()
    if first:
        return first == "xcb"
    if not env.get("DISPLAY"):
        return False
    # an empty QT_QPA_PLATFORM in a Wayland session: Qt tries its wayland plugin first
    return not (env.get("XDG_SESSION_TYPE", "").lower() == "wayland" and env.get("WAYLAND_DISPLAY"))


def missing_libraries(load: Loader = ctypes.CDLL, names: Iterable[str] = XCB_LIBRARIES) -> list[str]:
    """The libraries in ``names`` the dynamic loader cannot load (``load`` raises OSError)."""
    missing = []
    for name in names:
        try:
            load(name)
        except OSError:
            missing.append(name)
    return missing


def distro_family(os_release: str | None) -> str | None:
    """``debian``, ``fedora`` or ``arch`` from the text of /etc/os-release; None when unknown."""
    if not os_release:
        return None
    ids: list[str] = []
    for line in os_release.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip() in ("ID", "ID_LIKE"):
            try:
                words = shlex.split(value)
            except ValueError:
                continue
            ids += [w.lower() for part in words for w in part.split()]
    for distro_id in ids:  # ID comes before ID_LIKE in the file, and wins
        if distro_id in _FAMILY_OF_ID:
            return _FAMILY_OF_ID[distro_id]
    return None


def read_os_release(files: Iterable[str] = OS_RELEASE_FILES) -> str | None:
    for path in files:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            continue
    return None


def _packages(missing: list[str], index: int) -> list[str]:
    return list(dict.fromkeys(XCB_LIBRARIES[name][index] for name in missing))


def install_advice(missing: list[str], family: str | None, it: str = "them") -> str:
    """The command (or, on an unknown distribution, the package names) that adds ``missing``."""
    if family in _FAMILIES:
        index, command = _FAMILIES[family]
        return f"install {it} with: {command} {' '.join(_packages(missing, index))}"
    debian, fedora, arch = (" ".join(_packages(missing, i)) for i in range(3))
    others = f"Fedora/Arch: {fedora}" if fedora == arch else f"Fedora: {fedora}; Arch: {arch}"
    return f"install the packages that provide {it} (Debian/Ubuntu: {debian}; {others})"


def xcb_problem(
    env: Mapping[str, str],
    platform: str,
    load: Loader = ctypes.CDLL,
    os_release: Callable[[], str | None] = read_os_release,
) -> str | None:
    """One line saying which system package to install, or None when Qt's xcb plugin can load."""
    if not uses_xcb(env, platform):
        return None
    missing = missing_libraries(load)
    if not missing:
        return None
    libraries = f"X11 librar{'y' if len(missing) == 1 else 'ies'} {', '.join(missing)}"
    it = "it" if len(missing) == 1 else "them"
    return (
        f"tandem: the desktop app needs the {libraries}, not installed here; "
        f"{install_advice(missing, distro_family(os_release()), it)} "
        f"(headless commands such as `tandem generate` work without {it})"
    )
