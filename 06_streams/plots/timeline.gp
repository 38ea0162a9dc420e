# Timelines of the pipeline: one row per stream, one box per chunk and stage (copy-in, kernel,
# copy-out), from the events streams_pipeline --bench --outdir records around every stage.
# Timelines of one kernel share their time axis (the serial run's length is the yardstick),
# except the document's loop on pageable memory, ten times longer, which gets its own.
# Usage: gnuplot -e "datadir='...'; outdir='...'" timeline.gp
set datafile separator ','
set terminal pngcairo size 900,560 font ',11'
set style fill solid 0.85 border lc rgb '#333333'
set xlabel 'time since the start (ms)'
set ylabel 'stream'
set grid xtics lc rgb '#dddddd'
set key outside top center horizontal
set linetype 11 lc rgb '#1f77b4'   # H2D
set linetype 12 lc rgb '#2ca02c'   # kernel
set linetype 13 lc rgb '#d62728'   # D2H

kernels = 'mix add'
shown_mix = 'serial depth breadth'
shown_add = 'serial depth document'
describe(v) = v eq 'serial' ? 'serial: pinned memory, one stream, no overlap' : \
              v eq 'depth' ? 'pipeline queued chunk by chunk (pinned memory)' : \
              v eq 'breadth' ? 'pipeline queued stage by stage (pinned memory)' : \
              v eq 'document' ? "the document's loop: pageable memory, one shared output buffer" : v

do for [kernel in kernels] {
    list = kernel eq 'mix' ? shown_mix : shown_add
    # the longest of this kernel's timelines sets the common time axis
    set xrange [*:*]
    set yrange [*:*]    # stats obeys the ranges: free them first
    tmax = 0
    do for [v in list] {
        if (v eq 'document') { continue }
        stats sprintf('%s/timeline_%s_%s.csv', datadir, kernel, v) using 'end_ms' nooutput
        tmax = STATS_max > tmax ? STATS_max : tmax
    }
    do for [v in list] {
        file = sprintf('%s/timeline_%s_%s.csv', datadir, kernel, v)
        set xrange [*:*]
        set yrange [*:*]
        stats file using 'stream' nooutput
        rows = STATS_max + 1
        stats file using 'end_ms' nooutput
        total = STATS_max
        set output sprintf('%s/timeline_%s_%s.png', outdir, kernel, v)
        set title sprintf("%s kernel: %s\ntotal %.2f ms", kernel eq 'mix' ? 'mixing' : 'vector add', \
                          describe(v), total)
        set xrange [0:(v eq 'document' ? total : tmax) * 1.02]
        set yrange [rows - 0.4:-0.6]    # stream 0 on top
        set ytics 1
        plot file using (0.5 * (column('start_ms') + column('end_ms'))):'stream': \
                 (0.5 * (column('end_ms') - column('start_ms'))):(0.38):(11 + column('stage')) \
                 with boxxyerror lc variable notitle, \
             keyentry with boxes lt 11 title 'copy in (H2D)', \
             keyentry with boxes lt 12 title 'kernel', \
             keyentry with boxes lt 13 title 'copy out (D2H)'
        unset output
    }
}
