/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Chakra execution traces into a workload program. A rank's file is a
 * GlobalMetadata then Nodes, each preceded by its length as a base-128
 * varint (at most 5 bytes); the whole file may be gzip-compressed (zlib
 * reads both). Messages are decoded by protobuf-c from chakra_et.proto.
 *
 * Node types: COMP (and MEM_LOAD/MEM_STORE) take duration_micros of virtual
 * time; METADATA is a NOP; COMM_SEND and COMM_RECV become SEND and RECV
 * (peer from comm_dst / comm_src, tag from comm_tag, default 0); COMM_COLL
 * becomes a NOP waiting for the collective's messages (wl_coll.c). Both
 * data_deps and ctrl_deps are dependencies.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "chakra_et.pb-c.h"
#include "uet_infile.h"
#include "wl_private.h"

#define PS_PER_US UINT64_C(1000000)

/* Longest length prefix: a varint32. */
#define WL_VARINT_MAX_BYTES 5u

typedef ChakraProtoMsg__AttributeProto wl_attr;

/* What one trace node says, before it becomes graph nodes. */
struct wl_tnode {
	uint64_t id;
	int type;
	uint64_t duration_micros;
	bool has_src, has_dst, has_tag, has_size, has_type;
	int64_t src, dst, tag, size, comm_type;
	char name[UET_WL_NAME_LEN];
};

/*
 * Read a whole trace, decompressing a gzip one: a regular file
 * (uet_infile.h), which inflates to at most WL_TRACE_MAX_BYTES and to at
 * most WL_GZIP_MAX_RATIO times its own size, checked as it inflates (a
 * 1 MB file of zeros stops at 128 MB, not at its gigabyte).
 */
static int read_file(const char *path, uint8_t **bufp, size_t *lenp,
		     struct uet_wl_error *err)
{
	struct uet_infile_info info;
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	uint64_t limit;
	char why[160];
	gzFile f;
	int fd, n = 0, zerr, rc;

	*bufp = NULL;
	rc = uet_infile_open(path, WL_TRACE_MAX_BYTES, &fd, &info);
	if (rc < 0) {
		uet_infile_describe(rc, &info, WL_TRACE_MAX_BYTES, why,
				    sizeof(why));
		(void)wl_fail(err,
			      "%s: %s: give the prefix of Chakra trace files, "
			      "one regular file per rank",
			      path, why);
		return rc;
	}
	limit = info.size_bytes * WL_GZIP_MAX_RATIO;
	if (limit < info.size_bytes || limit > WL_TRACE_MAX_BYTES)
		limit = WL_TRACE_MAX_BYTES;
	f = gzdopen(fd, "rb");
	if (f == NULL) {
		close(fd);
		return -ENOMEM;
	}
	while (len <= limit) {
		if (cap - len < 65536) {
			/* One byte past the limit tells a file that passes
			 * it from one that ends there. */
			size_t ncap = cap ? cap * 2 : 131072;
			void *p;

			if (ncap > limit + 1)
				ncap = (size_t)limit + 1;
			if (ncap <= len) {
				len = (size_t)limit + 1;
				break;
			}
			p = realloc(buf, ncap);
			if (p == NULL) {
				gzclose(f);
				free(buf);
				return -ENOMEM;
			}
			buf = p;
			cap = ncap;
		}
		n = gzread(f, buf + len, (unsigned int)(cap - len));
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (len > limit) {
		gzclose(f);
		free(buf);
		if (limit < WL_TRACE_MAX_BYTES)
			return wl_fail(err,
				       "%s: inflates past %" PRIu64
				       " bytes, %u times its %" PRIu64
				       " bytes: not a trace (a gzip trace "
				       "inflates to at most %u times its "
				       "size)",
				       path, limit, WL_GZIP_MAX_RATIO,
				       info.size_bytes, WL_GZIP_MAX_RATIO);
		return wl_fail(err,
			       "%s: larger than %" PRIu64 " bytes (%" PRIu64
			       " MiB) once inflated, the most a trace may be",
			       path, limit, limit >> 20);
	}
	if (n < 0 ||
	    (gzerror(f, &zerr), zerr != Z_OK && zerr != Z_STREAM_END)) {
		rc = wl_fail(err, "%s: truncated or corrupt gzip data (%s)",
			     path, gzerror(f, &zerr));
		gzclose(f);
		free(buf);
		return rc;
	}
	gzclose(f);
	*bufp = buf;
	*lenp = len;
	return 0;
}

/* One length prefix at *off; -EINVAL when truncated. */
static int read_frame(const uint8_t *buf, size_t len, size_t *off,
		      size_t *msg_len)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < WL_VARINT_MAX_BYTES; i++) {
		if (*off + i >= len)
			return -EINVAL;
		v |= (uint64_t)(buf[*off + i] & 0x7fu) << (7 * i);
		if (!(buf[*off + i] & 0x80u))
			break;
	}
	if (i == WL_VARINT_MAX_BYTES || v > UINT32_MAX)
		return -ERANGE;
	*off += i + 1;
	*msg_len = (size_t)v;
	return 0;
}

