# Chapter 07: dot product bandwidth of every variant against CUB's reduction over the same
# bytes, from dot_bandwidth.csv.
# gnuplot -e "datadir='...'; outdir='...'" dot.gp
set datafile separator ','
set datafile missing NaN
set terminal pngcairo size 900,560 font ',11' noenhanced
set output outdir.'/dot.png'
file = datadir.'/dot_bandwidth.csv'
set title 'Dot product of float32 vectors: bytes read per second'
set style fill solid 0.8 border -1
set boxwidth 0.7
set grid ytics
set key autotitle columnhead  # the first line names the columns: not a bar
set key off
set yrange [0:*]
set xrange [-0.6:5.6]
set offsets 0, 0, graph 0.08, 0
set ylabel 'GB/s'
set xtics rotate by -30 scale 0
keep(v) = (strcol('variant') ne 'fast_2pass_grid') ? column('gbps') : NaN
label(v) = (strcol('variant') ne 'fast_2pass_grid') ? sprintf('%.0f%%', 100 * column('fraction_of_cub')) : ''
plot file using 0:(keep(0)):xticlabels(strcol('variant') ne 'fast_2pass_grid' ? strcol('variant') : '') with boxes lc rgb '#1f77b4', \
     file using 0:(keep(0)):(label(0)) with labels offset 0,0.8 font ',10'
