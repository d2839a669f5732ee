/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A component's queue of timestamped events in virtual time: ordered by
 * time, ties by insertion order, so that every run is deterministic.
 */
#ifndef UET_EVENT_H
#define UET_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_time.h"

#ifdef __cplusplus
extern "C" {
#endif

struct uet_evq;
struct uet_event;

/**
 * An event handler. The event is no longer pending when it runs, so the
 * handler may schedule it again (a periodic timer) or let its owner free it.
 *
 * @param q
 *   The queue that ran it; uet_evq_now(q) is the event's time.
 * @param ev
 *   The event.
 * @param arg
 *   The argument given to uet_event_init().
 */
typedef void (*uet_event_fn)(struct uet_evq *q, struct uet_event *ev,
			     void *arg);

/**
 * An event, embedded in its owner's object (a PDC, a port...): the queue
 * never allocates or frees one. Initialise with uet_event_init().
 */
struct uet_event {
	uet_time_t time_ps; /**< ps, virtual time it runs at, while pending */
	uint64_t seq;	    /**< the queue's insertion count when scheduled */
	uet_event_fn fn;    /**< the handler */
	void *arg;	    /**< the handler's argument */
	struct uet_evq *q;  /**< the queue that holds it, NULL if not pending */
	uint32_t heap_index; /**< its slot in q's heap, while pending (not
			      * kept for a fixed event) */
	bool fixed; /**< uet_event_init_fixed(): never moved nor cancelled
		     * while pending */
};

/**
 * One heap slot: the ordering key beside the event, for cache locality.
 * Read the event with uet_evq_slot_event(): the pointer's lowest bit marks
 * a fixed event.
 */
struct uet_evq_slot {
	uet_time_t time_ps;   /**< ps, copy of ev->time_ps */
	uint64_t seq;	      /**< copy of ev->seq */
	struct uet_event *ev; /**< the event, tagged (above) */
};

/** The event of a heap slot. */
static inline struct uet_event *uet_evq_slot_event(const struct uet_evq_slot *s)
{
	return (struct uet_event *)((uintptr_t)s->ev & ~(uintptr_t)1);
}

/**
 * A queue: a 4-ary min-heap on (time, seq). Schedule, cancel and run cost
 * O(log n); the heap array grows by doubling, so scheduling allocates only
 * when the queue reaches a new high-water mark (or never, after
 * uet_evq_reserve()). Not thread-safe: one queue belongs to one component,
 * run by one thread at a time.
 */
struct uet_evq {
	struct uet_evq_slot *heap; /**< slots 0..len-1, a 4-ary min-heap */
	uint32_t len;		   /**< events pending */
	uint32_t cap;		   /**< slots allocated */
	uet_time_t now_ps;	   /**< ps, virtual time of the queue */
	uint64_t next_seq;	   /**< insertion count, the tie-breaker */
	uint64_t n_scheduled;	   /**< counter: successful schedules */
	uint64_t n_cancelled;	   /**< counter: events cancelled */
	uint64_t n_run;		   /**< counter: events run */
	uint32_t fixed_index;	   /**< where a fixed event's slot index
				    * goes: nowhere read */
};

/**
 * Initialise an empty queue at time 0.
 *
 * @param q
 *   The queue.
 * @return
 *   0, or -EINVAL if q is NULL.
 */
int uet_evq_init(struct uet_evq *q);

/**
 * Free the queue's memory. Events still pending become not pending; none
 * of them runs.
 *
 * @param q
 *   The queue.
 */
void uet_evq_fini(struct uet_evq *q);

/**
 * Allocate room for n pending events now, so that scheduling up to n
 * never allocates.
 *
 * @param q
 *   The queue.
 * @param n
 *   Number of events.
 * @return
 *   0, or -ENOMEM, or -EINVAL if n exceeds the queue's limit (2^32 - 2).
 */
int uet_evq_reserve(struct uet_evq *q, uint64_t n);

/**
 * Initialise an event, not pending.
 *
 * @param ev
 *   The event.
 * @param fn
 *   Handler to call when it runs.
 * @param arg
 *   Argument for the handler.
 */
void uet_event_init(struct uet_event *ev, uet_event_fn fn, void *arg);

/**
 * Initialise a fixed event, not pending: once scheduled it stays where it
 * is until it runs (never moved, never cancelled). The queue then keeps no
 * heap_index in it, so a pop or an insertion that moves its slot does not
 * write to its line, which on a large fabric is cold: the write was 13% of
 * an 8,192-host run's samples (a port's arrival event is fixed;
 * docs/performance.md).
 *
 * @param ev
 *   The event.
 * @param fn
 *   Handler to call when it runs.
 * @param arg
 *   Argument for the handler.
 */
void uet_event_init_fixed(struct uet_event *ev, uet_event_fn fn, void *arg);

/**
 * Whether the event is waiting in a queue.
 *
 * @param ev
 *   The event.
 * @return
 *   true if scheduled and neither run nor cancelled yet.
 */
static inline bool uet_event_pending(const struct uet_event *ev)
{
	return ev->q != NULL;
}

/**
 * Schedule an event at an absolute virtual time. If it is already pending
 * in q it moves, and is ordered as if scheduled now (it gets a new
 * insertion number).
 *
 * @param q
 *   The queue.
 * @param ev
 *   An initialised event.
 * @param time_ps
 *   ps, virtual time to run it; at least uet_evq_now(q) (the current time
 *   is fine: it runs after the events already due then).
 * @return
 *   0; -EINVAL if time_ps is in the past or is UET_TIME_NEVER, or ev has no
 *   handler; -EBUSY if ev is pending in another queue; -EPERM if ev is a
 *   fixed event pending in q; -ENOMEM.
 */
int uet_evq_schedule(struct uet_evq *q, struct uet_event *ev,
		     uet_time_t time_ps);

/**
 * Take an insertion number now, for an event that will be scheduled
 * later with uet_evq_schedule_seq(). An owner that keeps many timers in
 * its own ordered list (a train of retransmission timers, one event for
 * the head) takes each timer's number when the timer is armed, so that
 * the queue orders it among ties exactly as if each timer had been an
 * event scheduled at that moment. Counts as a schedule.
 *
 * @param q
 *   The queue.
 * @return
 *   The number, for uet_evq_schedule_seq().
 */
static inline uint64_t uet_evq_take_seq(struct uet_evq *q)
{
	q->n_scheduled++;
	return q->next_seq++;
}

/**
 * Schedule a not pending event with an insertion number taken earlier
 * by uet_evq_take_seq(). Not counted again as a schedule.
 *
 * @param q
 *   The queue.
 * @param ev
 *   An initialised event, not pending.
 * @param time_ps
 *   ps, virtual time to run it; at least uet_evq_now(q).
 * @param seq
 *   A number uet_evq_take_seq(q) returned.
 * @return
 *   0; -EINVAL if time_ps is in the past or is UET_TIME_NEVER, ev has no
 *   handler, or seq was not taken yet; -EBUSY if ev is pending; -ENOMEM.
 */
int uet_evq_schedule_seq(struct uet_evq *q, struct uet_event *ev,
			 uet_time_t time_ps, uint64_t seq);

/**
 * Cancel a pending event. Its owner may free it afterwards.
 *
 * @param q
 *   The queue.
 * @param ev
 *   The event.
 * @return
 *   0; -ENOENT if ev is not pending (already run or cancelled: callers that
 *   do not care may ignore it); -EINVAL if ev is pending in another queue;
 *   -EPERM if ev is a fixed event.
 */
int uet_evq_cancel(struct uet_evq *q, struct uet_event *ev);

/**
 * Time of the earliest pending event.
 *
 * @param q
 *   The queue.
 * @return
 *   ps, or UET_TIME_NEVER if nothing is pending.
 */
static inline uet_time_t uet_evq_next_time(const struct uet_evq *q)
{
	return q->len == 0 ? UET_TIME_NEVER : q->heap[0].time_ps;
}

/**
 * The queue's current virtual time.
 *
 * @param q
 *   The queue.
 * @return
 *   ps: the time of the event running or last run, or the end of the last
 *   uet_evq_run_until() window.
 */
static inline uet_time_t uet_evq_now(const struct uet_evq *q)
{
	return q->now_ps;
}

/**
 * Number of pending events.
 *
 * @param q
 *   The queue.
 * @return
 *   Events pending.
 */
static inline uint32_t uet_evq_len(const struct uet_evq *q)
{
	return q->len;
}

/**
 * Run the earliest pending event, if any, advancing now to its time.
 *
 * @param q
 *   The queue.
 * @return
 *   1 if an event ran, 0 if the queue was empty.
 */
int uet_evq_run_one(struct uet_evq *q);

/**
 * Run, in order, every event whose time is before t_end, including those
 * that handlers schedule meanwhile. An event at exactly t_end does not run.
 * Then now becomes t_end (the window is over), unless t_end is
 * UET_TIME_NEVER, which runs until the queue is empty and leaves now at
 * the last event's time.
 *
 * @param q
 *   The queue.
 * @param t_end
 *   ps, end of the window (exclusive).
 * @return
 *   Number of events run, or -EINVAL if t_end is before now.
 */
int64_t uet_evq_run_until(struct uet_evq *q, uet_time_t t_end);

#ifdef __cplusplus
}
#endif

#endif /* UET_EVENT_H */
