#!/usr/bin/env bash
# Runs a command and checks its exit status and its output (stdout and stderr together):
#   expect_exit.sh STATUS REGEX [REGEX...] -- COMMAND [ARGS...]
# passes when the status is STATUS, each extended REGEX matches some line and no line
# says "fatal:"; a test of what a user sees on bad input (a message naming the option,
# exit status 2), on --help, or on a verdict.
# SPDX-License-Identifier: GPL-3.0-or-later
set -uo pipefail
want_status="$1"
shift
regexes=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    regexes+=("$1")
    shift
done
shift # --
out="$("$@" 2>&1)"
status=$?
printf '%s\n' "$out"
fail=0
if [ "$status" -ne "$want_status" ]; then
    echo "expect_exit: exit status $status, expected $want_status: $*" >&2
    fail=1
fi
for regex in "${regexes[@]}"; do
    if ! grep -Eq -- "$regex" <<<"$out"; then
        echo "expect_exit: no line matches '$regex': $*" >&2
        fail=1
    fi
done
if grep -q "fatal:" <<<"$out"; then
    echo "expect_exit: a 'fatal:' line in the output: $*" >&2
    fail=1
fi
exit $fail
