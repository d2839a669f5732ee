/* SPDX-License-Identifier: BSD-3-Clause */
/* The NIC's parameters: the checks uet_nic_create() makes. */
#include <errno.h>
#include <stddef.h>

#include "uet_nic_params.h"
#include "uet_ses.h"

int uet_nic_params_check(const struct uet_nic_params *p)
{
	if (p == NULL || p->mss_bytes == 0 ||
	    p->mss_bytes > UET_SES_MAX_MSS_BYTES || p->port_rate_bps == 0 ||
	    p->window_bytes == 0 || uet_pcie_params_check(&p->pcie) != 0 ||
	    uet_pds_params_check(&p->pds) != 0 ||
	    uet_dscp_map_validate(&p->dscp) != 0)
		return -EINVAL;
	return 0;
}
