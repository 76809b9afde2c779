#!/usr/bin/env python3
"""check_lastblock_sync.py SPV... - the memory-model half of reduce/subgroup_lastblock that lavapipe cannot show
(docs/verification.md, "What is still not caught"): in each module the arrival count's OpAtomicIAdd is device-scope
with AcquireRelease on uniform (buffer) memory, a workgroup OpControlBarrier passes the acquire on at device scope
for uniform memory, and both buffers (partials, count) are Coherent. Reads the SPIR-V words itself."""
import struct, sys

OP_CONSTANT, OP_MEMBER_DECORATE, OP_CONTROL_BARRIER, OP_ATOMIC_IADD = 43, 72, 224, 234
SCOPE_DEVICE, SCOPE_WORKGROUP = 1, 2
ACQ_REL, UNIFORM_MEMORY, COHERENT = 0x8, 0x40, 23


def check(path):
    data = open(path, "rb").read()
    words = struct.unpack(f"<{len(data) // 4}I", data)
    const, atomics, barriers, coherent = {}, [], [], 0
    i = 5
    while i < len(words):
        count, op = words[i] >> 16, words[i] & 0xFFFF
        args = words[i + 1:i + count]
        if op == OP_CONSTANT and len(args) == 3:
            const[args[1]] = args[2]
        elif op == OP_ATOMIC_IADD:
            atomics.append(args)
        elif op == OP_CONTROL_BARRIER:
            barriers.append(args)
        elif op == OP_MEMBER_DECORATE and len(args) >= 3 and args[2] == COHERENT:
            coherent += 1
        i += count
    errors = []
    acq = ACQ_REL | UNIFORM_MEMORY
    if len(atomics) != 1:
        errors.append(f"{len(atomics)} OpAtomicIAdd, not 1")
    for a in atomics:
        scope, sem = const.get(a[3]), const.get(a[4])
        if scope != SCOPE_DEVICE or sem is None or sem & acq != acq:
            errors.append(f"the count's atomic: scope {scope}, semantics {sem:#x} (want device, AcquireRelease | "
                          "UniformMemory)" if sem is not None else "the count's atomic: semantics not a constant")
    if not any(const.get(b[0]) == SCOPE_WORKGROUP and const.get(b[1]) == SCOPE_DEVICE and
               (const.get(b[2]) or 0) & acq == acq for b in barriers):
        errors.append("no workgroup barrier with device-scope AcquireRelease on uniform memory")
    if coherent < 2:
        errors.append(f"{coherent} Coherent buffer members, not 2 (partials, count)")
    for e in errors:
        print(f"{path}: {e}")
    return not errors


if __name__ == "__main__":
    ok = all([check(p) for p in sys.argv[1:]]) and len(sys.argv) > 1
    print("ok" if ok else "FAILED")
    sys.exit(0 if ok else 1)
