# The histogram's roofline (roofline_histogram.csv, written by atomics_histogram --bench), drawn
# by the suite's roofline script.
roofline = 'roofline_histogram'
title = 'Roofline of the text histogram (07)'
load system('dirname '.ARG0).'/../../common/plots/roofline.gp'
