/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The EAL's CPU flag tests answered from the CPUID leaves the C library
 * read as the program started, rather than from CPUID instructions of
 * their own.
 *
 * rte_cpu_get_flag_enabled() executes two CPUIDs per flag (the highest
 * leaf, then the flag's leaf), and rte_eal_init() with DPDK's spinlock
 * constructor asks for eight flags: sixteen CPUIDs. In a virtual machine
 * each CPUID is a trap to the hypervisor; on this project's machine (a
 * KVM guest) 3.9 us of CPU and 9-18 us of wall time each.
 * glibc (2.36 here; 2.33 began it) keeps the raw registers of the leaves it
 * reads at start (1, 7, 0x80000001, 0x80000007, 0x80000008, 7.1, 0xd.1, 0x14,
 * 0x19), zeros for a leaf the CPU does not have, and gives them out with
 * __x86_get_cpuid_feature_leaf() (<sys/platform/x86.h>).
 *
 * Only in a static DPDK link (-Ddpdk_link=static): meson.build links every
 * program with -Wl,--wrap=rte_cpu_get_flag_enabled, which reaches the
 * EAL's callers in other objects (rte_cpu_is_supported(), the spinlock's
 * RTM probe). The flag's leaf, sub-leaf, register and bit are read from
 * DPDK's own table, rte_cpu_feature_table (arch/x86/rte_cpuflags.c),
 * whose entry layout is private to DPDK: it is used only once checked
 * (each name where rte_cpu_get_flag_name() says, and the first entry
 * SSE3, leaf 1, ECX bit 0, as the architecture defines it). Otherwise,
 * and for a leaf the C library does not keep, the EAL's own function
 * answers. This file uses no DPDK header (lib/core has no DPDK).
 */
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GLIBC__)
#if __GLIBC_PREREQ(2, 36)
#include <sys/platform/x86.h>
#define UET_CPUFLAGS_FROM_LIBC 1
#endif
#endif

int __real_rte_cpu_get_flag_enabled(int feature);
int __wrap_rte_cpu_get_flag_enabled(int feature);

#ifdef UET_CPUFLAGS_FROM_LIBC

/* One entry of DPDK 22.11's rte_cpu_feature_table (struct feature_entry,
 * arch/x86/rte_cpuflags.c); the layout check below guards it. */
struct eal_feature_entry {
	uint32_t leaf;
	uint32_t subleaf;
	uint32_t reg; /* 0 EAX, 1 EBX, 2 ECX, 3 EDX, as glibc's array */
	uint32_t bit;
	char name[64];
};

extern const struct eal_feature_entry rte_cpu_feature_table[];
const char *rte_cpu_get_flag_name(int feature);

/* RTE_CPUFLAG_SSE3, the first flag of the x86 enum, and one further on. */
#define EAL_FLAG_FIRST 0
#define EAL_FLAG_CHECK 20

/* 0 not yet checked, 1 usable, -1 not; any thread may check, all find
 * the same. */
static int eal_table_checked;

static int eal_table_usable(void)
{
	const struct eal_feature_entry *e = &rte_cpu_feature_table[0];
	int checked = __atomic_load_n(&eal_table_checked, __ATOMIC_RELAXED);
	int f;

	if (checked != 0)
		return checked > 0;
	checked = 1;
	for (f = EAL_FLAG_FIRST; f <= EAL_FLAG_CHECK; f++)
		if (rte_cpu_get_flag_name(f) != rte_cpu_feature_table[f].name)
			checked = -1;
	if (e->leaf != 1 || e->subleaf != 0 || e->reg != 2 || e->bit != 0 ||
	    strcmp(e->name, "SSE3") != 0)
		checked = -1;
	__atomic_store_n(&eal_table_checked, checked, __ATOMIC_RELAXED);
	return checked > 0;
}

/* glibc's index of a leaf, or -1 when it keeps no copy of it. */
static int libc_leaf_index(uint32_t leaf, uint32_t subleaf)
{
	static const struct {
		uint32_t leaf, subleaf;
		int index;
	} kept[] = {
		{1, 0, CPUID_INDEX_1},
		{7, 0, CPUID_INDEX_7},
		{0x80000001u, 0, CPUID_INDEX_80000001},
		{0xd, 1, CPUID_INDEX_D_ECX_1},
		{0x80000007u, 0, CPUID_INDEX_80000007},
		{0x80000008u, 0, CPUID_INDEX_80000008},
		{7, 1, CPUID_INDEX_7_ECX_1},
		{0x19, 0, CPUID_INDEX_19},
		{0x14, 0, CPUID_INDEX_14_ECX_0},
	};
	size_t i;

	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		if (kept[i].leaf == leaf && kept[i].subleaf == subleaf)
			return kept[i].index;
	return -1;
}

int __wrap_rte_cpu_get_flag_enabled(int feature)
{
	const struct eal_feature_entry *e;
	const struct cpuid_feature *c;
	int index;

	/* Out of range and leafless flags: the EAL's own errors. */
	if (feature < 0 || !eal_table_usable() ||
	    rte_cpu_get_flag_name(feature) == NULL)
		return __real_rte_cpu_get_flag_enabled(feature);
	e = &rte_cpu_feature_table[feature];
	index = e->leaf != 0 && e->reg < 4 && e->bit < 32
			? libc_leaf_index(e->leaf, e->subleaf)
			: -1;
	if (index < 0)
		return __real_rte_cpu_get_flag_enabled(feature);
	c = __x86_get_cpuid_feature_leaf((unsigned int)index);
	return (int)((c->cpuid_array[e->reg] >> e->bit) & 1u);
}

#else

int __wrap_rte_cpu_get_flag_enabled(int feature)
{
	return __real_rte_cpu_get_flag_enabled(feature);
}

#endif
