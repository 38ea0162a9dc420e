# Chapter 07: letter counts of the histogram's text, lowercase and uppercase (the document's
# first figure), from histogram_letters.csv.
# gnuplot -e "datadir='...'; outdir='...'" letters.gp
set datafile separator ','
set terminal pngcairo size 900,560 font ',11' noenhanced
set output outdir.'/letters.png'
file = datadir.'/histogram_letters.csv'
set multiplot layout 2,1 title 'Letter counts of the histogram text (CPU reference = every GPU variant)'
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.8
set grid ytics
set key off
set format y '%.0s%c'
set ylabel 'count'
set title 'Lowercase'
plot file using 'lowercase':xticlabels(strcol('letter')) linecolor rgb '#1f77b4'
set title 'Uppercase'
plot file using 'uppercase':xticlabels(strcol('letter')) linecolor rgb '#d62728'
unset multiplot
