/* Everything a chapter program needs from common/, in one include. */
#ifndef TUTORIAL_H
#define TUTORIAL_H

#include "check.h"
#include "compare.h"
#include "csv.h"
#include "device.h"
#include "memory.h"
#include "options.h"
#include "rng.h"
#include "timer.h"
#include "gpu_table.h"
#include "occupancy.h"

#endif
