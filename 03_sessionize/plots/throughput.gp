# Throughput vs size: every variant, the memcpy ceiling (same bytes) and the CPU reference.
# gnuplot -e "datadir='docs/results/03_sessionize'; outdir='.'" 03_sessionize/plots/throughput.gp
set datafile separator ','
set terminal pngcairo size 900,560
set output outdir.'/throughput.png'
set title 'Sessionize: events labelled per second (24 bytes moved per event)'
set xlabel 'events'
set ylabel 'Gevents/s'
set logscale xy
set format x '10^{%L}'
set grid
set key left top
set datafile missing NaN  # rows of other variants are skipped, not line breaks
file = datadir.'/throughput.csv'
row(name) = (strcol('variant') eq name) ? column('gevents_per_s') : NaN
plot file using 'n':(row('memcpy')) with linespoints lw 2 dt 2 title 'memcpy, same bytes (ceiling)', \
     file using 'n':(row('cub')) with linespoints lw 2 title 'CUB max-scan', \
     file using 'n':(row('single_pass')) with linespoints lw 2 title 'hand-written single pass (16-byte pairs)', \
     file using 'n':(row('chained')) with linespoints lw 2 title 'hand-written chained scan', \
     file using 'n':(row('cooperative')) with linespoints lw 2 title 'cooperative (grid sync + walk)', \
     file using 'n':(row('cpu')) with linespoints lw 2 lc rgb '#555555' title 'CPU reference, 1 thread'
