# |estimate - exact| against n (log-log), three seeds per n, with the 1/sqrt(n) error bar.
set datafile separator ','
set terminal pngcairo size 900,560
set output outdir.'/convergence.png'
set title 'Monte Carlo error against the number of samples (fused Philox, 1/x over [1, 2])'
set logscale x 2
set logscale y 10
set format x '2^{%L}'
set format y '10^{%L}'
set xlabel 'samples n'
set ylabel '|error|'
set grid
set key top right
# The error bar of the 1/x estimator: sigma / sqrt(n), sigma = sqrt(1/2 - ln(2)^2).
sigma = sqrt(0.5 - log(2)**2)
plot datadir.'/convergence.csv' using 'samples':'abs_error' with points pt 7 ps 0.8 title '|error|, 3 seeds per n', \
     '' using 'samples':'std_error' with points pt 2 ps 0.8 title 'standard error (from the sum of squares)', \
     [1e3:3e10] sigma/sqrt(x) with lines lw 2 title 'sigma / sqrt(n)'
