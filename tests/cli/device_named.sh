#!/bin/sh
# device_named.sh VKBENCH: every output names the device under test: `run` and `validate` open
# their stdout with a `device:` line and close it with a summary naming the device, also with --quiet; the
# JSON's devices say vendor and CPU implementation; a default device that is a CPU implementation is warned
# about on stderr, before the first result. Exit 3 (skip) without a Vulkan device.
vkbench=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; for f in "$dir"/*.out "$dir"/*.err; do echo "--- $f"; cat "$f"; done; exit 1; }

"$vkbench" run copy --n 1000 --reps 1 --warmup-ms 0 --wide --json "$dir/r.json" > "$dir/run.out" 2> "$dir/run.err"
rc=$?
[ $rc -eq 3 ] && { echo "skip: no Vulkan device"; exit 3; }
[ $rc -eq 0 ] || fail "run exited $rc"
device='device: vulkan: [^;]+; vendor [^;]+; driver [^;]+; Vulkan [0-9]+\.[0-9]+\.[0-9]+; (a CPU implementation \([^)]+\): no GPU is being tested|an? (discrete|integrated|virtual) GPU|a device of unknown type)$'
head -n 1 "$dir/run.out" | grep -Eq "^$device" || fail "run: the first line does not name the device"
summary='[0-9]+ passed, 0 failed, [0-9]+ skipped on [^,]+.*, driver .+, (CPU implementation|discrete GPU|integrated GPU|virtual GPU|device of unknown type)$'
tail -n 1 "$dir/run.out" | grep -Eq "^run: $summary" || fail "run: the last line is not the summary with the device"
# stderr (the progress): the device before the first result
first_result=$(grep -n '\[1/' "$dir/run.err" | head -n 1 | cut -d: -f1)
named=$(grep -En "^vkbench: $device" "$dir/run.err" | head -n 1 | cut -d: -f1)
[ -n "$named" ] && [ -n "$first_result" ] && [ "$named" -lt "$first_result" ] || fail "stderr: no device before the first result"
if head -n 1 "$dir/run.out" | grep -q 'a CPU implementation'; then
    warned=$(grep -n '^vkbench: warning: no GPU found: the default device .* is a CPU implementation' "$dir/run.err" | head -n 1 | cut -d: -f1)
    [ -n "$warned" ] && [ "$warned" -lt "$first_result" ] || fail "stderr: no warning that the default device is a CPU implementation"
    # a device picked by hand is what the user asked for: no warning
    "$vkbench" run copy --n 1000 --reps 1 --warmup-ms 0 --device 0 > /dev/null 2> "$dir/picked.err"
    grep -q 'no GPU found' "$dir/picked.err" && fail "warned although --device picked the device"
fi
python3 - "$dir/r.json" <<'EOF' || fail "JSON devices lack the identity fields"
import json, sys
d = json.load(open(sys.argv[1]))["devices"][0]
assert isinstance(d["vendor"], str) and d["vendor"], d
assert isinstance(d["vendor_id"], int) and d["vendor_id"] > 0, d
assert isinstance(d["device_id"], int), d
assert d["cpu_implementation"] is (d["type"] == "cpu"), d
EOF
# --quiet: no progress, but the table still opens and closes with the device
"$vkbench" validate copy --n 31 --quiet --wide > "$dir/validate.out" 2> "$dir/validate.err" || fail "validate failed"
head -n 1 "$dir/validate.out" | grep -Eq "^$device" || fail "validate: the first line does not name the device"
grep -Eq '^== validate copy on .+$' "$dir/validate.out" || fail "validate: the matrix does not name the device"
tail -n 1 "$dir/validate.out" | grep -Eq "^validate: $summary" || fail "validate: no summary with the device"
[ -s "$dir/validate.err" ] && fail "validate --quiet wrote to stderr"
echo "ok: $(head -n 1 "$dir/run.out")"
