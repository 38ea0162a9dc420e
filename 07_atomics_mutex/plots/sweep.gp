# Chapter 07: the document's block-count sweep: grids of k x (number of SMs) blocks, the
# global-atomics kernel on the left axis, the shared-memory kernel on the right, the best of
# each marked; from histogram_sweep.csv.
# gnuplot -e "datadir='...'; outdir='...'" sweep.gp
set datafile separator ','
set terminal pngcairo size 900,560 font ',11' noenhanced
set output outdir.'/sweep.png'
file = datadir.'/histogram_sweep.csv'
stats file using 'sm_multiple':'global_ms' nooutput
best_global = STATS_pos_min_y
stats file using 'sm_multiple':'shared_ms' nooutput
best_shared = STATS_pos_min_y
set title sprintf('Histogram, 5,638,519 bytes: time against grid size (best: global %g x SMs, shared %g x SMs)', best_global, best_shared) font ',11'
set xlabel 'blocks per SM (grid = k x number of SMs, 128 threads per block)'
set logscale x 2
set ylabel 'global atomics [ms]' textcolor rgb '#1f77b4'
set y2label 'shared-memory histogram [ms]' textcolor rgb '#d62728'
set ytics nomirror textcolor rgb '#1f77b4'
set yrange [0:*]
set y2range [0:*]
set y2tics textcolor rgb '#d62728'
set grid xtics
set key top left
set arrow from best_global, graph 0 to best_global, graph 1 nohead dt 2 lw 2 lc rgb '#1f77b4'
set arrow from best_shared, graph 0 to best_shared, graph 1 nohead dt 3 lw 2 lc rgb '#d62728'
plot file using 'sm_multiple':'global_ms' axes x1y1 with linespoints lw 2 lc rgb '#1f77b4' title 'global atomics', \
     file using 'sm_multiple':'shared_ms' axes x1y2 with linespoints lw 2 lc rgb '#d62728' title 'shared memory'
