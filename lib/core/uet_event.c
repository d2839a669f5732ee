/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The event queue: a 4-ary min-heap on (time, insertion number). Four
 * children a node (slots 4i + 1 to 4i + 4, 96 bytes, two or three cache
 * lines) halve the levels of a binary heap: a fabric part of a 65,536-host
 * fat tree holds about 8,000 events, 13 levels binary and 7 here, and the
 * deep levels are not in the cache when a pop walks them.
 */
#include <errno.h>
#include <stdlib.h>

#include "uet_event.h"

/* heap_index is 32 bits; keep one value spare. */
#define EVQ_MAX_LEN (UINT32_MAX - 1)
#define EVQ_MIN_CAP 64
/* Children of a node: earliest_child()'s tournament takes four. */
#define EVQ_ARITY 4u
_Static_assert(EVQ_ARITY == 4u, "earliest_child() compares four children");

static inline uint32_t heap_parent(uint32_t i)
{
	return (i - 1u) / EVQ_ARITY;
}

static inline uint64_t heap_first_child(uint32_t i)
{
	return (uint64_t)EVQ_ARITY * i + 1u;
}

static inline bool slot_before(const struct uet_evq_slot *a,
			       const struct uet_evq_slot *b)
{
	return a->time_ps < b->time_ps ||
	       (a->time_ps == b->time_ps && a->seq < b->seq);
}

/* The bit of a slot's event pointer that marks a fixed event (events
 * are 8-byte aligned). */
#define EVQ_FIXED_TAG ((uintptr_t)1)

/* Where the slot index of the (tagged) event goes: its heap_index, or for
 * a fixed event the queue's spare word, chosen without a branch (fixed
 * and not are mixed at random in a fabric part's heap) and without
 * touching the fixed event's line. */
static inline uint32_t *index_home(struct uet_evq *q, struct uet_event *tagged)
{
	const uintptr_t e = (uintptr_t)tagged;
	struct uet_event *ev = (struct uet_event *)(e & ~EVQ_FIXED_TAG);

	return (e & EVQ_FIXED_TAG) ? &q->fixed_index : &ev->heap_index;
}

/* ev as its slots hold it. */
static inline struct uet_event *tag_of(struct uet_event *ev)
{
	return (struct uet_event *)((uintptr_t)ev |
				    (ev->fixed ? EVQ_FIXED_TAG : 0));
}

static inline void slot_put(struct uet_evq *q, uint32_t i,
			    const struct uet_evq_slot *s)
{
	q->heap[i] = *s;
	*index_home(q, s->ev) = i;
}

/*
 * Put the slot (time_ps, seq, ev; ev tagged) at hole i, or above it: move it
 * towards the root until its parent is before it. The slot comes as three
 * scalars in registers, neither read back from the array nor passed as a
 * struct: a slot just stored with a few narrower writes and loaded again cannot
 * be forwarded from the store buffer, and the load waits for every store before
 * it, among them heap_insert's stores into the event, whose line is often cold
 * on a large run (read back from the array this was 16% of the 1,024-host run;
 * passed as a struct on the stack, 10%).
 */
static inline void sift_up_from(struct uet_evq *q, uint32_t i,
				uet_time_t time_ps, uint64_t seq,
				struct uet_event *ev)
{
	while (i > 0) {
		uint32_t parent = heap_parent(i);
		const struct uet_evq_slot *p = &q->heap[parent];

		if (!(time_ps < p->time_ps ||
		      (time_ps == p->time_ps && seq < p->seq)))
			break;
		slot_put(q, i, p);
		i = parent;
	}
	q->heap[i].time_ps = time_ps;
	q->heap[i].seq = seq;
	q->heap[i].ev = ev;
	*index_home(q, ev) = i;
}

/* Move the slot at i towards the root until its parent is before it. */
static void sift_up(struct uet_evq *q, uint32_t i)
{
	const struct uet_evq_slot s = q->heap[i];

	sift_up_from(q, i, s.time_ps, s.seq, s.ev);
}

typedef unsigned __int128 evq_key_t;

/* The slot's key (time, insertion number) as one number: compared in two
 * instructions, and selected without a branch. */
static inline evq_key_t slot_key(const struct uet_evq_slot *s)
{
	return ((evq_key_t)s->time_ps << 64) | s->seq;
}

