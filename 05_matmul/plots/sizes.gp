# GFLOP/s against size (square M = N = K) for the faster variants and cuBLAS, same run.
# gnuplot -e "datadir='...'; outdir='...'" sizes.gp   (reads sizes.csv)
set datafile separator ','
# Rows of other variants become NaN, which 'missing' skips without breaking the lines.
set datafile missing NaN
set terminal pngcairo size 900,560 noenhanced
set output outdir.'/sizes.png'
set title 'C = A B, FP32, square sizes (cuBLAS with plain FP32 math)'
set xlabel 'M = N = K'
set ylabel 'TFLOP/s'
set logscale x 2
set grid
set key outside right
names = 'cublas pipelined warptiled_bk16 warptiled_bk8 warptiled_64x64_bk16 warptiled_128x256 vectorized blocktile_2d tiled'
plot for [v in names] datadir.'/sizes.csv' \
     using (strcol('variant') eq v ? column('m') : NaN):(column('gflops')/1000) \
     with linespoints title v
