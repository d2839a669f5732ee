/* SPDX-License-Identifier: BSD-3-Clause */
/* Two net_af_packet ports on the ends of a veth pair, each end in its own
 * network namespace that this test creates and removes, carry 4,202-byte
 * and 60-byte frames both ways, byte for byte, and count what a full
 * receive ring drops; two net_af_xdp ports carry 3,178-byte frames. Needs
 * root. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <check.h>

#include "check_main.h"
#include "drv_test.h"
#include "uet_port.h"

#define POOL_MBUFS 2047u
#define FRAMES_EACH_WAY 300u
/* Frames per chunk: sent, then all received before the next chunk, well
 * within the 512-slot kernel rings and the veth backlog. */
#define CHUNK 32u
#define AFP_ARGS "framesz=8192,blocksz=8192,framecnt=512,qpairs=1"

/* The namespaces and interfaces of this run. Static because the signal
 * handler that removes them has no other way to find them. */
static struct {
	pid_t owner;	 /* the process that created them; only it removes */
	char ns[2][32];	 /* uetd<pid>a, uetd<pid>b */
	char ifc[2][16]; /* ud<pid>a, ud<pid>b (15 characters at most) */
} net;

/* Run "ip netns del <ns>" without the shell or stdio, so that it is safe
 * in a signal handler. Deleting a namespace deletes its veth end, and with
 * it the pair. */
static void netns_del(const char *ns)
{
	char *argv[] = {"ip", "netns", "del", (char *)ns, NULL};
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp("ip", argv);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
}

static void net_cleanup(void)
{
	if (getpid() != net.owner)
		return; /* a forked test process: the owner cleans up */
	netns_del(net.ns[0]);
	netns_del(net.ns[1]);
}