/* An integer attribute's value, whatever integer oneof carries it. */
static int attr_int(const wl_attr *a, int64_t *v)
{
	switch (a->value_case) {
	case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT32_VAL:
		*v = a->int32_val;
		return 0;
	case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT64_VAL:
		*v = a->int64_val;
		return 0;
	case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_UINT32_VAL:
		*v = a->uint32_val;
		return 0;
	case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_UINT64_VAL:
		if (a->uint64_val > INT64_MAX)
			return -ERANGE;
		*v = (int64_t)a->uint64_val;
		return 0;
	case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_SINT32_VAL:
		*v = a->sint32_val;
		return 0;
	case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_SINT64_VAL:
		*v = a->sint64_val;
		return 0;
	default:
		return -EINVAL;
	}
}

/* The attributes uetemu reads, and every attribute's value type. */
static int read_attrs(const char *path, uint64_t id, wl_attr **attrs, size_t n,
		      struct wl_tnode *t, struct uet_wl_error *err)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const wl_attr *a = attrs[i];
		const char *name = a->name ? a->name : "";
		bool *has = NULL;
		int64_t *dst = NULL, v;
		int rc;

		if (a->value_case ==
		    CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE__NOT_SET) {
			uint32_t field = a->base.n_unknown_fields > 0
						 ? a->base.unknown_fields[0].tag
						 : 0;

			return wl_fail(err,
				       "%s: node id %" PRIu64 ": attribute "
				       "'%s' has an unknown attribute type "
				       "(value field %u)",
				       path, id, name, field);
		}
		if (strcmp(name, "comm_src") == 0)
			has = &t->has_src, dst = &t->src;
		else if (strcmp(name, "comm_dst") == 0)
			has = &t->has_dst, dst = &t->dst;
		else if (strcmp(name, "comm_tag") == 0)
			has = &t->has_tag, dst = &t->tag;
		else if (strcmp(name, "comm_size") == 0)
			has = &t->has_size, dst = &t->size;
		else if (strcmp(name, "comm_type") == 0)
			has = &t->has_type, dst = &t->comm_type;
		if (dst == NULL)
			continue;
		rc = attr_int(a, &v);
		if (rc == -ERANGE)
			return wl_fail(err,
				       "%s: node id %" PRIu64 ": attribute "
				       "'%s' = %" PRIu64 ": out of range, at "
				       "most %" PRId64 "%s",
				       path, id, name, a->uint64_val, INT64_MAX,
				       dst == &t->size
					       ? " (and a message is at most "
						 "4294967295 bytes)"
					       : "");
		if (rc < 0)
			return wl_fail(err,
				       "%s: node id %" PRIu64 ": attribute "
				       "'%s' has attribute type %d, not an "
				       "integer",
				       path, id, name, (int)a->value_case);
		*has = true;
		*dst = v;
	}
	return 0;
}

/* Index of trace id in the sorted id table, or -1. */
static int64_t find_id(const uint64_t *ids, const uint32_t *order, uint32_t n,
		       uint64_t id)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ids[order[mid]] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && ids[order[lo]] == id ? (int64_t)order[lo] : -1;
}

static int cmp_order(const void *a, const void *b, void *arg)
{
	const uint64_t *ids = arg;
	uint64_t x = ids[*(const uint32_t *)a];
	uint64_t y = ids[*(const uint32_t *)b];

	return x < y ? -1 : x > y;
}

/* The decoded nodes of one file, then the program's nodes of the rank. */
struct wl_file {
	ChakraProtoMsg__Node **nodes;
	uint32_t n, cap;
	struct wl_tnode *t;
	uint64_t *ids;
	uint32_t *order;
};

static void file_free(struct wl_file *f)
{
	uint32_t i;

	for (i = 0; i < f->n; i++)
		chakra_proto_msg__node__free_unpacked(f->nodes[i], NULL);
	free(f->nodes);
	free(f->t);
	free(f->ids);
	free(f->order);
}

