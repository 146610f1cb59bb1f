#!/bin/sh
# Add sqrtdk-gui to this user's application menu (no root needed); run it from the unpacked
# folder. Undo with: ./install-desktop-entry.sh --remove
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=${XDG_DATA_HOME:-$HOME/.local/share}
apps="$data/applications"
icons="$data/icons/hicolor"
if [ "${1:-}" = "--remove" ]; then
    rm -f "$apps/sqrtdk-gui.desktop"
    for png in "$icons"/*/apps/sqrtdk-gui.png; do rm -f "$png"; done
    echo "removed sqrtdk-gui from the application menu"
    exit 0
fi
mkdir -p "$apps"
for dir in "$here"/share/icons/hicolor/*/apps; do
    size=$(basename "$(dirname "$dir")")
    mkdir -p "$icons/$size/apps"
    cp "$dir/sqrtdk-gui.png" "$icons/$size/apps/sqrtdk-gui.png"
done
# The menu entry starts this folder's executable (quoted: the path may contain spaces).
sed "s|^Exec=.*|Exec=\"$here/sqrtdk-gui\"|" "$here/share/applications/sqrtdk-gui.desktop" \
    > "$apps/sqrtdk-gui.desktop"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$apps" || true
command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q "$icons" 2>/dev/null || true
echo "sqrtdk-gui is now in the application menu ($apps/sqrtdk-gui.desktop)"
