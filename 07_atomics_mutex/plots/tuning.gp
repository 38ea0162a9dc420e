# Chapter 07: the fast histograms' throughput against resident blocks per SM, beside the
# read-only ceiling, on 1 GiB; from histogram_tuning.csv.
# gnuplot -e "datadir='...'; outdir='...'" tuning.gp
set datafile separator ','
set datafile missing NaN
set terminal pngcairo size 900,560 font ',11' noenhanced
set output outdir.'/tuning.png'
file = datadir.'/histogram_tuning.csv'
set title 'Histogram of 1 GiB of text: throughput against blocks per SM'
set xlabel 'blocks per SM'
set ylabel 'GB/s of text'
set grid
set key bottom right font ',10'
set yrange [0:*]
pick(v, c) = (strcol('variant') eq v && (c < 0 || column('copies') == c)) ? column('gbps') : NaN
stats file using (pick('read_ceiling', -1)) nooutput
ceiling = STATS_max
set arrow from graph 0, first ceiling to graph 1, first ceiling nohead dt 2 lw 2 lc rgb 'black'
set label sprintf('read-only ceiling %.0f GB/s', ceiling) at graph 0.02, first ceiling offset 0,0.8
plot file using 'blocks_per_sm':(pick('byte_pairs', -1)) with linespoints lw 3 title 'byte pairs (one atomic per 2 bytes)', \
     file using 'blocks_per_sm':(pick('thread_private', -1)) with linespoints lw 2 title 'thread-private 8-bit counters', \
     file using 'blocks_per_sm':(pick('thread_private_atomic', -1)) with linespoints lw 2 title 'thread-private, shared atomics', \
     file using 'blocks_per_sm':(pick('warp_private', 1)) with linespoints title 'warp-private, 1 copy per warp', \
     file using 'blocks_per_sm':(pick('warp_private', 2)) with linespoints title 'warp-private, 2 copies', \
     file using 'blocks_per_sm':(pick('warp_private', 4)) with linespoints title 'warp-private, 4 copies', \
     file using 'blocks_per_sm':(pick('warp_private', 8)) with linespoints title 'warp-private, 8 copies'
