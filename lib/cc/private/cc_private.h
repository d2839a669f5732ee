/* SPDX-License-Identifier: BSD-3-Clause */
/* The algorithms behind uet_cc_init, visible to lib/cc only. */
#ifndef UET_CC_PRIVATE_H
#define UET_CC_PRIVATE_H

#include "uet_cc.h"

/** The fixed window: params.window_bytes, whatever happens. */
extern const struct uet_cc_ops uet_cc_fixed_ops;

/**
 * Check a fixed-window group's parameters and set its state.
 * @return 0, or -EINVAL for a zero window.
 */
int uet_cc_fixed_init(struct uet_cc *cc);

/** NSCC (cc_nscc.c). */
extern const struct uet_cc_ops uet_cc_nscc_ops;

/**
 * Derive NSCC's parameters and set the initial window.
 * @return 0, or -EINVAL for a zero rate or InitialBaseRTT.
 */
int uet_cc_nscc_init(struct uet_cc *cc);

#endif /* UET_CC_PRIVATE_H */
