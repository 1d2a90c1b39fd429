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
    (cd "$ROOT" && "$VENV/bin/python" -m pip install --disable-pip-version-check --no-compile -q -e "$target")
    echo "$hash $want" >"$stamp"
}
