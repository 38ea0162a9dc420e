# Chapter 07: how many times slower than the fastest each histogram is (the document's bar
# charts), on text of the document's size and on 1 GiB, from histogram_speedup*.csv.
# gnuplot -e "datadir='...'; outdir='...'" speedup.gp
set datafile separator ','
set terminal pngcairo size 900,560 font ',11' noenhanced
set output outdir.'/speedup.png'
set multiplot layout 1,2 title 'Histogram of English-like text: times slower than the fastest (log scale)'
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.8
set logscale y
set yrange [0.8:*]
set grid ytics
set key off
set xtics rotate by -40 scale 0 font ',10'
set ylabel 'times slower than the best'
set title '5,638,519 bytes (the document''s size)'
plot datadir.'/histogram_speedup.csv' using 'times_slower_than_best':xticlabels(strcol('variant')) lc rgb '#1f77b4', \
     '' using 0:'times_slower_than_best':(sprintf('%.1fx', column('times_slower_than_best'))) with labels offset 0,0.7 font ',9'
set title '1 GiB'
plot datadir.'/histogram_speedup_large.csv' using 'times_slower_than_best':xticlabels(strcol('variant')) lc rgb '#2ca02c', \
     '' using 0:'times_slower_than_best':(sprintf('%.1fx', column('times_slower_than_best'))) with labels offset 0,0.7 font ',9'
unset multiplot
