# GFLOP/s against size (square M = N = K) for the faster variants and cuBLAS, same run.
# gnuplot -e "datadir='...'; outdir='...'" sizes.gp   (reads sizes.csv)
set datafile separator ','
# Rows of other variants become NaN, which 'missing' skips without breaking the lines.
set datafile missing NaN
set terminal pngcairo size 900,560 noenhanced
set output outdir.'/sizes.png'
set title 'C = A B with FP32 accuracy, square sizes (cuBLAS: plain FP32 math; mma_3xtf32: 3xTF32 on tensor cores)'
set xlabel 'M = N = K'
set ylabel 'TFLOP/s'
set logscale x 2
set grid
set key outside right
names = 'cublas mma_3xtf32 pipelined warptiled vectorized blocktile_2d tiled'
plot for [v in names] datadir.'/sizes.csv' \
     using (strcol('variant') eq v ? column('m') : NaN):(column('gflops')/1000) \
     with linespoints title v
