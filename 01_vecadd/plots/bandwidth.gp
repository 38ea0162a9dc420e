# Chapter 01: vector-add bandwidth against cudaMemcpy, from bandwidth.csv.
# gnuplot -e "datadir='...'; outdir='...'" bandwidth.gp
set datafile separator ','
set datafile missing NaN
set terminal pngcairo size 900,560 font ',11'
set output outdir.'/bandwidth.png'
file = datadir.'/bandwidth.csv'
set title 'Vector add c = a + b (float32): achieved bandwidth'
set xlabel 'elements n'
set ylabel 'GB/s (bytes read + written per second)'
set logscale x 2
set format x '2^{%L}'
set logscale y 10
set key top left
set grid
pick(v) = (strcol('variant') eq v) ? column('gbps') : NaN
plot file using 'n':(pick('memcpy')) with linespoints lw 2 dt 2 title 'cudaMemcpy device-to-device (ceiling)', \
     file using 'n':(pick('one-per-thread')) with linespoints title 'one thread per element', \
     file using 'n':(pick('grid-stride')) with linespoints title 'grid-stride loop', \
     file using 'n':(pick('float4')) with linespoints lw 2 title 'grid-stride, float4 loads'