/*
 * The earliest of the children of i, of a heap of n slots; i must have
 * one (heap_first_child(i) < n). Four children are a tournament of keys
 * with no branch: whichever child is earliest is a coin toss the CPU
 * cannot learn, and with a branch per comparison a pop mispredicted
 * about six times at 64 events and twelve at 8,192, against one and two
 * without (cachegrind's branch model, a hold model of the fabric's
 * delays).
 */
static inline uint64_t earliest_child(const struct uet_evq *q, uint32_t i,
				      uint32_t n)
{
	const uint64_t first = heap_first_child(i);
	const struct uet_evq_slot *h = &q->heap[first];
	uint64_t best = first, c;

	if (first + EVQ_ARITY <= n) {
		const evq_key_t k0 = slot_key(&h[0]), k1 = slot_key(&h[1]);
		const evq_key_t k2 = slot_key(&h[2]), k3 = slot_key(&h[3]);
		const uint64_t a = first + (k1 < k0), b = first + 2 + (k3 < k2);
		const evq_key_t ka = k1 < k0 ? k1 : k0, kb = k3 < k2 ? k3 : k2;

		return a + ((b - a) & (0 - (uint64_t)(kb < ka)));
	}
	for (c = first + 1; c < n; c++)
		if (slot_before(&q->heap[c], &q->heap[best]))
			best = c;
	return best;
}

/* Move the slot at i towards the leaves until every child is after it. */
static void sift_down(struct uet_evq *q, uint32_t i)
{
	struct uet_evq_slot s = q->heap[i];

	while (heap_first_child(i) < q->len) {
		uint64_t child = earliest_child(q, i, q->len);

		if (!slot_before(&q->heap[child], &s))
			break;
		slot_put(q, i, &q->heap[child]);
		i = (uint32_t)child;
	}
	slot_put(q, i, &s);
}

/*
 * Take the earliest slot out: walk the hole at the root down to a leaf,
 * the earliest child moving up at each level, then put the last slot in
 * the hole and let it rise. The last slot is among the latest events, so
 * it rarely rises far: fewer comparisons than a plain sift down, whose
 * outcome at each level the CPU cannot guess.
 */
static void heap_pop_root(struct uet_evq *q)
{
	struct uet_event *ev = uet_evq_slot_event(&q->heap[0]);
	const uint32_t n = --q->len;
	uint32_t i = 0;

	if (n > 0) {
		const struct uet_evq_slot last = q->heap[n];

		while (heap_first_child(i) < n) {
			uint64_t child = earliest_child(q, i, n);

			slot_put(q, i, &q->heap[child]);
			i = (uint32_t)child;
		}
		sift_up_from(q, i, last.time_ps, last.seq, last.ev);
	}
	ev->q = NULL;
}

/* Take the slot at i out of the heap; the event becomes not pending. */
static void heap_remove(struct uet_evq *q, uint32_t i)
{
	struct uet_event *ev = uet_evq_slot_event(&q->heap[i]);

	q->len--;
	if (i != q->len) {
		slot_put(q, i, &q->heap[q->len]);
		/* The moved slot may belong above or below i. */
		if (i > 0 && slot_before(&q->heap[i], &q->heap[heap_parent(i)]))
			sift_up(q, i);
		else
			sift_down(q, i);
	}
	ev->q = NULL;
}

int uet_evq_init(struct uet_evq *q)
{
	if (q == NULL)
		return -EINVAL;
	*q = (struct uet_evq){0};
	return 0;
}

void uet_evq_fini(struct uet_evq *q)
{
	uint32_t i;

	if (q == NULL)
		return;
	for (i = 0; i < q->len; i++)
		uet_evq_slot_event(&q->heap[i])->q = NULL;
	free(q->heap);
	*q = (struct uet_evq){0};
}

int uet_evq_reserve(struct uet_evq *q, uint64_t n)
{
	struct uet_evq_slot *heap;

	if (n > EVQ_MAX_LEN)
		return -EINVAL;
	if (n <= q->cap)
		return 0;
	heap = realloc(q->heap, n * sizeof(*heap));
	if (heap == NULL)
		return -ENOMEM;
	q->heap = heap;
	q->cap = (uint32_t)n;
	return 0;
}

