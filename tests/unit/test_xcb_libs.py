"""A missing X11 library for Qt's xcb plugin is one line naming the package, not Qt's abort."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from app import xcb_libs
from app.xcb_libs import XCB_LIBRARIES, distro_family, missing_libraries, uses_xcb, xcb_problem

DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nID=debian\n'
UBUNTU = 'NAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\nVERSION_ID="24.04"\n'
MINT = 'NAME="Linux Mint"\nID=linuxmint\nID_LIKE="ubuntu debian"\n'
FEDORA = 'NAME="Fedora Linux"\nID=fedora\nVERSION_ID=41\n'
ROCKY = 'NAME="Rocky Linux"\nID="rocky"\nID_LIKE="rhel centos fedora"\n'
ARCH = 'NAME="Arch Linux"\nID=arch\n'
MANJARO = 'NAME="Manjaro Linux"\nID=manjaro\nID_LIKE=arch\n'
SUSE = 'NAME="openSUSE Tumbleweed"\nID="opensuse-tumbleweed"\nID_LIKE="opensuse suse"\n'


def loader_without(*absent: str) -> xcb_libs.Loader:
    """A dynamic loader for which ``absent`` are not installed (everything else loads)."""

    def load(name: str) -> object:
        if name in absent:
            raise OSError(f"{name}: cannot open shared object file: No such file or directory")
        return object()

    return load


@pytest.mark.parametrize(
    ("env", "platform", "expected"),
    [
        ({"DISPLAY": ":0"}, "linux", True),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"}, "linux", True),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb:nograb"}, "linux", True),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, "linux", False),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "wayland"}, "linux", False),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "wayland;xcb"}, "linux", False),
        ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"}, "linux", False),
        ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "x11"}, "linux", True),
        ({"DISPLAY": ":0", "XDG_SESSION_TYPE": "wayland"}, "linux", True),  # no compositor to reach
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
        ({}, "linux", False),
        ({"DISPLAY": ":0"}, "darwin", False),
        ({"DISPLAY": ":0"}, "win32", False),
    ],
)
def test_the_check_runs_only_where_qt_starts_on_xcb(
    env: dict[str, str], platform: str, expected: bool
) -> None:
    assert uses_xcb(env, platform) is expected


@pytest.mark.parametrize(
    ("os_release", "family"),
    [
        (DEBIAN, "debian"),
        (UBUNTU, "debian"),
        (MINT, "debian"),
        (FEDORA, "fedora"),
        (ROCKY, "fedora"),
        (ARCH, "arch"),
        (MANJARO, "arch"),
        (SUSE, None),
        ("", None),
        (None, None),
        ('ID="unterminated\nID_LIKE=debian\n', "debian"),
    ],
)
def test_distro_family_from_os_release(os_release: str | None, family: str | None) -> None:
    assert distro_family(os_release) == family


@pytest.mark.parametrize(
    ("os_release", "advice"),
    [
        (DEBIAN, "install it with: sudo apt-get install libxcb-cursor0 "),
        (UBUNTU, "install it with: sudo apt-get install libxcb-cursor0 "),
        (FEDORA, "install it with: sudo dnf install xcb-util-cursor "),
        (ARCH, "install it with: sudo pacman -S xcb-util-cursor "),
        (SUSE, "install the packages that provide it (Debian/Ubuntu: libxcb-cursor0; Fedora/Arch: "
               "xcb-util-cursor) "),
        (None, "(Debian/Ubuntu: libxcb-cursor0; Fedora/Arch: xcb-util-cursor)"),
    ],
)  # fmt: skip
def test_missing_xcb_cursor_is_one_line_naming_the_package(os_release: str | None, advice: str) -> None:
    line = xcb_problem({"DISPLAY": ":0"}, "linux", loader_without("libxcb-cursor.so.0"), lambda: os_release)
    assert line is not None and "\n" not in line
    assert line.startswith("tandem: the desktop app needs the X11 library libxcb-cursor.so.0, ")
    assert advice in line
    assert "tandem generate" in line and "Reinstall" not in line


def test_several_missing_libraries_are_one_install_command() -> None:
    absent = ("libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxcb-shm.so.0", "libxcb-sync.so.1")
    line = xcb_problem({"DISPLAY": ":0"}, "linux", loader_without(*absent), lambda: FEDORA)
    assert line is not None and "\n" not in line
    assert "X11 libraries libxcb-icccm.so.4, libxcb-keysyms.so.1, libxcb-shm.so.0, libxcb-sync.so.1" in line
    assert "install them with: sudo dnf install xcb-util-wm xcb-util-keysyms libxcb " in line  # once each
    debian = xcb_problem({"DISPLAY": ":0"}, "linux", loader_without(*absent), lambda: DEBIAN)
    assert debian is not None
    assert "sudo apt-get install libxcb-icccm4 libxcb-keysyms1 libxcb-shm0 libxcb-sync1 " in debian


def test_nothing_to_say_when_every_library_loads_or_qt_is_not_on_xcb() -> None:
    assert xcb_problem({"DISPLAY": ":0"}, "linux", loader_without(), lambda: DEBIAN) is None
    calls: list[str] = []

    def loader(name: str) -> object:
        calls.append(name)
        raise OSError(name)

    assert xcb_problem({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, "linux", loader) is None
    assert calls == []  # not even tried
    assert missing_libraries(loader) == list(XCB_LIBRARIES)


# --- the table matches the installed PySide6 ---------------------------------------------------------
def _elf_needed(path: Path) -> list[str]:
    """DT_NEEDED entries of a little-endian ELF64 shared library (enough for x86-64 / aarch64)."""
    data = path.read_bytes()
    assert data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1, f"{path}: not an ELF64 LE file"
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    dynamic = next(s for s in sections if s[1] == 6)  # SHT_DYNAMIC
    strtab = sections[dynamic[6]]  # sh_link: the section of its strings
    names = []
    for off in range(dynamic[4], dynamic[4] + dynamic[5], 16):
        tag, value = struct.unpack_from("<qQ", data, off)
        if tag == 0:
            break
        if tag == 1:  # DT_NEEDED
            start = strtab[4] + value
            names.append(data[start : data.index(b"\0", start)].decode())
    return names


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the xcb plugin is Linux-only")
def test_the_table_covers_what_pyside6s_xcb_plugin_links() -> None:
    import PySide6

    qt = Path(PySide6.__file__).parent / "Qt"
    plugin, qpa = qt / "plugins" / "platforms" / "libqxcb.so", qt / "lib" / "libQt6XcbQpa.so.6"
    if not plugin.is_file():
        pytest.skip(f"this PySide6 has no xcb plugin ({plugin})")
    runtime = {"libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1", "libdl.so.2", "libpthread.so.0"}
    needed = {n for f in (plugin, qpa) for n in _elf_needed(f)}
    external = {n for n in needed if not n.startswith("libQt6") and n not in runtime}
    assert "libxcb-cursor.so.0" in external  # the parser works (Qt >= 6.5)
    assert external <= set(XCB_LIBRARIES), f"not in XCB_LIBRARIES: {sorted(external - set(XCB_LIBRARIES))}"


# --- the real `tandem`, with libxcb-cursor.so.0 hidden ------------------------------------------------
def _installed_paths(soname: str) -> list[str]:
    ldconfig = shutil.which("ldconfig") or "/sbin/ldconfig"
    try:
        listing = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, timeout=30).stdout
    except OSError:
        return []
    rows = [ln for ln in listing.splitlines() if ln.strip().startswith(soname + " ")]
    return [ln.rsplit("=> ", 1)[1].strip() for ln in rows]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the xcb plugin is Linux-only")
def test_tandem_with_libxcb_cursor_missing_says_which_package(tmp_path: Path) -> None:
    """Runs ``python -m app`` as a user would on X11. When libxcb-cursor is installed here, a private
    mount namespace (``unshare -rm``, no root needed where user namespaces are allowed) puts an empty
    file over it for that one process; the machine itself is untouched."""
    soname = "libxcb-cursor.so.0"
    hide = _installed_paths(soname)
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env.pop("XDG_SESSION_TYPE", None)
    # no X server answers there: if the check missed the library, Qt aborts instead of opening a window
    env["DISPLAY"] = ":97"
    cmd = [sys.executable, "-m", "app"]
    if hide:
        unshare = shutil.which("unshare")
        if unshare is None:
            pytest.skip(f"{soname} is installed and there is no `unshare` to hide it")
        script = 'while [ "$1" != -- ]; do mount --bind /dev/null "$1" || exit 97; shift; done; '
        script += 'shift; exec "$@"'
        cmd = [unshare, "-rm", "sh", "-c", script, "sh", *hide, "--", *cmd]
    proc = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    if hide and (proc.returncode == 97 or proc.stderr.startswith("unshare:")):
        pytest.skip(f"cannot hide {soname} here (user namespaces not allowed?): {proc.stderr.strip()}")
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert line.startswith("tandem: the desktop app needs the X11 ") and soname in line
    packages = {XCB_LIBRARIES[soname][i] for i in range(3)}
    assert any(p in line for p in packages), line
    assert "qt.qpa" not in line and "Reinstalling" not in line
