/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the fabric: the frame FIFO, the switch port (arrivals, output
 * queue, serializer), the routing table and the fabric that holds them.
 */
#ifndef FABRIC_PRIVATE_H
#define FABRIC_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_event.h"
#include "uet_fabric.h"
#include "uet_rng.h"

/* One frame held by the fabric. */
struct fabric_entry {
	struct rte_mbuf *m;  /* the frame, owned by the fabric */
	uet_time_t time_ps;  /* ps: arrival time (arriving) or the time it
			      * joined the output queue (queue) */
	uint32_t wire_bytes; /* frame + FCS, trailer excluded; 0 until the
			      * frame is received */
};

/*
 * A first-in first-out ring of entries. It grows by doubling, so it
 * allocates only when it reaches a new high-water mark, never per frame.
 */
struct fabric_fifo {
	struct fabric_entry *slots; /* cap slots */
	uint32_t head;		    /* index of the oldest entry */
	uint32_t len;		    /* entries held */
	uint32_t cap;		    /* slots allocated, a power of two */
};

int fabric_fifo_init(struct fabric_fifo *f, uint32_t cap);
/* Free the ring and every frame still in it. */
void fabric_fifo_fini(struct fabric_fifo *f);
/* Append; 0 or -ENOMEM (the ring is unchanged then). */
int fabric_fifo_push(struct fabric_fifo *f, const struct fabric_entry *e);
/* Remove the oldest entry into *e; the ring must not be empty. */
void fabric_fifo_pop(struct fabric_fifo *f, struct fabric_entry *e);

static inline bool fabric_fifo_empty(const struct fabric_fifo *f)
{
	return f->len == 0;
}

/* The oldest entry; the ring must not be empty. */
static inline const struct fabric_entry *
fabric_fifo_head(const struct fabric_fifo *f)
{
	return &f->slots[f->head];
}

/* The newest entry; the ring must not be empty. */
static inline const struct fabric_entry *
fabric_fifo_tail(const struct fabric_fifo *f)
{
	return &f->slots[(f->head + f->len - 1) & (f->cap - 1)];
}

/*
 * A switch port: the link from its host ends here (frames arriving), and
 * its output queue and serializer feed the link to the host.
 */
struct fabric_port {
	struct uet_fabric *fab;	     /* the owner */
	uint16_t id;		     /* port number = host index */
	struct fabric_fifo arriving; /* delivered, not yet fully received;
				      * in arrival order */
	struct uet_event arrival_ev; /* at the head's arrival time */
	struct fabric_fifo queue;    /* output queue; its head is on the
				      * wire while tx_end_ev is pending */
	struct uet_event tx_end_ev;  /* end of the head's serialization */
	struct uet_fabric_port_stats stats;
};

int fabric_port_init(struct fabric_port *p, struct uet_fabric *fab,
		     uint16_t id);
void fabric_port_fini(struct fabric_port *p);
/* Hold a frame until its arrival time; the frame is freed on error. */
int fabric_port_arrive(struct fabric_port *p, struct rte_mbuf *m,
		       uet_time_t arrival_ps);
/* Put a received frame in the output queue, or drop it if it does not fit;
 * the frame is freed on error. */
int fabric_port_enqueue(struct fabric_port *p, struct rte_mbuf *m,
			uint32_t wire_bytes);

/* One route: a destination address and the port that leads to it. */
struct fabric_route {
	uint32_t ipv4; /* host order */
	uint16_t port;
};

/* Destination IPv4 to port, sorted by address for a binary search. */
struct fabric_routes {
	struct fabric_route *routes;
	uint32_t count;
};

int fabric_routes_init(struct fabric_routes *r, uint32_t hosts);
void fabric_routes_fini(struct fabric_routes *r);
/* The port for an address, or -ENOENT. */
int fabric_routes_lookup(const struct fabric_routes *r, uint32_t ipv4);

struct uet_fabric {
	struct uet_component comp; /* first: a component pointer is a fabric */
	struct uet_fabric_conf conf;
	struct fabric_routes routes;
	struct uet_rng rng; /* the random drop's, seeded by conf.seed */
	uet_fabric_capture_fn capture;
	void *capture_ctx;
	int error; /* the first failure in an event or of out(), sticky */
	struct fabric_port *ports; /* conf.hosts ports */
};

/* The switch's work on a frame fully received on port in at now. */
void fabric_receive(struct uet_fabric *fab, struct fabric_port *in,
		    struct rte_mbuf *m);

#endif /* FABRIC_PRIVATE_H */
