#!/usr/bin/env bash
# Downloads the Debian font packages the glyph atlas is drawn from and unpacks their font files into
# training/.cache/fonts (nothing is installed on the machine). Needs apt's package lists.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p .cache/debs .cache/fonts
packages=(fonts-arphic-uming fonts-arphic-ukai fonts-arphic-bkai00mp fonts-arphic-bsmi00lp
  fonts-cns11643-kai fonts-cns11643-sung fonts-cwtex-kai fonts-cwtex-ming fonts-cwtex-fs
  fonts-hanazono fonts-ipamj-mincho fonts-ipaexfont-mincho fonts-noto-cjk fonts-lxgw-wenkai fonts-klee)
(cd .cache/debs && apt-get download "${packages[@]}")
tmp=$(mktemp -d)
for deb in .cache/debs/*.deb; do dpkg -x "$deb" "$tmp"; done
find "$tmp/usr/share/fonts" -type f \( -name '*.ttf' -o -name '*.ttc' -o -name '*.otf' \) -exec cp {} .cache/fonts/ \;
rm -rf "$tmp"
ls -la .cache/fonts
