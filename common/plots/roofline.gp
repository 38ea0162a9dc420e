# The roofline of a chapter: each kernel's achieved operations per second against its
# arithmetic intensity (operations per byte), under the roofs measured in the same run.
# Reads <datadir>/roofline.csv (ceilings.h: tut_roofline_csv_row), writes <outdir>/roofline.png.
# Each row carries its own roofs (memory_gbps, compute_gops: 0 for none), so one chart can hold
# kernels bound by different memories (DRAM, shared memory): each roof is drawn where its kernels
# are, labelled with its ceiling's name.
#   gnuplot -e "datadir='docs/results/02_heat1d'; outdir='.'" common/plots/roofline.gp
#
# A chapter with two programs gives each its own file: a two-line script in the chapter sets
# `roofline` (the CSV's name without .csv, also the PNG's) and `title`, then loads this one by its
# own path: load system('dirname '.ARG0).'/../../common/plots/roofline.gp'.
set datafile separator ','
set datafile columnheaders
if (!exists('roofline')) roofline = 'roofline'
if (!exists('title')) title = 'Roofline of '.system('basename '.datadir)
file = datadir.'/'.roofline.'.csv'

stats file using 'intensity' nooutput
xlo = STATS_min / 8.0
xhi = STATS_max * 8.0
stats file using (column('compute_gops') > 0 ? column('compute_gops') / column('memory_gbps') : 0) nooutput
if (STATS_max * 4.0 > xhi) xhi = STATS_max * 4.0
stats file using 'achieved_gops' nooutput
ylo = STATS_min / 8.0
stats file using (column('compute_gops') > 0 ? column('compute_gops') : column('memory_gbps') * xhi) nooutput
yhi = STATS_max * 3.0

# The kernels' names and ratios, one array entry per row, for the key.
stats file using 0 nooutput
rows = STATS_records
array kernel_name[rows]
array kernel_ratio[rows]
stats file using (kernel_name[int($0) + 1] = strcol('kernel'), \
                  kernel_ratio[int($0) + 1] = column('ratio'), 0) nooutput

set terminal pngcairo size 960,720 font ',10' noenhanced
set output outdir.'/'.roofline.'.png'
set title title.': measured kernels under measured ceilings (same run)'
set logscale xy
set xrange [xlo:xhi]
set yrange [ylo:yhi]
set xlabel 'arithmetic intensity (operations per byte of the roof''s memory)'
set ylabel 'achieved G operations/s'
set grid
set key below left Left reverse maxcols 1

# The ridge of a row: where the memory roof meets the compute roof (xhi when there is none).
ridge(bw, peak) = peak > 0 ? peak / bw : xhi
max(a, b) = a > b ? a : b
# A memory roof's label sits on its line a factor 30 left of where it meets the highest roof
# (yhi / 3): the same place for every row with that memory, whatever its compute roof, so rows
# that share a memory but not a compute roof print one label, not several.
label_x(bw, peak) = max(xlo * 1.3, yhi / 3.0 / bw / 30.0)
plot file using (xlo):(xlo * column('memory_gbps')):(ridge(column('memory_gbps'), column('compute_gops')) - xlo):((ridge(column('memory_gbps'), column('compute_gops')) - xlo) * column('memory_gbps')) \
         with vectors nohead lw 2 lc rgb '#1f77b4' title 'memory roofs: measured GB/s x intensity', \
     file using (ridge(column('memory_gbps'), column('compute_gops'))):(column('compute_gops') > 0 ? column('compute_gops') : NaN):(xhi - ridge(column('memory_gbps'), column('compute_gops'))):(0) \
         with vectors nohead lw 2 lc rgb '#d62728' title 'compute roofs: measured', \
     file using (label_x(column('memory_gbps'), column('compute_gops'))):(label_x(column('memory_gbps'), column('compute_gops')) * 1.7 * column('memory_gbps')):(sprintf('%s %.0f GB/s', strcol('memory_roof'), column('memory_gbps'))) \
         with labels left font ',8' tc rgb '#1f77b4' notitle, \
     file using (xhi / 1.15):(column('compute_gops') > 0 ? column('compute_gops') * 1.15 : NaN):(sprintf('%s %.0f G%s/s', strcol('compute_roof'), column('compute_gops'), strcol('op_unit'))) \
         with labels right font ',8' tc rgb '#d62728' notitle, \
     for [i=1:rows] file every ::(i-1)::(i-1) using 'intensity':'achieved_gops' with points pt (i % 6 + 4) ps 1.6 lw 2 lc i \
         title sprintf('%s: %.1f%% of its roof', kernel_name[i], 100 * kernel_ratio[i])
