# Chapter 02: temperature along the rod at a few times, from profiles.csv (written by
# heat1d --outdir; the CPU reference's snapshots and the GPU's final profile).
# gnuplot -e "datadir='...'; outdir='...'" profiles.gp
set datafile separator ','
set terminal pngcairo size 900,560 font ',11'
set output outdir.'/heat1d_profiles.png'
file = datadir.'/profiles.csv'
set multiplot layout 1,2 title 'The 1D heat equation: 1001 points, hot middle (10000), k = 0.25'
set xlabel 'point i'
set ylabel 'temperature'
set grid
set key top right
set title 'linear scale: the arc flattens'
set yrange [0:*]
plot file using 'i':'ten_percent' with lines lw 2 title 'after 1000 steps', \
     file using 'i':'final_cpu' with lines lw 2 title 'after 10000 steps (CPU)', \
     file every 25 using 'i':'final_gpu' with points pt 7 ps 0.6 title 'after 10000 steps (GPU)'
set title 'log scale: the heat spreads, the walls stay cold'
set logscale y
set yrange [1e-12:2e4]
set format y '10^{%L}'
set key bottom center
plot file using 'i':'start' with impulses lw 2 title 'start', \
     file using 'i':'one_percent' with lines lw 2 title 'after 100 steps', \
     file using 'i':'ten_percent' with lines lw 2 title 'after 1000 steps', \
     file using 'i':'final_cpu' with lines lw 2 title 'after 10000 steps'
unset multiplot
