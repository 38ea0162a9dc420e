# The default-stream experiments: when each spin kernel (A, B) and the tiny kernel between
# them (M, a diamond) ran, by the GPU's clock. Top group: the legacy default stream; bottom
# group: the same program built with --default-stream per-thread. Boxes side by side
# overlapped; boxes end to end were serialised.
# Usage: gnuplot -e "datadir='...'; outdir='...'" default_stream.gp
set datafile separator ','
set terminal pngcairo size 900,560 font ',10'
set output outdir.'/default_stream.png'
set style fill solid 0.85 border lc rgb '#333333'
set linetype 21 lc rgb '#1f77b4'   # A
set linetype 23 lc rgb '#ff7f0e'   # B
legacy = datadir.'/default_stream_legacy.csv'
per_thread = datadir.'/default_stream_per_thread.csv'
row(offset) = column('index') + offset
is(k) = strcol('kernel') eq k

set title 'which kernels waited for which: spin kernels A and B, tiny kernel M between'
set xlabel 'ms since the first kernel started'
set grid xtics
set yrange [13.8:-1.4]
set lmargin 40
set ytics scale 0 font ',9'
set key outside right top vertical Left reverse
set label 1 'stream 0 = legacy default stream' at graph 0.01, first -0.95 font ',10:Bold'
set label 2 'built with --default-stream per-thread' at graph 0.01, first 6.05 font ',10:Bold'
plot for [g = 0:1] (g == 0 ? legacy : per_thread) \
         using (is('A') || is('B') ? 0.5 * (column('start_ms') + column('end_ms')) : NaN): \
               (row(7 * g)):(0.5 * (column('end_ms') - column('start_ms'))): \
               (is('A') ? 0.32 : 0.2):(is('A') ? 21 : 23):ytic(strcol('experiment')) \
         with boxxyerror lc variable notitle, \
     for [g = 0:1] (g == 0 ? legacy : per_thread) \
         using (is('M') ? column('start_ms') : NaN):(row(7 * g)) \
         with points pt 13 ps 1.6 lc rgb '#000000' notitle, \
     keyentry with boxes lt 21 title 'A (spin)', \
     keyentry with boxes lt 23 title 'B (spin)', \
     keyentry with points pt 13 ps 1.6 lc rgb '#000000' title 'M (tiny kernel between)'
