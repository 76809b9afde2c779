#!/bin/sh
# expect.sh CODE PATTERN -- COMMAND...: run COMMAND; pass when it exits with CODE and its stderr
# matches the extended regex PATTERN (one clear line, not a crash).
code=$1; pattern=$2; shift 3
err=$("$@" 2>&1 >/dev/null); rc=$?
if [ "$rc" -ne "$code" ]; then
    echo "expected exit $code, got $rc from: $*"; echo "$err"; exit 1
fi
if ! printf '%s\n' "$err" | grep -Eq -- "$pattern"; then
    echo "stderr does not match '$pattern':"; echo "$err"; exit 1
fi
echo "ok: exit $rc: $(printf '%s\n' "$err" | tail -n 1)"