/* Make room for one more slot, doubling the array: amortised O(1). */
static int evq_grow(struct uet_evq *q)
{
	uint64_t cap =
		q->cap < EVQ_MIN_CAP ? EVQ_MIN_CAP : 2 * (uint64_t)q->cap;

	if (q->len >= EVQ_MAX_LEN)
		return -ENOMEM;
	if (cap > EVQ_MAX_LEN)
		cap = EVQ_MAX_LEN;
	return uet_evq_reserve(q, cap);
}

void uet_event_init(struct uet_event *ev, uet_event_fn fn, void *arg)
{
	*ev = (struct uet_event){.fn = fn, .arg = arg};
}

void uet_event_init_fixed(struct uet_event *ev, uet_event_fn fn, void *arg)
{
	*ev = (struct uet_event){.fn = fn, .arg = arg, .fixed = true};
}

/* Put a not pending event in the heap with the key (time_ps, seq). */
static int heap_insert(struct uet_evq *q, struct uet_event *ev,
		       uet_time_t time_ps, uint64_t seq)
{
	if (q->len == q->cap) {
		int rc = evq_grow(q);

		if (rc < 0)
			return rc;
	}
	ev->time_ps = time_ps;
	ev->seq = seq;
	ev->q = q;
	sift_up_from(q, q->len++, time_ps, seq, tag_of(ev));
	return 0;
}

int uet_evq_schedule(struct uet_evq *q, struct uet_event *ev,
		     uet_time_t time_ps)
{
	int rc;

	if (ev->fn == NULL || time_ps < q->now_ps || time_ps == UET_TIME_NEVER)
		return -EINVAL;
	if (ev->q != NULL && ev->q != q)
		return -EBUSY;

	if (ev->q == q) {
		if (ev->fixed)
			return -EPERM;
		/* Move in place: a new key, then restore the heap order. */
		struct uet_evq_slot *s = &q->heap[ev->heap_index];
		uet_time_t old_ps = s->time_ps;

		ev->time_ps = s->time_ps = time_ps;
		ev->seq = s->seq = q->next_seq++;
		if (time_ps < old_ps)
			sift_up(q, ev->heap_index);
		else
			sift_down(q, ev->heap_index);
		q->n_scheduled++;
		return 0;
	}

	rc = heap_insert(q, ev, time_ps, q->next_seq);
	if (rc == 0) {
		q->next_seq++;
		q->n_scheduled++;
	}
	return rc;
}

int uet_evq_schedule_seq(struct uet_evq *q, struct uet_event *ev,
			 uet_time_t time_ps, uint64_t seq)
{
	if (ev->fn == NULL || time_ps < q->now_ps ||
	    time_ps == UET_TIME_NEVER || seq >= q->next_seq)
		return -EINVAL;
	if (ev->q != NULL)
		return -EBUSY;
	return heap_insert(q, ev, time_ps, seq);
}

int uet_evq_cancel(struct uet_evq *q, struct uet_event *ev)
{
	if (ev->q == NULL)
		return -ENOENT;
	if (ev->q != q)
		return -EINVAL;
	if (ev->fixed)
		return -EPERM;
	heap_remove(q, ev->heap_index);
	q->n_cancelled++;
	return 0;
}

int uet_evq_run_one(struct uet_evq *q)
{
	struct uet_event *ev;

	if (q->len == 0)
		return 0;
	ev = uet_evq_slot_event(&q->heap[0]);
	heap_pop_root(q);
	/* On a large run the next event's owner (a port, a packet) was last
	 * touched long ago: start fetching it while this event runs. */
	if (q->len > 0)
		__builtin_prefetch(uet_evq_slot_event(&q->heap[0]));
	q->now_ps = ev->time_ps;
	q->n_run++;
	ev->fn(q, ev, ev->arg);
	return 1;
}

int64_t uet_evq_run_until(struct uet_evq *q, uet_time_t t_end)
{
	int64_t n = 0;

	if (t_end < q->now_ps)
		return -EINVAL;
	while (q->len > 0 && q->heap[0].time_ps < t_end) {
		uet_evq_run_one(q);
		n++;
	}
	if (t_end != UET_TIME_NEVER)
		q->now_ps = t_end;
	return n;
}
