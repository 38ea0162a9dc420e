/* The CPU reference against answers known without it: small cases worked by hand, an exact
 * solution of the discrete scheme, the heat balance, symmetry, and the Numba original's result
 * for the document's problem. Needs no GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heat_reference.h"
#include "tutorial.h"

static const double pi = 3.14159265358979323846;

/* 3 points, k = 1/4, [0 4 0]: by hand, [1 2 1] after one step and [1 1.5 1] after two; the
 * first step loses nothing at the walls (both are 0), the second loses k (1 + 1) = 0.5. */
static int hand_three_points(void)
{
    double u[3] = {0, 4, 0}, s[3];
    const double one[3] = {1, 2, 1}, two[3] = {1, 1.5, 1};
    heat_reference(u, s, 3, 1, 0.25);
    int ok = tut_check_f64("3 points, 1 step", u, one, 3, 0, 0, NULL);
    heat_reference(u, s, 3, 1, 0.25);
    ok &= tut_check_f64("3 points, 2 steps", u, two, 3, 0, 0, NULL);
    return ok;
}

/* 2 points, both walls at once, k = 1/2, [1 0] -> [0 0.5] -> [0.25 0]. */
static int hand_two_points(void)
{
    double u[2] = {1, 0}, s[2];
    const double want[2] = {0.25, 0};
    heat_reference(u, s, 2, 2, 0.5);
    return tut_check_f64("2 points, 2 steps", u, want, 2, 0, 0, NULL);
}

/* Zero steps change nothing. */
static int zero_steps(void)
{
    double u[5] = {1, 2, 3, 4, 5}, s[5];
    const double want[5] = {1, 2, 3, 4, 5};
    heat_reference(u, s, 5, 0, 0.3);
    return tut_check_f64("0 steps", u, want, 5, 0, 0, NULL);
}

/* The sine modes sin(pi m (i + 1) / (n + 1)) vanish at the walls (i = -1 and i = n) and the
 * scheme only scales them: by 1 - 4 k sin^2(pi m / (2 (n + 1))) each step. */
static int sine_mode(void)
{
    enum { N = 63, M = 3, STEPS = 50 };
    const double k = 0.3;
    double u[N], s[N], want[N];
    const double factor = 1.0 - 4.0 * k * pow(sin(pi * M / (2.0 * (N + 1))), 2.0);
    for (int i = 0; i < N; ++i) {
        u[i] = sin(pi * M * (i + 1) / (N + 1));
        want[i] = pow(factor, STEPS) * u[i];
    }
    heat_reference(u, s, N, STEPS, k);
    return tut_check_f64("sine mode m=3 after 50 steps", u, want, N, 1e-13, 1e-12, NULL);
}

/* Heat balance: each step the total falls by exactly what leaves through the walls,
 * k (u[0] + u[n-1]), up to the rounding of the sums. */
static int heat_balance(void)
{
    enum { N = 1000, STEPS = 200 };
    double *u = malloc(N * sizeof *u), *s = malloc(N * sizeof *s);
    heat_init_random(u, N, TUT_DEFAULT_SEED);
    double worst = 0.0;
    for (int step = 0; step < STEPS; ++step) {
        const double before = heat_total(u, N), loss = heat_wall_loss(u, N, 0.25);
        heat_reference(u, s, N, 1, 0.25);
        worst = fmax(worst, fabs(heat_total(u, N) - (before - loss)) / before);
    }
    free(u);
    free(s);
    printf("heat balance over %d steps: worst relative gap %.3g\n", STEPS, worst);
    return worst < 1e-13;
}

/* The document's problem: a symmetric arc, and the Numba original's numbers (on an H200, with
 * NumPy agreeing to 0.0): max 56.41825312220419 at index 500, total 9999.999999972488. */
static int document_problem(void)
{
    enum { N = 1001 };
    double u[N], s[N];
    heat_init_spike(u, N, 10000.0);
    heat_reference(u, s, N, 10000, 0.25);
    const size_t peak = heat_argmax(u, N);
    printf("document's problem: max %.16g at index %zu, total %.16g, walls %.6g %.6g\n", u[peak],
           peak, heat_total(u, N), u[0], u[N - 1]);
    int ok = tut_check_scalar("max", u[peak], 56.41825312220419, 0.0, 1e-15);
    ok &= tut_check_scalar("total", heat_total(u, N), 9999.999999972488, 0.0, 1e-13);
    ok &= tut_check_scalar("left wall", u[0], 1.41087795e-10, 0.0, 1e-8);
    if (peak != 500) {
        printf("the maximum is at %zu, not 500\n", peak);
        ok = 0;
    }
    /* Mirror images agree to rounding (not bit for bit: (l - 2c) + r and (r - 2c) + l round
     * differently). */
    double mirror[N];
    for (int i = 0; i < N; ++i)
        mirror[i] = u[N - 1 - i];
    ok &= tut_check_f64("symmetry", u, mirror, N, 1e-12 * u[peak], 1e-12, NULL);
    return ok;
}

int main(void)
{
    int ok = hand_three_points();
    ok &= hand_two_points();
    ok &= zero_steps();
    ok &= sine_mode();
    ok &= heat_balance();
    ok &= document_problem();
    return tut_finish(ok);
}
