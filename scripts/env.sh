# shellcheck shell=bash
# Sourced by scripts/run and scripts/test: creates .venv and installs the project into it,
# unless pyproject.toml is unchanged since the last install (a stamp file keeps its hash).
#
#   ensure_env base   # runtime dependencies only
#   ensure_env dev    # plus the test and lint tools
#
# PYTHON selects the interpreter (default: python3.11, else python3; 3.11 or newer).

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${ISHTAR_VENV:-$ROOT/.venv}"

_find_python() {
    local candidate
    for candidate in ${PYTHON:-} python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    echo "error: Python 3.11 or newer is needed (set PYTHON=/path/to/python3.11)" >&2
    return 1
}

ensure_env() {
    local want="$1" python stamp hash have="" have_hash=""
    stamp="$VENV/.ishtar-installed"
    hash="$(cksum <"$ROOT/pyproject.toml" | tr ' ' -)"
    [ -f "$stamp" ] && read -r have_hash have <"$stamp" || true
    if [ -x "$VENV/bin/python" ] && [ "${have_hash:-}" = "$hash" ] &&
        { [ "$have" = dev ] || [ "$want" = base ]; }; then
        return 0
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        python="$(_find_python)"
        echo "==> creating $VENV with $("$python" --version)"
        "$python" -m venv "$VENV"
    fi
    local target="."
    # A venv that had the dev tools keeps them through a reinstall.
    [ "$have" = dev ] && want=dev
    [ "$want" = dev ] && target=".[dev]"
    echo "==> installing $target into $VENV"
    (cd "$ROOT" && _install "$target")
    echo "$hash $want" >"$stamp"
}

# Install the project into the venv with uv, which does in some 6 s what pip does in 25-27
# (a fresh venv, as CI's: docs/benchmarks.md, "The test suite"), with pip's own indexes,
# find-links and constraints (scripts/uv_args.py) and, like pip, the best match over all
# the indexes; pip installs it when uv cannot (uv not found, or it fails).
_install() {
    local target="$1" py="$VENV/bin/python" options=()
    if "$py" -m pip install --disable-pip-version-check -q uv >/dev/null 2>&1; then
        mapfile -t options < <("$py" "$ROOT/scripts/uv_args.py")
        if env ${PIP_CERT:+SSL_CERT_FILE="$PIP_CERT"} "$py" -m uv pip install -q \
            --python "$py" --index-strategy unsafe-best-match "${options[@]}" -e "$target"; then
            return 0
        fi
        echo "==> uv could not install $target: pip installs it" >&2
    fi
    "$py" -m pip install --disable-pip-version-check --no-compile -q -e "$target"
}
