# GFLOP/s of every step at 4096^3, beside cuBLAS (FP32 and TF32) from the same run; each label is
# the share of the cuBLAS of the same precision (the CSV's baseline column).
# gnuplot -e "datadir='...'; outdir='...'" variants.gp   (reads variants_4096.csv)
set datafile separator ','
set terminal pngcairo size 900,560 noenhanced
set output outdir.'/variants_4096.png'
set title 'C = A B, 4096 x 4096 x 4096: each step beside cuBLAS FP32 and TF32 (% of the same precision)'
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.8
set ylabel 'TFLOP/s (log scale)'
set logscale y
set yrange [0.1:*]
set xtics rotate by -45 left font ',8'
set grid ytics
set key off
set rmargin 12
set bmargin 9
plot datadir.'/variants_4096.csv' using (column('gflops')/1000):xticlabels(strcol('variant')) \
     lc rgb '#4477aa', \
     '' using 0:(column('gflops')/1000*1.15):(sprintf('%.0f%%', column('pct_cublas'))) \
     with labels font ',7'
