/* SPDX-License-Identifier: BSD-3-Clause */
/* The frame's fabric metadata as an mbuf dynamic field (fabric_meta.h). */
#include "fabric_meta.h"

int fabric_meta_offset = -1;

void fabric_meta_register(void)
{
	static const struct rte_mbuf_dynfield desc = {
		.name = "uet_fabric_meta",
		.size = sizeof(struct fabric_meta),
		.align = __alignof__(struct fabric_meta),
	};

	if (fabric_meta_offset < 0)
		fabric_meta_offset = rte_mbuf_dynfield_register(&desc);
}
