#!/usr/bin/env bash
# Install Dog Companion as a systemd service from this checkout (after one `sudo ./run`):
# the user `dog-companion` in the groups video, gpio and spi, the unit with this checkout's
# path, and on a Pi 3/4 the drop-in that runs the ws281x LED backend as root.
#   sudo systemd/install.sh && sudo systemctl enable --now dog-companion
# DOG_INSTALL_ROOT=DIR writes the files below DIR instead and touches no users or systemd
# (a dry run for checking the result).
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
root=${DOG_INSTALL_ROOT:-/}
units="$root/etc/systemd/system"
user=dog-companion

if [ ! -x "$checkout/.venv/bin/dog-companion" ]; then
  echo "install.sh: $checkout/.venv is missing: run 'sudo ./run' once first" >&2
  exit 2
fi
if [ "$root" = / ]; then
  [ "$(id -u)" = 0 ] || { echo "install.sh: run it as root (sudo)" >&2; exit 2; }
  for group in video gpio spi; do
    getent group "$group" >/dev/null || groupadd --system "$group"
  done
  if ! id "$user" >/dev/null 2>&1; then
    useradd --system --user-group --no-create-home --home-dir /var/lib/dog-companion \
      --shell /usr/sbin/nologin "$user"
  fi
  usermod -a -G video,gpio,spi "$user"
  if ! runuser -u "$user" -- test -x "$checkout/.venv/bin/dog-companion"; then
    echo "install.sh: user $user cannot reach $checkout (a private home directory?):" \
         "clone into /opt/dog-companion or 'chmod o+x' the folders above it" >&2
    exit 2
  fi
fi
mkdir -p "$units"
sed "s#@DIR@#$checkout#g" systemd/dog-companion.service > "$units/dog-companion.service"
if grep -qs "Raspberry Pi [34]" /proc/device-tree/model || [ -n "${DOG_INSTALL_WS281X:-}" ]; then
  mkdir -p "$units/dog-companion.service.d"
  cp systemd/ws281x-root.conf "$units/dog-companion.service.d/ws281x-root.conf"
fi
if [ "$root" = / ]; then
  systemctl daemon-reload
  echo "Installed. Start it with: sudo systemctl enable --now dog-companion"
  echo "The referee PIN is printed in its log on the first start: journalctl -u dog-companion"
else
  echo "Written below $root"
fi
