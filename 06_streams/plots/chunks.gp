# How close the pipeline gets to its bound (the slowest stage, timed alone) as the work is cut
# into more chunks: filling and draining the pipeline costs about one chunk of every other
# stage, so time / bound ~ 1 + (serial / bound - 1) / chunks (dashed). One panel per kernel.
# Usage: gnuplot -e "datadir='...'; outdir='...'" chunks.gp
set datafile separator ','
set terminal pngcairo size 900,560 font ',11'
set output outdir.'/chunks.png'
file = datadir.'/variants.csv'

# the benchmark's chunk sweep: pinned pipelines with streams = min(chunks, S), where S, the
# plan's streams (from the GPU's copy engines), is read from the data: the streams of the
# pipeline with the most chunks
pinned_depth(k) = strcol('kernel') eq k && strcol('variant') eq 'depth' && strcol('host') eq 'pinned'
in_sweep(k, v) = strcol('kernel') eq k && strcol('variant') eq v && strcol('host') eq 'pinned' \
                 && column('streams') == (column('chunks') < S ? column('chunks') : S)
serial(k) = strcol('kernel') eq k && strcol('variant') eq 'serial' ? column('ratio_to_bound') : NaN

set multiplot layout 1,2 title 'pipelined time / bound (the slowest stage alone); lower is better'
set logscale x 2
set grid
set key top right
do for [k in 'add mix'] {
    set yrange [*:*]    # stats obeys the ranges
    stats file using (pinned_depth(k) ? column('chunks') : NaN) nooutput
    most = STATS_max
    stats file using (pinned_depth(k) && column('chunks') == most ? column('streams') : NaN) nooutput
    S = int(STATS_max)
    set xlabel sprintf('chunks (streams = min(chunks, %d))', S)
    stats file using (serial(k)) nooutput
    s = STATS_max
    set title sprintf('%s kernel (serial = %.2fx the bound)', k eq 'add' ? 'vector add' : 'mixing', s)
    set yrange [0.9:s * 1.05 > 2 ? s * 1.05 : 2]
    set ylabel 'time / bound'
    # the rows of one series into a datablock first, so that its line is not broken by the rest
    set table $depth separator comma
    plot file using 'chunks':'ratio_to_bound' with table if (in_sweep(k, 'depth'))
    set table $breadth separator comma
    plot file using 'chunks':'ratio_to_bound' with table if (in_sweep(k, 'breadth'))
    unset table
    plot $depth using 1:2 with linespoints pt 7 ps 1.2 lw 2 title 'chunk by chunk', \
         $breadth using 1:2 with linespoints pt 4 ps 1.5 lw 2 title 'stage by stage', \
         [1:64] 1 + (s - 1) / x with lines dt 2 lc rgb '#555555' title 'fill and drain model', \
         [1:64] 1.2 with lines dt 3 lc rgb '#d62728' title 'bound + 20%'
}
unset multiplot