static int decode_file(const char *path, const uint8_t *buf, size_t len,
		       struct wl_file *f, struct uet_wl_error *err)
{
	ChakraProtoMsg__GlobalMetadata *gm;
	size_t off = 0, mlen;
	int rc;

	rc = read_frame(buf, len, &off, &mlen);
	if (rc < 0 || mlen > len - off)
		return wl_fail(err,
			       "%s: truncated: the GlobalMetadata at byte 0 "
			       "%s",
			       path,
			       rc < 0 ? "has no complete length"
				      : "is longer than the file");
	gm = chakra_proto_msg__global_metadata__unpack(NULL, mlen, buf + off);
	if (gm == NULL)
		return wl_fail(err,
			       "%s: the GlobalMetadata is not a valid "
			       "protobuf message",
			       path);
	chakra_proto_msg__global_metadata__free_unpacked(gm, NULL);
	off += mlen;
	while (off < len) {
		size_t at = off;
		ChakraProtoMsg__Node *nd;

		rc = read_frame(buf, len, &off, &mlen);
		if (rc < 0 || mlen > len - off)
			return wl_fail(err,
				       "%s: truncated: node %u at byte %zu %s "
				       "(file of %zu bytes)",
				       path, f->n, at,
				       rc < 0 ? "has no complete length"
					      : "is longer than the file",
				       len);
		nd = chakra_proto_msg__node__unpack(NULL, mlen, buf + off);
		if (nd == NULL)
			return wl_fail(err,
				       "%s: node %u at byte %zu is not a "
				       "valid protobuf message",
				       path, f->n, at);
		if (f->n == f->cap) {
			uint32_t cap = f->cap ? f->cap * 2 : 64;
			void *p = realloc(f->nodes, cap * sizeof(*f->nodes));

			if (p == NULL) {
				chakra_proto_msg__node__free_unpacked(nd, NULL);
				return -ENOMEM;
			}
			f->nodes = p;
			f->cap = cap;
		}
		f->nodes[f->n++] = nd;
		off += mlen;
	}
	return 0;
}

/* Each trace node's fields; trace ids must be unique. */
static int describe_nodes(const char *path, uint32_t rank, uint32_t ranks,
			  struct wl_file *f, struct uet_wl_error *err)
{
	uint32_t i;
	int rc;

	f->t = calloc(f->n + 1u, sizeof(*f->t));
	f->ids = calloc(f->n + 1u, sizeof(*f->ids));
	f->order = calloc(f->n + 1u, sizeof(*f->order));
	if (f->t == NULL || f->ids == NULL || f->order == NULL)
		return -ENOMEM;
	for (i = 0; i < f->n; i++) {
		const ChakraProtoMsg__Node *nd = f->nodes[i];
		struct wl_tnode *t = &f->t[i];

		t->id = nd->id;
		t->type = (int)nd->type;
		t->duration_micros = nd->duration_micros;
		snprintf(t->name, sizeof(t->name), "%s",
			 nd->name ? nd->name : "");
		if (t->type < CHAKRA_PROTO_MSG__NODE_TYPE__METADATA_NODE ||
		    t->type > CHAKRA_PROTO_MSG__NODE_TYPE__COMM_COLL_NODE)
			return wl_fail(err,
				       "%s: node id %" PRIu64 " ('%s'): "
				       "unknown node type %d",
				       path, t->id, t->name, t->type);
		rc = read_attrs(path, t->id, nd->attr, nd->n_attr, t, err);
		if (rc < 0)
			return rc;
		if (t->type == CHAKRA_PROTO_MSG__NODE_TYPE__COMM_SEND_NODE) {
			if (!t->has_dst || t->dst < 0 ||
			    t->dst >= (int64_t)ranks || t->dst == rank)
				return wl_fail(err,
					       "%s: node id %" PRIu64 ": "
					       "COMM_SEND without a valid "
					       "comm_dst (%u ranks)",
					       path, t->id, ranks);
		}
		if (t->type == CHAKRA_PROTO_MSG__NODE_TYPE__COMM_RECV_NODE) {
			if (!t->has_src || t->src < 0 ||
			    t->src >= (int64_t)ranks || t->src == rank)
				return wl_fail(err,
					       "%s: node id %" PRIu64 ": "
					       "COMM_RECV without a valid "
					       "comm_src (%u ranks)",
					       path, t->id, ranks);
		}
		if ((t->type == CHAKRA_PROTO_MSG__NODE_TYPE__COMM_SEND_NODE ||
		     t->type == CHAKRA_PROTO_MSG__NODE_TYPE__COMM_COLL_NODE) &&
		    !t->has_size)
			return wl_fail(err,
				       "%s: node id %" PRIu64 ": comm_size "
				       "missing: a COMM_SEND or COMM_COLL "
				       "node needs its size in bytes",
				       path, t->id);
		if ((t->type == CHAKRA_PROTO_MSG__NODE_TYPE__COMM_SEND_NODE ||
		     t->type == CHAKRA_PROTO_MSG__NODE_TYPE__COMM_COLL_NODE) &&
		    (t->size < 0 || (uint64_t)t->size > UINT32_MAX))
			return wl_fail(err,
				       "%s: node id %" PRIu64 ": comm_size "
				       "= %" PRId64 ": out of range, a "
				       "message is 0 to 4294967295 bytes",
				       path, t->id, t->size);
		if (t->type == CHAKRA_PROTO_MSG__NODE_TYPE__COMM_COLL_NODE &&
		    (!t->has_type || t->comm_type < 0 ||
		     t->comm_type >= UET_WL_COLL_TYPES))
			return wl_fail(err,
				       "%s: node id %" PRIu64 ": COMM_COLL "
				       "with a missing or unknown comm_type",
				       path, t->id);
		if (t->duration_micros > UINT64_MAX / PS_PER_US / 2)
			return wl_fail(err,
				       "%s: node id %" PRIu64 ": duration "
				       "out of range",
				       path, t->id);
		f->ids[i] = t->id;
		f->order[i] = i;
	}
	qsort_r(f->order, f->n, sizeof(*f->order), cmp_order, f->ids);
	for (i = 1; i < f->n; i++)
		if (f->ids[f->order[i]] == f->ids[f->order[i - 1]])
			return wl_fail(err,
				       "%s: node id %" PRIu64 " appears twice",
				       path, f->ids[f->order[i]]);
	return 0;
}

