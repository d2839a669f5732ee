/* SPDX-License-Identifier: BSD-3-Clause */
/* Virtual time: unsigned 64-bit picoseconds. */
#ifndef UET_TIME_H
#define UET_TIME_H
#include <stdint.h>
/** Virtual time or a duration, in picoseconds. */
typedef uint64_t uet_time_t;
#endif
