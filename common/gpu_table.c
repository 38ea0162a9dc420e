#include "gpu_table.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define KiB ((size_t)1024)
#define MiB (1024 * KiB)
#define GiB (1024 * MiB)

/* The limits every compute capability shares. */
#define COMMON_LIMITS                                                                       \
    .warp_size = 32, .max_threads_per_block = 1024, .regs_per_sm = 65536,                  \
    .regs_per_block = 65536, .shared_per_block = 48 * KiB, .cooperative_launch = 1,        \
    .async_engines = 2

/* clang-format off */
static const tut_device_info profiles[] = {
    {.name = "T4", .major = 7, .minor = 5, .sm_count = 40, COMMON_LIMITS,
     .max_threads_per_sm = 1024, .max_blocks_per_sm = 16,
     .shared_per_sm = 64 * KiB, .shared_per_block_optin = 64 * KiB,
     .reserved_shared_per_block = 0, .l2_bytes = 4 * MiB, .total_bytes = 15 * GiB},
    {.name = "V100", .major = 7, .minor = 0, .sm_count = 80, COMMON_LIMITS,
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 32,
     .shared_per_sm = 96 * KiB, .shared_per_block_optin = 96 * KiB,
     .reserved_shared_per_block = 0, .l2_bytes = 6 * MiB, .total_bytes = 15 * GiB + 768 * MiB},
    {.name = "A100", .major = 8, .minor = 0, .sm_count = 108, COMMON_LIMITS,
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 32,
     .shared_per_sm = 164 * KiB, .shared_per_block_optin = 163 * KiB,
     .reserved_shared_per_block = 1 * KiB, .l2_bytes = 40 * MiB, .total_bytes = 39 * GiB + 384 * MiB},
    {.name = "A10", .major = 8, .minor = 6, .sm_count = 72, COMMON_LIMITS,
     .max_threads_per_sm = 1536, .max_blocks_per_sm = 16,
     .shared_per_sm = 100 * KiB, .shared_per_block_optin = 99 * KiB,
     .reserved_shared_per_block = 1 * KiB, .l2_bytes = 6 * MiB, .total_bytes = 22 * GiB},
    {.name = "RTX3090", .major = 8, .minor = 6, .sm_count = 82, COMMON_LIMITS,
     .max_threads_per_sm = 1536, .max_blocks_per_sm = 16,
     .shared_per_sm = 100 * KiB, .shared_per_block_optin = 99 * KiB,
     .reserved_shared_per_block = 1 * KiB, .l2_bytes = 6 * MiB, .total_bytes = 23 * GiB + 512 * MiB},
    {.name = "L4", .major = 8, .minor = 9, .sm_count = 58, COMMON_LIMITS,
     .max_threads_per_sm = 1536, .max_blocks_per_sm = 24,
     .shared_per_sm = 100 * KiB, .shared_per_block_optin = 99 * KiB,
     .reserved_shared_per_block = 1 * KiB, .l2_bytes = 48 * MiB, .total_bytes = 22 * GiB},
    {.name = "RTX4090", .major = 8, .minor = 9, .sm_count = 128, COMMON_LIMITS,
     .max_threads_per_sm = 1536, .max_blocks_per_sm = 24,
     .shared_per_sm = 100 * KiB, .shared_per_block_optin = 99 * KiB,
     .reserved_shared_per_block = 1 * KiB, .l2_bytes = 72 * MiB, .total_bytes = 23 * GiB + 512 * MiB},
    {.name = "H100", .major = 9, .minor = 0, .sm_count = 132, COMMON_LIMITS,
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 32,
     .shared_per_sm = 228 * KiB, .shared_per_block_optin = 227 * KiB,
     .reserved_shared_per_block = 1 * KiB, .l2_bytes = 50 * MiB, .total_bytes = 79 * GiB},
    {.name = "B200", .major = 10, .minor = 0, .sm_count = 148, COMMON_LIMITS,
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 32,
     .shared_per_sm = 228 * KiB, .shared_per_block_optin = 227 * KiB,
     .reserved_shared_per_block = 1 * KiB, .l2_bytes = 126 * MiB, .total_bytes = 178 * GiB},
    {.name = "RTX5090", .major = 12, .minor = 0, .sm_count = 170, COMMON_LIMITS,
     .max_threads_per_sm = 1536, .max_blocks_per_sm = 24,
     .shared_per_sm = 100 * KiB, .shared_per_block_optin = 99 * KiB,
     .reserved_shared_per_block = 1 * KiB, .l2_bytes = 96 * MiB, .total_bytes = 31 * GiB},
};
/* clang-format on */

int tut_gpu_profile_count(void)
{
    return (int)(sizeof profiles / sizeof profiles[0]);
}

const tut_device_info *tut_gpu_profile_at(int i)
{
    return i >= 0 && i < tut_gpu_profile_count() ? &profiles[i] : NULL;
}

/* Compares ignoring case, spaces, '-' and '_', so "RTX 4090", "rtx-4090" and "RTX4090" match. */
static int same_name(const char *a, const char *b)
{
    for (;;) {
        while (*a == ' ' || *a == '-' || *a == '_')
            a++;
        while (*b == ' ' || *b == '-' || *b == '_')
            b++;
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
        if (!*a)
            return 1;
        a++;
        b++;
    }
}

const tut_device_info *tut_gpu_profile(const char *name)
{
    for (int i = 0; name && i < tut_gpu_profile_count(); i++)
        if (same_name(name, profiles[i].name))
            return &profiles[i];
    return NULL;
}

const char *tut_gpu_profile_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < tut_gpu_profile_count() && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", profiles[i].name);
    return buf;
}
