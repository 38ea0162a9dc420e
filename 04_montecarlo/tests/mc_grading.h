/* What the chapter-04 graders share: problems drawn from the seed. */
#ifndef MC_GRADING_H
#define MC_GRADING_H

#include "estimator.h"
#include "exercise.h"

/* A problem of n samples of `integrand` on a range where it is defined, seed drawn. */
static inline mc_problem mc_grading_problem(tut_grader *g, mc_integrand integrand,
                                            unsigned long long n)
{
    /* In the order of mc_integrand (C++, which compiles this, has no array designators). */
    static const double ranges[MC_INTEGRAND_COUNT][2] = {
        {1.0, 3.0} /* MC_INV */,     {-1.0, 2.0} /* MC_SQUARE */, {-1.5, 3.0} /* MC_SIN */,
        {0.0, 1.0} /* MC_CIRCLE */,  {-2.0, 5.0} /* MC_ONE */};
    const mc_problem p = {.integrand = integrand,
                          .a = ranges[integrand][0],
                          .b = ranges[integrand][1],
                          .samples = n,
                          .seed = tut_rng_next(&g->rng)};
    return p;
}

#endif