/* The dependencies of trace node i, as node indices. */
static int node_deps(const char *path, const struct wl_file *f, uint32_t i,
		     uint32_t **depsp, uint32_t *np, struct uet_wl_error *err)
{
	const ChakraProtoMsg__Node *nd = f->nodes[i];
	size_t n = nd->n_data_deps + nd->n_ctrl_deps, k;
	uint32_t *deps = calloc(n + 1u, sizeof(*deps));

	*depsp = deps;
	*np = 0;
	if (deps == NULL)
		return -ENOMEM;
	for (k = 0; k < n; k++) {
		uint64_t id = k < nd->n_data_deps
				      ? nd->data_deps[k]
				      : nd->ctrl_deps[k - nd->n_data_deps];
		int64_t idx = find_id(f->ids, f->order, f->n, id);

		if (idx < 0)
			return wl_fail(err,
				       "%s: node id %" PRIu64 " depends on "
				       "node id %" PRIu64 ", which is not in "
				       "the trace",
				       path, nd->id, id);
		deps[(*np)++] = (uint32_t)idx;
	}
	return 0;
}

/* The rank's graph: trace node i is program node i; collectives append
 * their nodes after the trace's. */
static int build_rank(struct uet_wl_program *prog, uint32_t rank,
		      const char *path, struct wl_file *f,
		      const struct uet_wl_algos *algos,
		      struct uet_wl_error *err)
{
	uint32_t i;
	int rc = 0;

