#!/usr/bin/env bash
# Debian packages that building and testing the bundle needs, installed only where missing:
# - Qt's xcb libraries: the bundle carries them (a teacher's fresh Debian lacks
#   libxcb-icccm4 and libxcb-keysyms1), so they must be on the build machine;
# - the Wayland client libraries the bundle's wayland plugin loads from the system: the .deb
#   (packaging/build_deb.py) names the packages that provide them, asking dpkg;
# - cc and binutils: ICU data trim (packaging/icu_trim.py) and strip;
# - Xvfb: packaging/test_bundle.py opens the bundle's real X11 window on it;
# - dpkg-deb and lintian: the .deb and its check.
set -euo pipefail
libs=$( (ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null) || true)
need=()
for pair in libxcb-cursor.so.0:libxcb-cursor0 libxcb-icccm.so.4:libxcb-icccm4 \
            libxcb-keysyms.so.1:libxcb-keysyms1 libxkbcommon-x11.so.0:libxkbcommon-x11-0 \
            libxcb-image.so.0:libxcb-image0 libxcb-render-util.so.0:libxcb-render-util0 \
            libxcb-shape.so.0:libxcb-shape0 libxcb-randr.so.0:libxcb-randr0 \
            libxcb-xkb.so.1:libxcb-xkb1 libwayland-cursor.so.0:libwayland-cursor0 \
            libwayland-egl.so.1:libwayland-egl1; do
    case "$libs" in *"${pair%%:*} "*) ;; *) need+=("${pair##*:}") ;; esac
done
command -v cc >/dev/null || need+=(gcc)
command -v strip >/dev/null || need+=(binutils)
command -v Xvfb >/dev/null || need+=(xvfb)
command -v dpkg-deb >/dev/null || need+=(dpkg)
command -v lintian >/dev/null || need+=(lintian)
if [ ${#need[@]} -eq 0 ]; then
    echo "bundle build dependencies: all present"
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "missing: ${need[*]}; install them with: sudo apt-get install ${need[*]}" >&2
    exit 1
fi
echo "+ apt-get install ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
for attempt in 1 2; do
    if apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; then
        exit 0
    fi
    echo "apt-get failed (attempt $attempt)" >&2
    sleep 5
done
exit 1
