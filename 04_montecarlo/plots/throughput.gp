# The chapter's variants in samples per second (summary.csv, written by montecarlo --bench).
set datafile separator ','
set terminal pngcairo size 900,560
set output outdir.'/throughput.png'
set title 'Monte Carlo integration of 1/x: G samples per second (log scale)'
set style data histogram
set style fill solid 0.8 border -1
set boxwidth 0.7
set logscale y
set yrange [0.1:5000]
set ylabel 'G samples/s'
set xtics rotate by -30 font ',8' noenhanced
set bmargin 9
set key off
set grid ytics
plot datadir.'/summary.csv' using 'gsps':xticlabels(strcol('label')) lc rgb '#4477aa', \
     '' using 0:'gsps':(sprintf('%.1f', column('gsps'))) with labels offset 0,0.7 font ',9'