static void on_signal(int sig)
{
	net_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Run a shell command; 0 if it exited with 0. */
static int sh(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	ret = system(cmd);
	if (ret != 0)
		fprintf(stderr, "command failed (%d): %s\n", ret, cmd);
	return ret;
}

/* Both namespaces, the veth pair across them, no addresses, IPv6 off (so
 * the kernel sends no neighbour or router solicitations), MTU 9000 (else
 * the kernel drops 4,202-byte frames), links up. */
static int net_create(void)
{
	int i;

	if (sh("ip netns add %s", net.ns[0]) ||
	    sh("ip netns add %s", net.ns[1]))
		return -1;
	if (sh("ip link add %s netns %s type veth peer name %s netns %s",
	       net.ifc[0], net.ns[0], net.ifc[1], net.ns[1]))
		return -1;
	for (i = 0; i < 2; i++) {
		if (sh("ip netns exec %s sysctl -qw "
		       "net.ipv6.conf.%s.disable_ipv6=1",
		       net.ns[i], net.ifc[i]) ||
		    sh("ip -n %s link set %s mtu 9000 up", net.ns[i],
		       net.ifc[i]))
			return -1;
	}
	return 0;
}

/* Enter namespace i (or the one in fd orig_fd when i < 0). */
static void enter_ns(int i, int orig_fd)
{
	char path[64];
	int fd = orig_fd;

	if (i >= 0) {
		snprintf(path, sizeof(path), "/var/run/netns/%s", net.ns[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		ck_assert_msg(fd >= 0, "open %s: %s", path, strerror(errno));
	}
	ck_assert_msg(setns(fd, CLONE_NEWNET) == 0, "setns: %s",
		      strerror(errno));
	if (i >= 0)
		close(fd);
}

struct veth_env {
	struct rte_mempool *mp;
	struct uet_port *port[2];
};

/* af_packet binds to the interface in the calling thread's namespace at
 * probe time: probe each port from inside its namespace, then go home. */
static void veth_env_open(struct veth_env *env, const char *what)
{
	struct uet_port_conf conf = {0};
	char devargs[160];
	int orig_fd, i, ret;

	alarm(60);
	uet_test_eal("uetdrv", what);
	env->mp = uet_test_pool("veth_pool", POOL_MBUFS);
	conf.pool = env->mp;
	orig_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(orig_fd, 0);
	for (i = 0; i < 2; i++) {
		snprintf(devargs, sizeof(devargs),
			 "net_af_packet%d,iface=%s," AFP_ARGS, i, net.ifc[i]);
		enter_ns(i, -1);
		ret = uet_port_open(&env->port[i], devargs, &conf);
		enter_ns(-1, orig_fd);
		ck_assert_msg(ret == 0, "open %s: %d", devargs, ret);
	}
	close(orig_fd);
}

static void veth_env_close(struct veth_env *env)
{
	uet_port_close(env->port[0]);
	uet_port_close(env->port[1]);
	ck_assert_uint_eq(rte_mempool_in_use_count(env->mp), 0);
	rte_mempool_free(env->mp);
}

static void check_tx_counts(struct uet_port *p, uint64_t frames, uint32_t len)
{
	struct uet_port_stats st;

	ck_assert_int_eq(uet_port_stats(p, &st), 0);
	ck_assert_uint_eq(st.tx_frames, frames);
	ck_assert_uint_eq(st.tx_packets, frames);
	ck_assert_uint_eq(st.tx_frame_bytes, frames * len);
	/* af_packet counts bytes itself. */
	ck_assert_uint_eq(st.tx_bytes, frames * len);
	ck_assert_uint_eq(st.tx_errors, 0);
	ck_assert_uint_eq(st.tx_timeouts, 0);
}

/* Both directions, count frames of len bytes each way, then check the
 * counters: each side sent exactly count, and everything either side
 * received is our frames or the kernel's (counted as foreign). */
static void exchange_both_ways(struct veth_env *env, uint32_t count,
			       uint32_t len)
{
	struct uet_port_stats s0, s1;
	uint32_t foreign;

	foreign = drv_test_exchange(env->mp, env->port[0], env->port[1], 0,
				    count, len, CHUNK);
	foreign += drv_test_exchange(env->mp, env->port[1], env->port[0], 1,
				     count, len, CHUNK);
	check_tx_counts(env->port[0], count, len);
	check_tx_counts(env->port[1], count, len);
	ck_assert_int_eq(uet_port_stats(env->port[0], &s0), 0);
	ck_assert_int_eq(uet_port_stats(env->port[1], &s1), 0);
	ck_assert_uint_eq(s0.rx_frames + s1.rx_frames, 2ull * count + foreign);
	ck_assert_uint_eq(s0.rx_missed + s1.rx_missed, 0);
}

START_TEST(test_veth_af_packet_carries_4202_byte_frames_both_ways)
{
	struct veth_env env;

	veth_env_open(&env, "veth4202");
	exchange_both_ways(&env, FRAMES_EACH_WAY, DRV_TEST_BIG_BYTES);
	veth_env_close(&env);
}
END_TEST

START_TEST(test_veth_af_packet_carries_60_byte_frames_both_ways)
{
	struct veth_env env;

	veth_env_open(&env, "veth60");
	exchange_both_ways(&env, FRAMES_EACH_WAY, DRV_TEST_SMALL_BYTES);
	veth_env_close(&env);
}
END_TEST

START_TEST(test_veth_af_packet_link_up_interface_mac_and_mtu_kept)
{
	struct veth_env env;
	struct uet_port_link link;
	char cmd[128], line[64], want[64];
	FILE *p;
	int i;

	veth_env_open(&env, "vethlink");
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(uet_port_link(env.port[i], &link), 0);
		ck_assert(link.up);
		/* The kernel's MAC of the veth end, read with ip(8). */
		snprintf(cmd, sizeof(cmd),
			 "ip -n %s -br link show dev %s | awk '{print $3}'",
			 net.ns[i], net.ifc[i]);
		p = popen(cmd, "r");
		ck_assert_ptr_nonnull(p);
		ck_assert_ptr_nonnull(fgets(line, sizeof(line), p));
		pclose(p);
		snprintf(want, sizeof(want), "%02x:%02x:%02x:%02x:%02x:%02x\n",
			 link.mac.addr_bytes[0], link.mac.addr_bytes[1],
			 link.mac.addr_bytes[2], link.mac.addr_bytes[3],
			 link.mac.addr_bytes[4], link.mac.addr_bytes[5]);
		ck_assert_str_eq(line, want);
		/* Opening the port left the interface MTU at 9000 (the PMD
		 * would have shrunk it to 1500 had we asked it to set one). */
		snprintf(cmd, sizeof(cmd),
			 "ip -n %s -o link show dev %s | grep -o 'mtu [0-9]*'",
			 net.ns[i], net.ifc[i]);
		p = popen(cmd, "r");
		ck_assert_ptr_nonnull(p);
		ck_assert_ptr_nonnull(fgets(line, sizeof(line), p));
		pclose(p);
		ck_assert_str_eq(line, "mtu 9000\n");
		ck_assert_uint_eq(link.mtu_bytes, 1500);
	}
	veth_env_close(&env);
}
END_TEST

/* Receive until nothing has come for 200 ms; return our frames, checking
 * each is the next one expected. */
static uint32_t drain_ours(struct uet_port *rx, uint8_t dir, uint32_t len)
{
	struct rte_mbuf *pkts[64];
	uint64_t quiet_since = drv_test_ms();
	uint32_t got = 0;
	uint16_t nb, i;

	while (drv_test_ms() - quiet_since < 200) {
		nb = uet_port_rx_burst(rx, pkts, RTE_DIM(pkts));
		if (nb > 0)
			quiet_since = drv_test_ms();
		for (i = 0; i < nb; i++) {
			ck_assert(drv_test_is_ours(pkts[i]));
			drv_test_check(pkts[i], dir, got++, len);
			rte_pktmbuf_free(pkts[i]);
		}
	}
	return got;
}

/* af_packet's receive ring (framecnt 512) holds what is sent while nobody
 * reads; the kernel drops the rest, and the port counts those as missed
 * (DPDK 22.11's PMD reports none itself): every frame sent is received or
 * counted. */
START_TEST(test_af_packet_full_ring_drops_counted_as_missed)
{
	const uint32_t count = 700;
	struct rte_mbuf *pkts[32];
	struct uet_port_stats st;
	struct veth_env env;
	uint32_t sent = 0, got, i;

	veth_env_open(&env, "vethfull");
	while (sent < count) {
		for (i = 0; i < RTE_DIM(pkts); i++)
			pkts[i] = drv_test_mbuf(env.mp, 0, sent + i,
						DRV_TEST_SMALL_BYTES);
		ck_assert_int_eq(
			uet_port_tx_all(env.port[0], pkts, RTE_DIM(pkts), 2000),
			(int)RTE_DIM(pkts));
		sent += RTE_DIM(pkts);
	}
	got = drain_ours(env.port[1], 0, DRV_TEST_SMALL_BYTES);
	ck_assert_int_eq(uet_port_stats(env.port[1], &st), 0);
	ck_assert_uint_le(got, 512);
	ck_assert_uint_eq(got + st.rx_missed, sent);
	/* Read twice: the kernel's count resets on each read, ours adds. */
	ck_assert_int_eq(uet_port_stats(env.port[1], &st), 0);
	ck_assert_uint_eq(got + st.rx_missed, sent);
	veth_env_close(&env);
}
END_TEST

/* MTU of both veth ends for AF_XDP: one page per frame with XDP on a veth
 * (docs/ports.md, "AF_XDP and veth"). */
#define XDP_MTU 3498u
/* The frames of a scenario with RdmaDataMSS 3072. */
#define XDP_FRAME_BYTES 3178u
#define XDP_ARGS "start_queue=0,queue_count=1,busy_budget=0"

/* Check that every object of pool mp lies inside the umem net_af_xdp makes
 * of it: from the page that holds the first memory chunk's start, the
 * pool's size in objects (plus that page's head). */
static void check_inside_umem(const struct rte_mempool *mp)
{
	const struct rte_mempool_memhdr *hdr = STAILQ_FIRST(&mp->mem_list);
	uintptr_t page = (uintptr_t)getpagesize(), base, end, obj;
	size_t obj_bytes = mp->header_size + mp->elt_size + mp->trailer_size;
	const struct rte_mempool_objhdr *oh;

	ck_assert_ptr_nonnull(hdr);
	base = (uintptr_t)hdr->addr & ~(page - 1);
	end = (uintptr_t)hdr->addr + (uintptr_t)mp->populated_size * obj_bytes;
	STAILQ_FOREACH(oh, &mp->elt_list, next)
	{
		/* The object starts header_size before its element, which
		 * follows its objhdr. */
		obj = (uintptr_t)(oh + 1) - mp->header_size;
		ck_assert_msg(obj >= base && obj + obj_bytes <= end,
			      "pool %s: an object at +%lu of %lu bytes ends "
			      "past the umem (+%lu)",
			      mp->name, (unsigned long)(obj - base),
			      (unsigned long)obj_bytes,
			      (unsigned long)(end - base));
	}
}

/* net_af_xdp receives into a pool of page-sized mbufs that the port makes
 * (uet_xdp_rx<port id>): every one inside the PMD's umem (the last one of
 * a pool that did not start on a page was not, and frames sent from it
 * were dropped by the kernel as invalid descriptors), and 3,178-byte
 * frames cross both ways. */
START_TEST(test_af_xdp_rx_pool_inside_umem_and_frames_cross)
{
	struct uet_port_conf conf = {0};
	struct veth_env env;
	struct uet_port_stats st;
	char devargs[160], name[RTE_MEMPOOL_NAMESIZE];
	struct rte_mempool *rx_pool;
	int orig_fd, i, ret;

	alarm(60);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(sh("ip -n %s link set %s mtu %u", net.ns[i],
				    net.ifc[i], XDP_MTU),
				 0);
	uet_test_eal("uetdrv", "vethxdp");
	env.mp = uet_test_pool("veth_pool", POOL_MBUFS);
	conf.pool = env.mp;
	orig_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(orig_fd, 0);
	for (i = 0; i < 2; i++) {
		snprintf(devargs, sizeof(devargs),
			 "net_af_xdp%d,iface=%s," XDP_ARGS, i, net.ifc[i]);
		enter_ns(i, -1);
		ret = uet_port_open(&env.port[i], devargs, &conf);
		enter_ns(-1, orig_fd);
		ck_assert_msg(ret == 0, "open %s: %d", devargs, ret);
		snprintf(name, sizeof(name), "uet_xdp_rx%u",
			 uet_port_id(env.port[i]));
		rx_pool = rte_mempool_lookup(name);
		ck_assert_ptr_nonnull(rx_pool);
		check_inside_umem(rx_pool);
	}
	close(orig_fd);
	drv_test_exchange(env.mp, env.port[0], env.port[1], 0, FRAMES_EACH_WAY,
			  XDP_FRAME_BYTES, CHUNK);
	drv_test_exchange(env.mp, env.port[1], env.port[0], 1, FRAMES_EACH_WAY,
			  XDP_FRAME_BYTES, CHUNK);
	/* The PMD takes its XDP program off the interface of its index in
	 * the calling thread's namespace: close each port from its own. */
	orig_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(orig_fd, 0);
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(uet_port_stats(env.port[i], &st), 0);
		ck_assert_uint_eq(st.rx_missed, 0);
		enter_ns(i, -1);
		uet_port_close(env.port[i]);
		enter_ns(-1, orig_fd);
	}
	close(orig_fd);
	ck_assert_uint_eq(rte_mempool_in_use_count(env.mp), 0);
	rte_mempool_free(env.mp);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(sh("ip -n %s link set %s mtu 9000", net.ns[i],
				    net.ifc[i]),
				 0);
}
END_TEST

START_TEST(test_af_packet_probe_sees_only_the_current_namespace)
{
	struct uet_port_conf conf = {0};
	struct uet_port *port = NULL;
	char devargs[160];

	alarm(60);
	uet_test_eal("uetdrv", "vethns");
	conf.pool = uet_test_pool("veth_pool", 255);
	/* The interface lives in namespace a, not in ours. */
	snprintf(devargs, sizeof(devargs), "net_af_packet0,iface=%s," AFP_ARGS,
		 net.ifc[0]);
	ck_assert_int_lt(uet_port_open(&port, devargs, &conf), 0);
	ck_assert_ptr_null(port);
	rte_mempool_free(conf.pool);
}
END_TEST

static Suite *veth_suite(void)
{
	Suite *s = suite_create("drivers-veth-af-packet");
	TCase *tc = tcase_create("veth");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc,
		       test_veth_af_packet_carries_4202_byte_frames_both_ways);
	tcase_add_test(tc,
		       test_veth_af_packet_carries_60_byte_frames_both_ways);
	tcase_add_test(tc,
		       test_veth_af_packet_link_up_interface_mac_and_mtu_kept);
	tcase_add_test(tc,
		       test_af_packet_probe_sees_only_the_current_namespace);
	tcase_add_test(tc, test_af_packet_full_ring_drops_counted_as_missed);
	tcase_add_test(tc, test_af_xdp_rx_pool_inside_umem_and_frames_cross);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
	unsigned i;

	if (geteuid() != 0) {
		fprintf(stderr, "needs root (network namespaces): skipped\n");
		return 77; /* meson's "skipped" */
	}
	net.owner = getpid();
	for (i = 0; i < 2; i++) {
		snprintf(net.ns[i], sizeof(net.ns[i]), "uetd%d%c",
			 (int)net.owner, 'a' + i);
		snprintf(net.ifc[i], sizeof(net.ifc[i]), "ud%d%c",
			 (int)net.owner, 'a' + i);
	}
	/* Remove them however we leave: normal exit, meson's SIGTERM on
	 * timeout, ^C. A failing test process exits with _exit (Check's fork
	 * mode) and never removes them; this process does. */
	atexit(net_cleanup);
	for (i = 0; i < RTE_DIM(sigs); i++)
		signal(sigs[i], on_signal);
	if (net_create() != 0) {
		fprintf(stderr, "cannot create the namespaces and veth pair\n");
		return EXIT_FAILURE;
	}

	return uet_check_run(veth_suite());
}
