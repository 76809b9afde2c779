#!/bin/sh
# expect.sh [-s] CODE PATTERN -- COMMAND...: run COMMAND; pass when it exits with CODE, its stderr matches
# the extended regex PATTERN, and it failed cleanly: no sanitizer report, and (CODE not 0) exactly one
# `vkbench: error: ` line, the last line of stderr, or (CODE 0) none. -s: where COMMAND finds no Vulkan
# loader, driver or device and CODE is not 3, exit 3 (ctest's skip) instead of failing.
skip=0
if [ "$1" = "-s" ]; then skip=1; shift; fi
code=$1; pattern=$2; shift 3
err=$("$@" 2>&1 >/dev/null); rc=$?
if [ "$skip" -eq 1 ] && [ "$rc" -eq 3 ] && [ "$code" -ne 3 ] &&
   printf '%s\n' "$err" | grep -Eq 'no Vulkan (loader|driver|device)( \([^)]*\))? found'; then
    echo "skip: no Vulkan device: $err"; exit 3
fi
if [ "$rc" -ne "$code" ]; then
    echo "expected exit $code, got $rc from: $*"; echo "$err"; exit 1
fi
if ! printf '%s\n' "$err" | grep -Eq -- "$pattern"; then
    echo "stderr does not match '$pattern':"; echo "$err"; exit 1
fi
if printf '%s\n' "$err" | grep -Eq 'AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:'; then
    echo "a sanitizer report:"; echo "$err"; exit 1
fi
errors=$(printf '%s\n' "$err" | grep -c '^vkbench: error: ')
if [ "$code" -eq 0 ] && [ "$errors" -ne 0 ]; then
    echo "exit 0 with an error line:"; echo "$err"; exit 1
fi
if [ "$code" -ne 0 ] && [ "$code" -ne 1 ] &&
   { [ "$errors" -ne 1 ] || ! printf '%s\n' "$err" | tail -n 1 | grep -q '^vkbench: error: '; }; then
    echo "not one error line, last on stderr ($errors error lines):"; echo "$err"; exit 1
fi
echo "ok: exit $rc: $(printf '%s\n' "$err" | tail -n 1)"
