/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The largest frame a port carries, read from its device string
 * (run_port_frame.c): what a failed run over ports checks its data
 * frames against, to name a frame size that did not fit.
 */
#ifndef RUN_PORT_FRAME_H
#define RUN_PORT_FRAME_H

#include <stddef.h>
#include <stdint.h>

/**
 * The largest frame, bytes, that a port of this device string carries:
 * net_af_packet's framesz (2048 when not given, the PMD's default) less
 * the 66 bytes the kernel puts before a frame in its ring slot; net_memif's
 * bsize (2048 by default). 0 for other kinds (their limit is the
 * interface's MTU, which the port's own checks name).
 *
 * @param why
 *   Out: what the limit comes from ("framesz=8192, less the kernel's
 *   66-byte packet header"), len bytes.
 */
uint32_t run_port_frame_max(const char *devargs, char *why, size_t len);

#endif /* RUN_PORT_FRAME_H */
