# The chapter's roofline: each FP32 step and cuBLAS FP32 at every square size of sizes.csv, against
# the DRAM copy and FP32 FMA ceilings the tour measured (docs/results/common/ceilings.csv).
# Intensity counts the least DRAM traffic a product needs: 2MNK flops over 4(MK + KN + MN) bytes
# (each matrix once), so a square size N sits at N / 6 flops per byte. The tensor-core steps are
# left out: their roof is not the FP32 FMA pipe.
# gnuplot -e "datadir='...'; outdir='...'" roofline.gp   (reads sizes.csv, ../common/ceilings.csv)
set datafile separator ','
set datafile missing NaN
set datafile columnheaders
ceilings = datadir.'/../common/ceilings.csv'
stats ceilings using (strcol('ceiling') eq 'dram_copy' ? column('median') : NaN) nooutput
dram = STATS_max
stats ceilings using (strcol('ceiling') eq 'fp32_fma' ? column('median') : NaN) nooutput
fma = STATS_max
ridge = fma / dram
intensity(m, n, k) = 2.0 * m * n * k / (4.0 * (m * k + k * n + m * n))
roof(x) = x * dram < fma ? x * dram : fma

set terminal pngcairo size 960,640 noenhanced
set output outdir.'/roofline.png'
set title sprintf("C = A B in FP32, square sizes, under the roofs measured in the tour\n(DRAM copy %.0f GB/s, FP32 FMA %.0f GFLOP/s: ridge at %.0f flops per byte)", dram, fma, ridge)
set logscale xy
set xrange [5:3000]
set yrange [1000:*]
set xlabel 'arithmetic intensity (flops per byte of the least DRAM traffic: N / 6 for N x N x N)'
set ylabel 'GFLOP/s'
set grid
set key inside bottom right
set samples 400
names = 'cublas pipelined warptiled vectorized blocktile_2d tiled'
plot roof(x) with lines lw 2 lc rgb '#1f77b4' title 'roof', \
     for [v in names] datadir.'/sizes.csv' \
       using (strcol('variant') eq v ? intensity(column('m'), column('n'), column('k')) : NaN):(column('gflops')) \
       with linespoints title v
