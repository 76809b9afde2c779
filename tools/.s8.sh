# session 8's H100 batch: the cache probe three times (-v curves), the peak rows' %t, then gpu-nocuda.sh and gpu-health.sh
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
vk=.gpu/vkbench
for i in 1 2 3; do
  XDG_CACHE_HOME=/tmp/p$i VKB_CACHE_PROBE=refresh $vk -v run copy --n 1024 --reps 1 > $OUT/probe$i.txt 2>&1
done
$vk run peak --variant coopmat_f16_f32,coopmat_f16_f16,coopmat_s8_s32,coopmat_u8_u32,coopmat_bf16_f32 --wide > $OUT/peak.txt 2>&1
mkdir -p $OUT/nocuda $OUT/health
sh tools/gpu-nocuda.sh .gpu $OUT/nocuda > $OUT/nocuda.txt 2>&1
sh tools/gpu-health.sh .gpu $OUT/health > $OUT/health.txt 2>&1
# healthy beside two busy loops (the second target), against the same baseline
( while :; do :; done ) & b1=$!; ( while :; do :; done ) & b2=$!
busy=0; for i in 1 2 3 4 5 6 7 8 9 10; do
  $vk health --expect 1 --baseline $OUT/health/base.tsv > $OUT/health/busy-$i.txt 2>&1 && busy=$((busy+1)); done
kill $b1 $b2; echo "healthy beside two busy loops kept in $busy of 10" >> $OUT/health.txt
cd $OUT && tar czf nocuda.tgz nocuda && tar czf health.tgz health && rm -rf nocuda health
echo "== probe"; grep -h 'cache probe' probe*.txt
echo "== peak"; grep -E '^coopmat' peak.txt
echo "== nocuda"; tail -15 nocuda.txt
echo "== health"; tail -15 health.txt