	for (i = 0; i < f->n && rc == 0; i++) {
		const struct wl_tnode *t = &f->t[i];
		struct uet_wl_node nd = {
			.trace_id = t->id,
			.op = UET_WL_NOP,
			.coll = -1,
		};

		switch (t->type) {
		case CHAKRA_PROTO_MSG__NODE_TYPE__COMP_NODE:
		case CHAKRA_PROTO_MSG__NODE_TYPE__MEM_LOAD_NODE:
		case CHAKRA_PROTO_MSG__NODE_TYPE__MEM_STORE_NODE:
			nd.op = UET_WL_COMP;
			nd.duration_ps = t->duration_micros * PS_PER_US;
			break;
		case CHAKRA_PROTO_MSG__NODE_TYPE__COMM_SEND_NODE:
			nd.op = UET_WL_SEND;
			nd.peer = (uint32_t)t->dst;
			nd.bytes = (uint64_t)t->size;
			nd.tag = (uint32_t)t->tag;
			break;
		case CHAKRA_PROTO_MSG__NODE_TYPE__COMM_RECV_NODE:
			nd.op = UET_WL_RECV;
			nd.peer = (uint32_t)t->src;
			nd.tag = (uint32_t)t->tag;
			break;
		default:
			break;
		}
		rc = node_deps(path, f, i, &nd.deps, &nd.n_deps, err);
		if (rc < 0) {
			free(nd.deps);
			return rc;
		}
		if (t->type != CHAKRA_PROTO_MSG__NODE_TYPE__COMM_COLL_NODE) {
			rc = uet_wl_add_node(prog, rank, &nd, NULL);
		} else {
			/* Placeholder; its deps become the collective's end
			 * once that exists (below). */
			uint32_t *cdeps = nd.deps, n_cdeps = nd.n_deps;

			nd.deps = NULL;
			nd.n_deps = 0;
			nd.coll = (int32_t)prog->ranks[rank].n_colls;
			rc = uet_wl_add_node(prog, rank, &nd, NULL);
			nd.deps = cdeps;
			nd.n_deps = n_cdeps;
		}
		free(nd.deps);
	}
	/* Collectives, in trace order, so the k-th of every rank match. */
	for (i = 0; i < f->n && rc == 0; i++) {
		const struct wl_tnode *t = &f->t[i];
		struct uet_wl_coll coll = {0};
		uint32_t *deps, n_deps;
		struct uet_wl_node *slot;

		if (t->type != CHAKRA_PROTO_MSG__NODE_TYPE__COMM_COLL_NODE)
			continue;
		snprintf(coll.name, sizeof(coll.name), "%s", t->name);
		coll.trace_id = t->id;
		coll.comm_type = (uint32_t)t->comm_type;
		coll.bytes = (uint64_t)t->size;
		rc = node_deps(path, f, i, &deps, &n_deps, err);
		if (rc == 0)
			rc = uet_wl_add_coll(
				prog, rank, &coll,
				t->has_src ? (uint32_t)t->src : 0,
				algos ? algos->by_type[coll.comm_type]
				      : UET_WL_ALGO_DEFAULT,
				algos ? algos->reduce_chunk_ps : 0, deps,
				n_deps, err);
		free(deps);
		if (rc < 0)
			break;
		slot = &prog->ranks[rank].nodes[i];
		slot->deps = malloc(sizeof(*slot->deps));
		if (slot->deps == NULL)
			return -ENOMEM;
		slot->deps[0] = coll.end;
		slot->n_deps = 1;
	}
	return rc;
}

static int load_rank(struct uet_wl_program *prog, const char *prefix,
		     uint32_t rank, const struct uet_wl_algos *algos,
		     struct uet_wl_error *err)
{
	char path[4096];
	struct wl_file f = {0};
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc;

	snprintf(path, sizeof(path), "%s.%u.et", prefix, rank);
	rc = read_file(path, &buf, &len, err);
	if (rc == 0)
		rc = decode_file(path, buf, len, &f, err);
	free(buf);
	if (rc == 0)
		rc = describe_nodes(path, rank, prog->n_ranks, &f, err);
	if (rc == 0)
		rc = build_rank(prog, rank, path, &f, algos, err);
	file_free(&f);
	return rc;
}

/* Whether rank's file is there (what it is, read_file() checks). */
static bool file_exists(const char *prefix, uint32_t rank)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s.%u.et", prefix, rank);
	return lstat(path, &st) == 0;
}

int uet_wl_chakra_load(struct uet_wl_program *prog, const char *prefix,
		       uint32_t hosts, const struct uet_wl_algos *algos,
		       struct uet_wl_error *err)
{
	uint32_t files = 0, r;
	int rc;

	memset(prog, 0, sizeof(*prog));
	err->message[0] = '\0';
	while (files <= hosts && file_exists(prefix, files))
		files++;
	if (files == 0) {
		snprintf(err->message, sizeof(err->message),
			 "no Chakra trace %.200s.0.et", prefix);
		return -ENOENT;
	}
	if (files != hosts)
		return wl_fail(err,
			       "%s.<rank>.et: %s%u rank files, but the "
			       "scenario has %u hosts",
			       prefix, files > hosts ? "more than " : "",
			       files > hosts ? hosts : files, hosts);
	rc = uet_wl_program_init(prog, hosts);
	for (r = 0; r < hosts && rc == 0; r++)
		rc = load_rank(prog, prefix, r, algos, err);
	if (rc == 0)
		rc = uet_wl_program_check(prog, err);
	if (rc == -ENOMEM && err->message[0] == '\0')
		snprintf(err->message, sizeof(err->message),
			 "out of memory loading %.200s", prefix);
	return rc;
}
