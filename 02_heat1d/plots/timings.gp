# Chapter 02: time per step of each variant on the document's rod (document_timings.csv), and the
# bandwidth of each on a 2^24-point rod beside a device-to-device copy (large_rod.csv).
# gnuplot -e "datadir='...'; outdir='...'" timings.gp
set datafile separator ','
set terminal pngcairo size 900,560 font ',10'
set output outdir.'/heat1d_timings.png'
set multiplot layout 1,2
set style fill solid 0.6 border -1
set boxwidth 0.7
set grid ytics
set xtics rotate by -40 left
set bmargin 6
# Short tick labels: 'shared 128' (threads), 'registers 4' (points per thread, as the build that
# wrote the CSV set it), 'temporal 2048/32' (tile/halo).
after(c, key) = c[strstrt(c, key) + strlen(key):]
short(v, c) = v eq 'temporal' ? c[6:strstrt(c, ' ') - 1].'/'.after(c, 'halo=') : after(c, '=')
label(v, c) = (c eq 'default' || v eq 'memcpy') ? v : v.' '.short(v, c)
set title "1001 points x 10000 steps: time per step"
set ylabel 'microseconds per step (log)'
set logscale y
set yrange [0.05:10]
stats datadir.'/document_timings.csv' using 'us_per_step' nooutput
set xrange [-0.6:STATS_records - 0.4]
plot datadir.'/document_timings.csv' using 0:'us_per_step':xtic(label(strcol('variant'), strcol('config'))) \
     with boxes lc rgb '#4477aa' notitle, \
     '' using 0:'us_per_step':(sprintf('%.3g', column('us_per_step'))) with labels offset 0,0.7 font ',8' notitle
unset logscale y
stats datadir.'/large_rod.csv' using 'ratio_to_memcpy' nooutput
set xrange [-0.6:STATS_records - 0.4]
set title "2^{24} points: naive-equivalent bandwidth\n(16 bytes per point and step) / memcpy"
set ylabel 'multiple of the device-to-device copy'
set yrange [0:*]
plot datadir.'/large_rod.csv' using 0:'ratio_to_memcpy':xtic(label(strcol('variant'), strcol('config'))) \
     with boxes lc rgb '#228833' notitle, \
     '' using 0:'ratio_to_memcpy':(sprintf('%.2f', column('ratio_to_memcpy'))) with labels offset 0,0.7 font ',8' notitle, \
     1 with lines dt 2 lw 2 lc rgb 'black' notitle
unset multiplot
