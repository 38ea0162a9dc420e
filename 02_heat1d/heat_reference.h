/* The rod, its update rule and the CPU reference, in plain C (tested on the CPU).
 *
 * The explicit finite-difference scheme of the heat equation u_t = alpha u_xx on a grid of
 * spacing dx and time step dt, with k = alpha dt / dx^2:
 *
 *     u'[i] = u[i] + k * ((u[i-1] - 2 u[i]) + u[i+1])
 *
 * Points outside the rod count as 0 (the walls are held at zero temperature), which gives the
 * document's two wall formulas exactly: at i = 0, (0 - 2u) + u[1] is u[1] - 2u bit for bit.
 * The scheme is stable for 0 < k <= 1/2. */
#ifndef HEAT1D_REFERENCE_H
#define HEAT1D_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One point's update, in the order the GPU kernels use. Compile with -ffp-contract=off so the
 * compiler cannot fuse the multiply and add (the GPU side rounds each operation explicitly). */
static inline double heat_point_update(double left, double cur, double right, double k)
{
    return cur + k * ((left - 2.0 * cur) + right);
}

/* Advances u by `steps` time steps in place; scratch holds n doubles. */
void heat_reference(double *u, double *scratch, size_t n, long long steps, double k);

/* The document's start: all zero except the middle point (index n / 2). */
void heat_init_spike(double *u, size_t n, double value);

/* Random temperatures in [0, 100), from a seed: reveals indexing bugs a spike can hide. */
void heat_init_random(double *u, size_t n, uint64_t seed);

/* The total heat, and where the maximum is. */
double heat_total(const double *u, size_t n);
size_t heat_argmax(const double *u, size_t n);

/* How much heat one step loses through the walls: k * (u[0] + u[n-1]) (for n >= 2). */
double heat_wall_loss(const double *u, size_t n, double k);

#ifdef __cplusplus
}
#endif

#endif
