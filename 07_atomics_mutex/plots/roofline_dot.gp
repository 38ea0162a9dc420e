# The dot product's roofline (roofline_dot.csv, written by atomics_dot --bench), drawn by the
# suite's roofline script.
roofline = 'roofline_dot'
title = 'Roofline of the dot product (07)'
load system('dirname '.ARG0).'/../../common/plots/roofline.gp'
