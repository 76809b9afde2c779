"""lvp26_planned.py - on Mesa 26's lavapipe (8x8x8 fragments, subgroup 8) the JSON records the shape coopmat_khr was
planned with (planned: kernel, workgroup, constants: the device's fragment and the subgroup tile chosen from it),
and the bf16 and NV cooperative_matrix2 rows skip naming what the device lacks (for coopmat2: which of its
features lavapipe 26 reads absent).
Usage: lvp26_planned.py LVP26_SH VKBENCH   exit 0 ok, 77 no lavapipe 26, 1 a check failed"""
import json
import os
import subprocess
import sys
import tempfile

lvp26, vkbench = sys.argv[1:3]
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "planned.json")
    rc = subprocess.run([lvp26, vkbench, "run", "matmul", "--m", "40", "--n", "36", "--k", "20", "--variant",
                         "coopmat_khr,coopmat_khr_bf16,coopmat2,naive", "--reps", "1", "--warmup-ms", "0", "--quiet",
                         "--json", out]).returncode
    if rc == 77:
        sys.exit(77)
    assert rc == 0, rc
    rows = {r["variant"]: r for r in json.load(open(out))["results"] if r["family"] == "matmul"}
khr = rows["coopmat_khr"]
assert khr["status"] == "ok", khr
planned = khr["planned"]
assert planned["kernel"] == "matmul_coopmat_khr" and planned["workgroup"] == [128, 1, 1], planned   # 16 subgroups of 8
assert "WM=32,WN=32,FRAG_M=8,FRAG_N=8,FRAG_K=8" in planned["constants"], planned   # 4 x 4 of the 8x8 fragments
assert rows["naive"]["planned"]["workgroup"] == [16, 16, 1], rows["naive"]
assert rows["coopmat_khr_bf16"]["status"] == "skip" and rows["coopmat_khr_bf16"]["planned"] is None
assert rows["coopmat_khr_bf16"]["skip_reason"] == ("needs bf16 cooperative matrices (VK_KHR_shader_bfloat16's "
                                                   "bfloat16CooperativeMatrix)"), rows["coopmat_khr_bf16"]
# lavapipe 26 lists VK_NV_cooperative_matrix2 and reads its workgroup-scope and tensor features absent: named
why = rows["coopmat2"]["skip_reason"]
assert why.startswith("needs VK_NV_cooperative_matrix2 (listed; cooperativeMatrix") and why.endswith(" absent)"), why
print("lvp26_planned: ok")
