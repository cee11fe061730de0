#!/usr/bin/env bash
# The code gates CI runs (.ci/run): formatting (clang-format, .clang-format), Python style
# (pycodestyle) and Python names (pyflakes: undefined or unused), and with a configured build (compile_commands.json) the short clang-tidy
# list of .clang-tidy over the module's C++ sources. Exits non-zero on any finding.
#   scripts/lint.sh format|python|tidy|all     (default all; tidy reads $GPUOFDM_BUILD)
# SPDX-License-Identifier: GPL-3.0-or-later
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$GPUOFDM_SRC"
what="${1:-all}"

need() { # tool package
    command -v "$1" >/dev/null 2>&1 && return
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$2"
}

sources() { git ls-files '*.h' '*.cc' '*.cu' '*.cuh'; }

check_format() {
    need clang-format clang-format
    echo "lint: clang-format $(clang-format --version | grep -o '[0-9][0-9.]*' | head -1)"
    if ! sources | xargs clang-format --dry-run --Werror; then
        echo "lint: unformatted code above; fix with: clang-format -i FILE" >&2
        return 1
    fi
}

check_python() {
    need pycodestyle pycodestyle
    echo "lint: pycodestyle"
    git ls-files '*.py' | xargs pycodestyle --max-line-length=100
    need pyflakes3 pyflakes3
    echo "lint: pyflakes"
    # The package's __init__.py re-exports the bindings (GNU Radio's module template).
    git ls-files '*.py' | grep -v '/__init__\.py$' | xargs pyflakes3
}

check_tidy() {
    need clang-tidy clang-tidy
    local db="$GPUOFDM_BUILD/compile_commands.json"
    if [ ! -f "$db" ]; then
        echo "lint: $db missing: configure the build first (scripts/test.sh)" >&2
        return 1
    fi
    # C++ translation units only (clang-tidy does not parse CUDA here); headers through them.
    local files
    files=$(git ls-files 'lib/*.cc' 'apps/*.cc' | grep -v '^lib/tests/' || true)
    echo "lint: clang-tidy over $(echo "$files" | wc -l) files"
    echo "$files" | xargs -P "$GPUOFDM_JOBS" -n 4 clang-tidy -p "$GPUOFDM_BUILD" --quiet \
        --header-filter="^$GPUOFDM_SRC/(lib|apps|include)/"
}

case "$what" in
    format) check_format ;;
    python) check_python ;;
    tidy) check_tidy ;;
    all) check_format && check_python && check_tidy ;;
    *) echo "usage: scripts/lint.sh format|python|tidy|all" >&2; exit 2 ;;
esac
