# Shared by ./run and ./test: make .venv with the project installed, quickly when it already is.
# Source it, then call `setup_env EXTRAS` (e.g. `setup_env dev`).

on_pi() { grep -qs "Raspberry Pi" /proc/device-tree/model; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else return 1
  fi
}

# apt_install PACKAGE...: install the Debian packages that are missing (root or sudo needed).
apt_install() {
  local missing=() package
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" \
      || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "Installing Debian packages: ${missing[*]}"
  if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" \
      >/dev/null 2>&1; then
    as_root apt-get update -qq && \
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" \
      || { echo "Please install these Debian packages: ${missing[*]}" >&2; return 1; }
  fi
}

setup_env() {
  local extras="$1" venv=.venv
  python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || { echo "Dog Companion needs Python 3.11 or newer (python3 is older)" >&2; return 1; }
  local venv_flags=() wanted="${extras}"
  if on_pi; then
    # picamera2 comes from Raspberry Pi OS, not from pip: let the venv see it.
    apt_install python3-picamera2
    venv_flags+=(--system-site-packages)
    wanted="${wanted:+$wanted,}pi"
  fi
  if [ ! -x "$venv/bin/python" ]; then
    python3 -c 'import ensurepip, venv' 2>/dev/null || apt_install python3-venv
    python3 -m venv "${venv_flags[@]}" "$venv"
  fi
  local stamp="$venv/.dog-installed" want
  want="$(sha256sum pyproject.toml | cut -c1-16) [${wanted}]"
  local have
  have="$(cat "$stamp" 2>/dev/null || true)"
  # A venv made for the tests ([dev]) also runs the companion: ./run after ./test needs nothing.
  if [ "$have" != "$want" ] && ! { [ -z "$extras" ] && [ "${have%% *}" = "${want%% *}" ]; }; then
    echo "Installing Dog Companion into $venv (first run takes a minute) …"
    local log="$venv/install.log"
    if ! { "$venv/bin/python" -m pip install --disable-pip-version-check --upgrade pip &&
           "$venv/bin/python" -m pip install --disable-pip-version-check \
             -e ".${wanted:+[$wanted]}"; } > "$log" 2>&1; then
      tail -n 20 "$log" >&2
      echo "Installing failed; the whole log is in $log" >&2
      return 1
    fi
    echo "$want" > "$stamp"
  fi
}
