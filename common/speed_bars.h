/* The speed bars of the exercises, in one place (each grader's .speed_bar; exercise.h includes
 * this file). A bar is the ratio a submission's speed must reach against the grader's ceiling
 * or library, measured in the same run (docs/exercises.md, "Speed").
 *
 * A grade must not turn on noise: every bar sits at least 15% below the slowest ratio the
 * solution reached and at least 15% above the fastest ratio a correct-but-slow corpus entry
 * (tests/mistakes/, `expect: <id>.speed`) reached, over repeated runs on an H100
 * (tools/speedbars.sh measures them; docs/results/gpu-check/speed_distributions.h100.csv holds
 * them; the CPU test common.speed_bars.margin checks every bar below against that file). To
 * move a bar: change its number here, then run the CPU test. */
#ifndef TUTORIAL_SPEED_BARS_H
#define TUTORIAL_SPEED_BARS_H

/* The least a bar must clear each side's worst measurement by (0.15: 15%). */
#define TUT_SPEED_BAR_MARGIN 0.15

#define TUT_SPEED_BAR_EX01_1 0.30 /* grid-stride loop: GB/s / cudaMemcpy's GB/s */
#define TUT_SPEED_BAR_EX01_2 0.60 /* float4 kernel: GB/s / cudaMemcpy's GB/s */
#define TUT_SPEED_BAR_EX02_3 10.0 /* registers kernel: steps/s / grid.sync() kernel's */
#define TUT_SPEED_BAR_EX03_1 0.30 /* session starts: events/s / a copy of 24 bytes per event */
#define TUT_SPEED_BAR_EX03_2 0.45 /* warp max-scan: events/s / a copy of 24 bytes per event */
#define TUT_SPEED_BAR_EX03_3 0.25 /* three-phase scan: events/s / a copy of 24 bytes per event */
#define TUT_SPEED_BAR_EX04_3 0.40 /* fused counter: samples/s / (multiply ceiling / 10) */
#define TUT_SPEED_BAR_EX05_2 0.20 /* register blocking: TFLOP/s / cuBLAS FP32 */
#define TUT_SPEED_BAR_EX05_3 0.40 /* float4 loads: TFLOP/s / cuBLAS FP32 */
#define TUT_SPEED_BAR_EX06_1 0.50 /* pipeline: elements/s / copy-in alone */
#define TUT_SPEED_BAR_EX06_3 0.55 /* ring pipeline: elements/s / copy-in alone (0.50 was
                                   * within 15% of ring_sync_each_chunk) */
#define TUT_SPEED_BAR_EX07_3 0.65 /* dot product: GB/s / CUB DeviceReduce::Sum */

/* Every bar with its exercise, for the CPU test (an X-macro: X(id, bar) once per exercise). A
 * grader with a speed test and no line here fails that test (common/speed_bars_test.c). */
#define TUT_SPEED_BARS(X)                                                                      \
    X("ex01.1", TUT_SPEED_BAR_EX01_1)                                                          \
    X("ex01.2", TUT_SPEED_BAR_EX01_2)                                                          \
    X("ex02.3", TUT_SPEED_BAR_EX02_3)                                                          \
    X("ex03.1", TUT_SPEED_BAR_EX03_1)                                                          \
    X("ex03.2", TUT_SPEED_BAR_EX03_2)                                                          \
    X("ex03.3", TUT_SPEED_BAR_EX03_3)                                                          \
    X("ex04.3", TUT_SPEED_BAR_EX04_3)                                                          \
    X("ex05.2", TUT_SPEED_BAR_EX05_2)                                                          \
    X("ex05.3", TUT_SPEED_BAR_EX05_3)                                                          \
    X("ex06.1", TUT_SPEED_BAR_EX06_1)                                                          \
    X("ex06.3", TUT_SPEED_BAR_EX06_3)                                                          \
    X("ex07.3", TUT_SPEED_BAR_EX07_3)

#endif
