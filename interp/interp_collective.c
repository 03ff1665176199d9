/* Collectives and distribution ops: process groups, the rendezvous between
 * process threads, all_gather, all_reduce, all_to_all, collective_broadcast,
 * collective_permute, collective_reduce, reduce_scatter, cross-replica-sum,
 * replica_id, partition_id, send/recv, infeed/outfeed.
 *
 * Rendezvous matching.  Every process counts the rendezvous it has entered
 * per key = (set of member processes, channel id); the k-th rendezvous of
 * each member on a key meets the k-th of the others.  That is program order,
 * as real devices match collectives, so consecutive collectives, the same op
 * run many times by a while loop, and different groups of one op never mix;
 * MPMD programs whose collectives are different ops still meet.  Members
 * that arrive with different op kinds fail with a located error.
 * Contributions come back in the caller's group order, so results are
 * deterministic.
 *
 * Failure.  interp_coll_abort (called when a process fails) makes every
 * current and future wait fail with "aborted"; a wait in which every process
 * of the grid is blocked or finished (interp_coll_process_done) is a
 * deadlock and aborts the grid too. */
#include "interp/interp_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Grid state                                                                */

struct coll_key {
    struct coll_key *next;
    int n;
    int *members;     /* sorted process ids */
    int64_t channel;
    int64_t *seq;     /* per process: rendezvous entered on this key */
};

/* The processes blocked on one slot or channel.  n_waiting of them are
 * counted in n_blocked; wake() releases them all and bumps gen, so a waiter
 * can tell its release from a wakeup meant for someone else. */
struct coll_waitq {
    int n_waiting;
    uint64_t gen;
};

struct coll_slot {
    struct coll_slot *next;
    const struct coll_key *key;
    int64_t seq;
    int arrived, taken;
    struct coll_waitq q;        /* members blocked on it */
    struct interp_value **vals; /* by position in key->members */
    const struct graph_op *first_op;
    int first_process;
    bool mismatch;
    char why[BASE_DIAG_MSG_MAX / 2];
};

struct coll_msg {
    struct coll_msg *next;
    struct interp_value *v;
};

struct coll_chan {
    struct coll_chan *next;
    int64_t id;
    struct coll_msg *head, *tail;
    struct coll_waitq q;        /* receivers blocked on it */
};

struct interp_coll {
    int n;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool aborted;
    bool deadlock;
    int n_done;                 /* processes that finished their program */
    int n_blocked;              /* processes waiting for something nobody has provided yet */
    struct coll_key *keys;
    struct coll_slot *slots;
    struct coll_chan *chans;
    const struct graph_op **infeed;
    int n_infeed, next_infeed;
    struct coll_msg *outfeed, *outfeed_tail;
};

struct interp_coll *interp_coll_create(int n_processes)
{
    struct interp_coll *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->n = n_processes > 0 ? n_processes : 1;
    if (pthread_mutex_init(&c->mu, NULL) != 0) {
        free(c);
        return NULL;
    }
    if (pthread_cond_init(&c->cv, NULL) != 0) {
        pthread_mutex_destroy(&c->mu);
        free(c);
        return NULL;
    }
    return c;
}

static void msgs_free(struct coll_msg *m)
{
    while (m) {
        struct coll_msg *next = m->next;
        interp_value_release(m->v);
        free(m);
        m = next;
    }
}

void interp_coll_destroy(struct interp_coll *c)
{
    if (!c) return;
    /* slots first: they point at their keys */
    for (struct coll_slot *s = c->slots; s;) {
        struct coll_slot *next = s->next;
        for (int i = 0; s->vals && i < s->key->n; i++) interp_value_release(s->vals[i]);
        free(s->vals);
        free(s);
        s = next;
    }
    for (struct coll_key *k = c->keys; k;) {
        struct coll_key *next = k->next;
        free(k->members);
        free(k->seq);
        free(k);
        k = next;
    }
    for (struct coll_chan *ch = c->chans; ch;) {
        struct coll_chan *next = ch->next;
        msgs_free(ch->head);
        free(ch);
        ch = next;
    }
    msgs_free(c->outfeed);
    free(c->infeed);
    pthread_cond_destroy(&c->cv);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

void interp_coll_abort(struct interp_coll *c)
{
    if (!c) return;
    pthread_mutex_lock(&c->mu);
    c->aborted = true;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

void interp_coll_process_done(struct interp_coll *c)
{
    if (!c) return;
    pthread_mutex_lock(&c->mu);
    c->n_done++;
    if (c->n_blocked > 0 && c->n_blocked + c->n_done >= c->n) {
        c->deadlock = true;
        c->aborted = true;
        pthread_cond_broadcast(&c->cv);
    }
    pthread_mutex_unlock(&c->mu);
}

enum base_status interp_coll_set_infeed(struct interp_coll *c, const struct graph_op *const *funcs, int n)
{
    const struct graph_op **copy = n > 0 ? malloc((size_t)n * sizeof *copy) : NULL;
    if (n > 0 && !copy) return BASE_ERR_NOMEM;
    if (n > 0) memcpy(copy, funcs, (size_t)n * sizeof *copy);
    pthread_mutex_lock(&c->mu);
    free(c->infeed);
    c->infeed = copy;
    c->n_infeed = n > 0 ? n : 0;
    c->next_infeed = 0;
    pthread_mutex_unlock(&c->mu);
    return BASE_OK;
}

/* Waits on the grid's condition variable; with the mutex held.  The caller
 * registers in q (the slot or channel it waits for); whoever satisfies that
 * wait takes the waiters off n_blocked (wake()), so n_blocked counts only
 * processes nobody has released yet.  The condition variable is shared by
 * the whole grid: a broadcast for another slot or channel (or a spurious
 * wakeup) leaves the caller registered, so it waits on without counting
 * itself again.  Returns false when the grid was aborted (or deadlocked)
 * meanwhile. */
static bool coll_wait(struct interp_coll *c, struct coll_waitq *q)
{
    if (c->aborted) return false;
    q->n_waiting++;
    c->n_blocked++;
    if (c->n_blocked + c->n_done >= c->n) {
        /* every process of the grid waits or has finished: nobody can make
         * progress */
        c->deadlock = true;
        c->aborted = true;
        pthread_cond_broadcast(&c->cv);
        return false;
    }
    uint64_t gen = q->gen;
    while (q->gen == gen && !c->aborted) pthread_cond_wait(&c->cv, &c->mu);
    return !c->aborted;
}

/* Releases the waiters registered in q; with the mutex held. */
static void wake(struct interp_coll *c, struct coll_waitq *q)
{
    c->n_blocked -= q->n_waiting;
    q->n_waiting = 0;
    q->gen++;
    pthread_cond_broadcast(&c->cv);
}

static enum base_status fail_aborted(struct interp_proc *p, const struct graph_op *op, const struct interp_coll *c)
{
    if (c->deadlock)
        return interp_fail(p, op, BASE_ERR_RUNTIME,
                           "aborted: deadlock, every process of the grid waits (in a collective, recv or "
                           "infeed) or has finished: the processes run mismatched collectives or sends");
    return interp_fail(p, op, BASE_ERR_RUNTIME, "aborted: another process failed");
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* With the mutex held. */
static struct coll_key *key_get(struct interp_coll *c, const int *sorted, int n, int64_t channel)
{
    for (struct coll_key *k = c->keys; k; k = k->next)
        if (k->n == n && k->channel == channel && !memcmp(k->members, sorted, (size_t)n * sizeof *sorted)) return k;
    struct coll_key *k = calloc(1, sizeof *k);
    if (!k) return NULL;
    k->members = malloc((size_t)n * sizeof *k->members);
    k->seq = calloc((size_t)c->n, sizeof *k->seq);
    if (!k->members || !k->seq) {
        free(k->members);
        free(k->seq);
        free(k);
        return NULL;
    }
    memcpy(k->members, sorted, (size_t)n * sizeof *sorted);
    k->n = n;
    k->channel = channel;
    k->next = c->keys;
    c->keys = k;
    return k;
}

static int member_pos(const struct coll_key *k, int process)
{
    const int *hit = bsearch(&process, k->members, (size_t)k->n, sizeof *k->members, cmp_int);
    return hit ? (int)(hit - k->members) : -1;
}

static void slot_unlink_free(struct interp_coll *c, struct coll_slot *s)
{
    for (struct coll_slot **pp = &c->slots; *pp; pp = &(*pp)->next)
        if (*pp == s) {
            *pp = s->next;
            break;
        }
    for (int i = 0; i < s->key->n; i++) interp_value_release(s->vals[i]);
    free(s->vals);
    free(s);
}

static int64_t op_channel_id(const struct graph_op *op)
{
    const struct graph_attr *ch = graph_op_attr(op, "channel_handle");
    int64_t h = 0;
    if (ch && ch->kind == GRAPH_ATTR_DICT && graph_attr_as_i64(graph_dict_get(ch, "handle"), &h)) return h;
    return 0;
}

/* The exchange behind interp_rendezvous; channel is part of the key. */
static enum base_status exchange(struct interp_proc *p, const struct graph_op *op, int64_t channel, const int *group,
                                 int n, struct interp_value *mine, struct interp_value **all)
{
    struct interp_coll *c = interp_proc_coll(p);
    for (int i = 0; i < n; i++) all[i] = NULL;
    if (n < 1) return interp_fail(p, op, BASE_ERR_INVALID, "empty process group");
    int small[64];
    int *sorted = n <= 64 ? small : malloc((size_t)n * sizeof *sorted);
    if (!sorted) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    memcpy(sorted, group, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_int);
    enum base_status st = BASE_OK;
    bool in_group = false;
    for (int i = 0; i < n; i++) {
        if (sorted[i] < 0 || sorted[i] >= c->n) {
            st = interp_fail(p, op, BASE_ERR_INVALID, "process %d of the group is outside the %d-process grid",
                             sorted[i], c->n);
            break;
        }
        if (i > 0 && sorted[i] == sorted[i - 1]) {
            st = interp_fail(p, op, BASE_ERR_INVALID, "process %d appears twice in the process group", sorted[i]);
            break;
        }
        if (sorted[i] == p->process_id) in_group = true;
    }
    if (st == BASE_OK && !in_group)
        st = interp_fail(p, op, BASE_ERR_INTERNAL, "process %d is not in its own process group", p->process_id);
    if (st != BASE_OK) {
        if (sorted != small) free(sorted);
        return st;
    }
    if (n == 1) { /* nothing to wait for */
        if (sorted != small) free(sorted);
        if (c->aborted) return fail_aborted(p, op, c);
        all[0] = interp_value_retain(mine);
        return BASE_OK;
    }

    pthread_mutex_lock(&c->mu);
    struct coll_key *k = c->aborted ? NULL : key_get(c, sorted, n, channel);
    if (sorted != small) free(sorted);
    if (c->aborted) {
        pthread_mutex_unlock(&c->mu);
        return fail_aborted(p, op, c);
    }
    if (!k) {
        pthread_mutex_unlock(&c->mu);
        return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    int64_t seq = k->seq[p->process_id]++;
    struct coll_slot *s = c->slots;
    while (s && !(s->key == k && s->seq == seq)) s = s->next;
    if (!s) {
        s = calloc(1, sizeof *s);
        if (s) s->vals = calloc((size_t)n, sizeof *s->vals);
        if (!s || !s->vals) {
            if (s) free(s);
            pthread_mutex_unlock(&c->mu);
            return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
        }
        s->key = k;
        s->seq = seq;
        s->first_op = op;
        s->first_process = p->process_id;
        s->next = c->slots;
        c->slots = s;
    } else if (s->first_op->kind != op->kind && !s->mismatch) {
        s->mismatch = true;
        snprintf(s->why, sizeof s->why, "process %d runs %s (line %d) where process %d runs %s (line %d)",
                 p->process_id, op->name, op->loc.line, s->first_process, s->first_op->name, s->first_op->loc.line);
    }
    s->vals[member_pos(k, p->process_id)] = interp_value_retain(mine);
    s->arrived++;
    if (s->arrived == n) wake(c, &s->q);
    while (s->arrived < n && !c->aborted)
        if (!coll_wait(c, &s->q)) break;
    if (s->arrived < n) { /* aborted; the slot stays until the grid is destroyed */
        pthread_mutex_unlock(&c->mu);
        return fail_aborted(p, op, c);
    }
    if (s->mismatch) {
        char why[sizeof s->why];
        memcpy(why, s->why, sizeof why);
        if (++s->taken == n) slot_unlink_free(c, s);
        pthread_mutex_unlock(&c->mu);
        return interp_fail(p, op, BASE_ERR_RUNTIME, "collective mismatch: %s", why);
    }
    for (int i = 0; i < n; i++) all[i] = interp_value_retain(s->vals[member_pos(k, group[i])]);
    if (++s->taken == n) slot_unlink_free(c, s);
    pthread_mutex_unlock(&c->mu);
    return BASE_OK;
}

enum base_status interp_rendezvous(struct interp_proc *p, const struct graph_op *op, const int *group, int n,
                                   struct interp_value *mine, struct interp_value **all)
{
    return exchange(p, op, op_channel_id(op), group, n, mine, all);
}

/* ------------------------------------------------------------------------ */
/* Process groups                                                            */

enum group_mode { MODE_CROSS_REPLICA, MODE_CROSS_PARTITION, MODE_CROSS_REPLICA_AND_PARTITION, MODE_FLATTENED_IDS };

struct id_groups {
    int n_groups;
    int *len;   /* per group */
    int *ids;   /* n_groups * width, -1 padded */
    int width;
};

static void id_groups_free(struct id_groups *g)
{
    free(g->len);
    free(g->ids);
    memset(g, 0, sizeof *g);
}

/* Reads an i64 [G, S] attribute (ids, -1 = padding).  Absent or empty gives
 * one group of 0..all-1. */
static enum base_status read_id_groups(struct interp_proc *p, const struct graph_op *op, const char *name, int all,
                                       struct id_groups *g)
{
    memset(g, 0, sizeof *g);
    const struct graph_attr *a = graph_op_attr(op, name);
    const struct base_tensor *t = a && a->kind == GRAPH_ATTR_ELEMENTS ? a->u.elements.value : NULL;
    if (a && a->kind == GRAPH_ATTR_DICT)
        return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "%s given by mesh axes (#%s) are not supported", name,
                           a->tag ? a->tag : "?");
    if (a && (!t || !t->data) && !(t && t->count == 0))
        return interp_fail(p, op, BASE_ERR_INVALID, "%s must be a dense i64 tensor", name);
    if (!t || t->count == 0) {
        g->n_groups = 1;
        g->width = all;
        g->len = malloc(sizeof *g->len);
        g->ids = malloc((size_t)(all ? all : 1) * sizeof *g->ids);
        if (!g->len || !g->ids) {
            id_groups_free(g);
            return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
        }
        g->len[0] = all;
        for (int i = 0; i < all; i++) g->ids[i] = i;
        return BASE_OK;
    }
    if (t->rank != 2 || !base_dtype_is_int(t->dtype))
        return interp_fail(p, op, BASE_ERR_INVALID, "%s must be a 2-D integer tensor", name);
    g->n_groups = (int)t->dims[0];
    g->width = (int)t->dims[1];
    g->len = calloc((size_t)(g->n_groups ? g->n_groups : 1), sizeof *g->len);
    g->ids = malloc((size_t)(t->count ? t->count : 1) * sizeof *g->ids);
    if (!g->len || !g->ids) {
        id_groups_free(g);
        return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i < g->n_groups; i++)
        for (int j = 0; j < g->width; j++) {
            int64_t v = base_elem_get_i64(t->dtype, t->data, (size_t)i * (size_t)g->width + (size_t)j);
            if (v < -1 || v > INT32_MAX) {
                id_groups_free(g);
                return interp_fail(p, op, BASE_ERR_INVALID, "%s holds the invalid id %lld", name, (long long)v);
            }
            if (v >= 0) g->ids[i * g->width + g->len[i]++] = (int)v;
        }
    return BASE_OK;
}

static enum group_mode op_group_mode(const struct graph_op *op)
{
    bool channel = op_channel_id(op) > 0;
    switch (op->kind) {
    case GRAPH_OP_ALL_TO_ALL:
    case GRAPH_OP_COLLECTIVE_BROADCAST:
    case GRAPH_OP_COLLECTIVE_PERMUTE:
        return channel ? MODE_CROSS_PARTITION : MODE_CROSS_REPLICA;
    case GRAPH_OP_CROSS_REPLICA_SUM:
        return MODE_CROSS_REPLICA;
    default:
        break;
    }
    const struct graph_attr *g = graph_op_attr(op, "use_global_device_ids");
    bool global = g && !(g->kind == GRAPH_ATTR_BOOL && !g->u.b);
    if (!channel) return MODE_CROSS_REPLICA;
    return global ? MODE_FLATTENED_IDS : MODE_CROSS_REPLICA_AND_PARTITION;
}

/* The group of mode `mode` built from ids group gi that contains p, written
 * to out (process ids in group order); returns its size, 0 if p is not in it. */
static int build_group(const struct interp_proc *p, enum group_mode mode, const int *ids, int len, int *out, int cap)
{
    int np = p->num_partitions, n = 0;
    bool mine = false;
    switch (mode) {
    case MODE_CROSS_REPLICA: /* replicas of ids, my partition */
        for (int i = 0; i < len && n < cap; i++) {
            out[n] = ids[i] * np + p->partition_id;
            if (ids[i] == p->replica_id) mine = true;
            n++;
        }
        break;
    case MODE_CROSS_PARTITION: /* partitions of ids, my replica */
        for (int i = 0; i < len && n < cap; i++) {
            out[n] = p->replica_id * np + ids[i];
            if (ids[i] == p->partition_id) mine = true;
            n++;
        }
        break;
    case MODE_CROSS_REPLICA_AND_PARTITION: /* for each partition, the replicas of ids */
        for (int pt = 0; pt < np; pt++)
            for (int i = 0; i < len && n < cap; i++) {
                out[n] = ids[i] * np + pt;
                if (out[n] == p->process_id) mine = true;
                n++;
            }
        break;
    case MODE_FLATTENED_IDS:
        for (int i = 0; i < len && n < cap; i++) {
            out[n] = ids[i];
            if (ids[i] == p->process_id) mine = true;
            n++;
        }
        break;
    }
    return mine ? n : 0;
}

static int ids_limit(const struct interp_proc *p, enum group_mode mode)
{
    switch (mode) {
    case MODE_CROSS_REPLICA:
    case MODE_CROSS_REPLICA_AND_PARTITION:
        return p->num_replicas;
    case MODE_CROSS_PARTITION:
        return p->num_partitions;
    case MODE_FLATTENED_IDS:
        return p->num_replicas * p->num_partitions;
    }
    return 0;
}

/* Finds p's group for `mode` over the ids groups of attribute `name`.  *n is
 * 0 when p is in none of them. */
static enum base_status find_group(struct interp_proc *p, const struct graph_op *op, enum group_mode mode,
                                   const char *name, int *group, int cap, int *n)
{
    *n = 0;
    struct id_groups g;
    TRY(read_id_groups(p, op, name, ids_limit(p, mode), &g));
    int limit = ids_limit(p, mode);
    bool out_of_range = false;
    for (int i = 0; i < g.n_groups; i++)
        for (int j = 0; j < g.len[i]; j++)
            if (g.ids[i * g.width + j] >= limit) out_of_range = true;
    if (out_of_range && mode == MODE_CROSS_REPLICA_AND_PARTITION && p->num_replicas == 1) {
        /* Exporters of SPMD programs (e.g. Shardy via tt-mlir) write device
         * ids into replica_groups without use_global_device_ids; with a
         * single replica that reading is the only meaningful one. */
        mode = MODE_FLATTENED_IDS;
        limit = ids_limit(p, mode);
        out_of_range = false;
        for (int i = 0; i < g.n_groups; i++)
            for (int j = 0; j < g.len[i]; j++)
                if (g.ids[i * g.width + j] >= limit) out_of_range = true;
    }
    enum base_status st = BASE_OK;
    if (out_of_range) {
        static const char *const mode_names[] = {"cross_replica", "cross_partition", "cross_replica_and_partition",
                                                 "flattened_ids"};
        st = interp_fail(p, op, BASE_ERR_INVALID, "%s: an id is out of range for %s with %d replicas x %d partitions",
                         name, mode_names[mode], p->num_replicas, p->num_partitions);
    }
    for (int i = 0; st == BASE_OK && i < g.n_groups; i++) {
        int len = g.len[i];
        int full = mode == MODE_CROSS_REPLICA_AND_PARTITION ? len * p->num_partitions : len;
        if (full > cap) {
            st = interp_fail(p, op, BASE_ERR_LIMIT, "process group of %d processes is too large", full);
            break;
        }
        int got = build_group(p, mode, &g.ids[i * g.width], len, group, cap);
        if (got) {
            *n = got;
            break;
        }
    }
    id_groups_free(&g);
    return st;
}

enum base_status interp_process_group(struct interp_proc *p, const struct graph_op *op, int *group, int cap, int *n)
{
    return find_group(p, op, op_group_mode(op), "replica_groups", group, cap, n);
}

/* ------------------------------------------------------------------------ */
/* Tensor helpers                                                            */

void interp_copy_box(struct base_tensor *dst, const int64_t *dst_off, const struct base_tensor *src,
                     const int64_t *src_off, const int64_t *size)
{
    int rank = src->rank;
    size_t es = base_dtype_size(src->dtype);
    if (rank == 0) {
        memcpy(dst->data, src->data, es);
        return;
    }
    for (int d = 0; d < rank; d++)
        if (size[d] <= 0) return;
    int64_t ss[GRAPH_MAX_RANK], ds[GRAPH_MAX_RANK];
    base_shape_strides(rank, src->dims, ss);
    base_shape_strides(rank, dst->dims, ds);
    /* merge trailing dims that are copied whole in both tensors */
    int inner = rank - 1;
    int64_t run = size[inner];
    while (inner > 0 && size[inner] == src->dims[inner] && size[inner] == dst->dims[inner] && src_off[inner] == 0 &&
           dst_off[inner] == 0) {
        inner--;
        run *= size[inner];
    }
    int64_t idx[GRAPH_MAX_RANK] = {0};
    const char *sp = src->data;
    char *dp = dst->data;
    for (;;) {
        int64_t so = 0, dof = 0;
        for (int d = 0; d <= inner; d++) {
            so += (src_off[d] + idx[d]) * ss[d];
            dof += (dst_off[d] + idx[d]) * ds[d];
        }
        memcpy(dp + (size_t)dof * es, sp + (size_t)so * es, (size_t)run * es);
        int d = inner - 1;
        for (; d >= 0; d--) {
            if (++idx[d] < size[d]) break;
            idx[d] = 0;
        }
        if (d < 0) break;
    }
}

/* Wraps tensors into one tuple value (references retained). */
static struct interp_value *pack(struct interp_value *const *in, int n)
{
    struct interp_value *small[16];
    struct interp_value **e = n <= 16 ? small : malloc((size_t)n * sizeof *e);
    if (!e) return NULL;
    for (int i = 0; i < n; i++) e[i] = interp_value_retain(in[i]);
    struct interp_value *t = interp_value_tuple(n, e);
    if (e != small) free(e);
    return t;
}

static struct base_tensor *elem_t(struct interp_value *packed, int i)
{
    return packed && packed->kind == IV_TUPLE && i < packed->n ? iv_t(packed->elems[i]) : NULL;
}

static enum base_status get_int_attr(struct interp_proc *p, const struct graph_op *op, const char *name, int64_t *v)
{
    if (!graph_attr_as_i64(graph_op_attr(op, name), v))
        return interp_fail(p, op, BASE_ERR_INVALID, "missing integer attribute %s", name);
    return BASE_OK;
}

/* Every contribution's operand i must be a tensor of the same dtype and shape. */
static enum base_status check_same(struct interp_proc *p, const struct graph_op *op, struct interp_value **all, int n,
                                   int i)
{
    const struct base_tensor *t0 = elem_t(all[0], i);
    for (int k = 0; k < n; k++) {
        const struct base_tensor *t = elem_t(all[k], i);
        if (!t || !t0 || t->dtype != t0->dtype || t->rank != t0->rank ||
            memcmp(t->dims, t0->dims, (size_t)t->rank * sizeof t->dims[0]))
            return interp_fail(p, op, BASE_ERR_INVALID,
                               "operand %d differs in type or shape between the processes of the group", i);
    }
    return BASE_OK;
}

#define MAX_GROUP 4096

/* Group of p for op; fails when p is in no group (ops that need one). */
static enum base_status need_group(struct interp_proc *p, const struct graph_op *op, int *group, int *n)
{
    TRY(interp_process_group(p, op, group, MAX_GROUP, n));
    if (*n == 0)
        return interp_fail(p, op, BASE_ERR_INVALID, "process (replica %d, partition %d) is in no process group",
                           p->replica_id, p->partition_id);
    return BASE_OK;
}

static int index_in(const int *group, int n, int id)
{
    for (int i = 0; i < n; i++)
        if (group[i] == id) return i;
    return -1;
}

/* Exchanges the packed operands [0, n_ops) with the group. */
static enum base_status exchange_operands(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                          int n_ops, const int *group, int n, struct interp_value **all)
{
    for (int i = 0; i < n_ops; i++)
        if (!iv_t(in[i])) return interp_fail(p, op, BASE_ERR_INVALID, "operand %d must be a tensor", i);
    struct interp_value *mine = pack(in, n_ops);
    if (!mine) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    enum base_status st = interp_rendezvous(p, op, group, n, mine, all);
    interp_value_release(mine);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Reductions                                                                */

/* acc = region(acc, b) elementwise; acc is replaced by a new tensor. */
static enum base_status combine(struct interp_proc *p, const struct graph_op *op, const struct graph_region *r,
                                enum graph_op_kind simple, struct base_tensor **acc, struct base_tensor *b)
{
    if (simple != GRAPH_OP_UNKNOWN) {
        struct base_tensor *o = NULL;
        TRY(interp_binary_tensors(p, op, simple, *acc, b, &o));
        base_tensor_release(*acc);
        *acc = o;
        return BASE_OK;
    }
    struct base_tensor *o = NULL;
    enum base_status st = base_tensor_create((*acc)->dtype, (*acc)->rank, (*acc)->dims, &o);
    if (st != BASE_OK) return interp_fail(p, op, st, "out of memory");
    size_t ea = base_dtype_size((*acc)->dtype), eb = base_dtype_size(b->dtype);
    for (int64_t i = 0; i < o->count && st == BASE_OK; i++) {
        /* fresh scalars each call: region values may be retained */
        struct base_tensor *ta = NULL, *tb = NULL;
        st = base_tensor_create((*acc)->dtype, 0, NULL, &ta);
        if (st == BASE_OK) st = base_tensor_create(b->dtype, 0, NULL, &tb);
        if (st != BASE_OK) {
            base_tensor_release(ta);
            base_tensor_release(tb);
            st = interp_fail(p, op, st, "out of memory");
            break;
        }
        memcpy(ta->data, (const char *)(*acc)->data + (size_t)i * ea, ea);
        memcpy(tb->data, (const char *)b->data + (size_t)i * eb, eb);
        struct interp_value *args[2] = {interp_value_tensor(ta), interp_value_tensor(tb)};
        struct interp_value *res = NULL;
        int got = 0;
        if (!args[0] || !args[1]) {
            st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
        } else {
            st = interp_call_region(p, r, 2, args, &res, 1, &got);
            if (st == BASE_OK && got != 1) st = interp_fail(p, op, BASE_ERR_INVALID, "computation must return one value");
        }
        interp_value_release(args[0]);
        interp_value_release(args[1]);
        const struct base_tensor *rt = st == BASE_OK ? iv_t(res) : NULL;
        if (st == BASE_OK && (!rt || rt->count != 1 || base_dtype_size(rt->dtype) != ea))
            st = interp_fail(p, op, BASE_ERR_INVALID, "computation must return a scalar of the operand type");
        if (st == BASE_OK) base_convert(o->dtype, (char *)o->data + (size_t)i * ea, rt->dtype, rt->data, 1);
        interp_value_release(res);
    }
    if (st != BASE_OK) {
        base_tensor_release(o);
        return st;
    }
    base_tensor_release(*acc);
    *acc = o;
    return BASE_OK;
}

/* Elements [lo, hi) of t as a new 1-D tensor of element type dt. */
static enum base_status flat_range(const struct base_tensor *t, int64_t lo, int64_t hi, enum base_dtype dt,
                                   struct base_tensor **out)
{
    int64_t len = hi - lo;
    TRY(base_tensor_create(dt, 1, &len, out));
    size_t es = base_dtype_size(t->dtype);
    const char *src = (const char *)t->data + (size_t)lo * es;
    if (dt == t->dtype) memcpy((*out)->data, src, (size_t)len * es);
    else base_convert(dt, (*out)->data, t->dtype, src, (size_t)len);
    return BASE_OK;
}

/* t in element type dt: a new reference to t, or a converted copy. */
static enum base_status as_dtype(struct base_tensor *t, enum base_dtype dt, struct base_tensor **out)
{
    if (t->dtype == dt) {
        *out = base_tensor_retain(t);
        return BASE_OK;
    }
    TRY(base_tensor_create(dt, t->rank, t->dims, out));
    base_convert(dt, (*out)->data, t->dtype, t->data, (size_t)t->count);
    return BASE_OK;
}

/* The element type E of op's computation, in which the operands (of type dt)
 * are reduced: the spec lets E be wider than dt (is_promotable). */
static enum base_dtype computation_dtype(const struct graph_op *op, enum base_dtype dt)
{
    return op->n_regions > 0 ? interp_region_arg_dtype(&op->regions[0], 0, dt) : dt;
}

/* Reduces parts[0..n) (borrowed) in order with op's region 0 into *out, in
 * the computation's element type. */
static enum base_status reduce_parts(struct interp_proc *p, const struct graph_op *op, struct base_tensor *const *parts,
                                     int n, struct base_tensor **out)
{
    *out = NULL;
    if (op->n_regions < 1) return interp_fail(p, op, BASE_ERR_INVALID, "missing computation region");
    const struct graph_region *r = &op->regions[0];
    enum graph_op_kind simple = interp_region_simple_binary(r);
    enum base_dtype e = computation_dtype(op, parts[0]->dtype);
    struct base_tensor *acc = NULL;
    if (as_dtype(parts[0], e, &acc) != BASE_OK) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    for (int k = 1; k < n; k++) {
        struct base_tensor *b = NULL;
        enum base_status st = as_dtype(parts[k], e, &b);
        if (st != BASE_OK) st = interp_fail(p, op, st, "out of memory");
        else st = combine(p, op, r, simple, &acc, b);
        base_tensor_release(b);
        if (st != BASE_OK) {
            base_tensor_release(acc);
            return st;
        }
    }
    *out = acc;
    return BASE_OK;
}

/* Converts t to result i's dtype when they differ (quantized wrappers). */
static enum base_status to_result(struct interp_proc *p, const struct graph_op *op, int i, struct base_tensor *t,
                                  struct interp_value **out)
{
    enum base_dtype dt = interp_result_dtype(p, op, i);
    if (t->dtype != dt) {
        struct base_tensor *c = NULL;
        enum base_status st = base_tensor_create(dt, t->rank, t->dims, &c);
        if (st != BASE_OK) {
            base_tensor_release(t);
            return interp_fail(p, op, st, "out of memory");
        }
        base_convert(dt, c->data, t->dtype, t->data, (size_t)t->count);
        base_tensor_release(t);
        t = c;
    }
    return interp_set_out(p, op, out, 0, t);
}

/* ------------------------------------------------------------------------ */
/* Kernels                                                                   */

static enum base_status k_all_gather(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                     struct interp_value **out)
{
    int64_t dim = 0;
    TRY(get_int_attr(p, op, "all_gather_dim", &dim));
    int group[MAX_GROUP], n = 0;
    TRY(need_group(p, op, group, &n));
    struct interp_value **all = calloc((size_t)n, sizeof *all);
    if (!all) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    enum base_status st = exchange_operands(p, op, in, op->n_operands, group, n, all);
    for (int i = 0; st == BASE_OK && i < op->n_operands; i++) {
        st = check_same(p, op, all, n, i);
        if (st != BASE_OK) break;
        const struct base_tensor *t0 = elem_t(all[0], i);
        if (dim < 0 || dim >= t0->rank) {
            st = interp_fail(p, op, BASE_ERR_INVALID, "all_gather_dim %lld out of range", (long long)dim);
            break;
        }
        int64_t dims[GRAPH_MAX_RANK];
        memcpy(dims, t0->dims, sizeof dims);
        dims[dim] *= n;
        struct base_tensor *r = NULL;
        st = base_tensor_create(t0->dtype, t0->rank, dims, &r);
        if (st != BASE_OK) {
            st = interp_fail(p, op, st, "cannot allocate result");
            break;
        }
        int64_t zero[GRAPH_MAX_RANK] = {0}, off[GRAPH_MAX_RANK] = {0};
        for (int k = 0; k < n; k++) {
            off[dim] = k * t0->dims[dim];
            interp_copy_box(r, off, elem_t(all[k], i), zero, t0->dims);
        }
        st = to_result(p, op, i, r, &out[i]);
    }
    interp_values_release(all, n);
    free(all);
    return st;
}

static enum base_status reduce_group(struct interp_proc *p, const struct graph_op *op, struct interp_value **all, int n,
                                     int i, struct base_tensor **out)
{
    TRY(check_same(p, op, all, n, i));
    struct base_tensor **parts = malloc((size_t)n * sizeof *parts);
    if (!parts) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    for (int k = 0; k < n; k++) parts[k] = elem_t(all[k], i);
    enum base_status st = reduce_parts(p, op, parts, n, out);
    free(parts);
    return st;
}

/* Below this many elements per process every member reduces everything. */
#define COOP_MIN_ELEMS_PER_PROCESS 4096

/* A large all_reduce whose region is a plain binary op: member m folds the
 * m-th slice of the elements (in group order, as every member would), then
 * the members swap their slices.  Same values as the plain path, 1/n of the
 * work per member. */
static enum base_status all_reduce_shared(struct interp_proc *p, const struct graph_op *op, enum graph_op_kind simple,
                                          struct interp_value **all, const int *group, int n, struct interp_value **out)
{
    int me = index_in(group, n, p->process_id);
    int n_ops = op->n_operands;
    struct interp_value **part = calloc((size_t)n_ops, sizeof *part);
    struct interp_value **all2 = calloc((size_t)n, sizeof *all2);
    enum base_status st = part && all2 ? BASE_OK : interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    for (int i = 0; st == BASE_OK && i < n_ops; i++) {
        const struct base_tensor *t0 = elem_t(all[0], i);
        int64_t lo = t0->count * me / n, hi = t0->count * (me + 1) / n;
        enum base_dtype e = computation_dtype(op, t0->dtype);
        struct base_tensor *acc = NULL;
        if (flat_range(t0, lo, hi, e, &acc) != BASE_OK) st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
        for (int k = 1; st == BASE_OK && k < n; k++) {
            struct base_tensor *b = NULL, *o = NULL;
            if (flat_range(elem_t(all[k], i), lo, hi, e, &b) != BASE_OK) {
                st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
                break;
            }
            st = interp_binary_tensors(p, op, simple, acc, b, &o);
            base_tensor_release(b);
            base_tensor_release(acc);
            acc = o;
        }
        if (st == BASE_OK) {
            part[i] = interp_value_tensor(acc);
            if (!part[i]) st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
        } else {
            base_tensor_release(acc);
        }
    }
    struct interp_value *mine = st == BASE_OK ? interp_value_tuple(n_ops, part) : NULL;
    if (st == BASE_OK) {
        memset(part, 0, (size_t)n_ops * sizeof *part);
        if (!mine) st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    if (st == BASE_OK) st = interp_rendezvous(p, op, group, n, mine, all2);
    interp_value_release(mine);
    for (int i = 0; st == BASE_OK && i < n_ops; i++) {
        const struct base_tensor *t0 = elem_t(all[0], i), *c0 = elem_t(all2[0], i);
        struct base_tensor *r = NULL;
        if (!c0 || base_tensor_create(c0->dtype, t0->rank, t0->dims, &r) != BASE_OK) {
            st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
            break;
        }
        size_t es = base_dtype_size(r->dtype);
        for (int m = 0; m < n; m++) {
            const struct base_tensor *c = elem_t(all2[m], i);
            int64_t lo = t0->count * m / n;
            memcpy((char *)r->data + (size_t)lo * es, c->data, (size_t)c->count * es);
        }
        st = to_result(p, op, i, r, &out[i]);
    }
    if (part)
        for (int i = 0; i < n_ops; i++) interp_value_release(part[i]);
    if (all2) interp_values_release(all2, n);
    free(part);
    free(all2);
    return st;
}

static enum base_status k_all_reduce(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                     struct interp_value **out)
{
    int group[MAX_GROUP], n = 0;
    TRY(need_group(p, op, group, &n));
    struct interp_value **all = calloc((size_t)n, sizeof *all);
    if (!all) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    enum base_status st = exchange_operands(p, op, in, op->n_operands, group, n, all);
    enum graph_op_kind simple = op->n_regions ? interp_region_simple_binary(&op->regions[0]) : GRAPH_OP_UNKNOWN;
    bool shared = st == BASE_OK && n > 1 && simple != GRAPH_OP_UNKNOWN;
    for (int i = 0; shared && i < op->n_operands; i++) {
        st = check_same(p, op, all, n, i);
        if (st != BASE_OK || elem_t(all[0], i)->count < (int64_t)n * COOP_MIN_ELEMS_PER_PROCESS) shared = false;
    }
    if (shared) {
        st = all_reduce_shared(p, op, simple, all, group, n, out);
        interp_values_release(all, n);
        free(all);
        return st;
    }
    for (int i = 0; st == BASE_OK && i < op->n_operands; i++) {
        struct base_tensor *r = NULL;
        st = reduce_group(p, op, all, n, i, &r);
        if (st == BASE_OK) st = to_result(p, op, i, r, &out[i]);
    }
    interp_values_release(all, n);
    free(all);
    return st;
}

/* collective_reduce: the group's first process gets the reduction, the
 * others zeros. */
static enum base_status k_collective_reduce(struct interp_proc *p, const struct graph_op *op,
                                            struct interp_value *const *in, struct interp_value **out)
{
    int group[MAX_GROUP], n = 0;
    TRY(interp_process_group(p, op, group, MAX_GROUP, &n));
    enum base_status st = BASE_OK;
    struct interp_value **all = n ? calloc((size_t)n, sizeof *all) : NULL;
    if (n && !all) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    if (n) st = exchange_operands(p, op, in, op->n_operands, group, n, all);
    bool root = n > 0 && group[0] == p->process_id;
    for (int i = 0; st == BASE_OK && i < op->n_operands; i++) {
        struct base_tensor *r = NULL;
        if (root) {
            st = reduce_group(p, op, all, n, i, &r);
        } else {
            const struct base_tensor *t = iv_t(in[i]);
            st = base_tensor_create(t->dtype, t->rank, t->dims, &r);
            if (st != BASE_OK) st = interp_fail(p, op, st, "out of memory");
        }
        if (st == BASE_OK) st = to_result(p, op, i, r, &out[i]);
    }
    if (all) interp_values_release(all, n);
    free(all);
    return st;
}

static enum base_status k_reduce_scatter(struct interp_proc *p, const struct graph_op *op,
                                         struct interp_value *const *in, struct interp_value **out)
{
    int64_t dim = 0;
    TRY(get_int_attr(p, op, "scatter_dimension", &dim));
    int group[MAX_GROUP], n = 0;
    TRY(need_group(p, op, group, &n));
    int me = index_in(group, n, p->process_id);
    struct interp_value **all = calloc((size_t)n, sizeof *all);
    struct base_tensor **parts = calloc((size_t)n, sizeof *parts);
    if (!all || !parts) {
        free(all);
        free(parts);
        return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    enum base_status st = exchange_operands(p, op, in, op->n_operands, group, n, all);
    for (int i = 0; st == BASE_OK && i < op->n_operands; i++) {
        st = check_same(p, op, all, n, i);
        if (st != BASE_OK) break;
        const struct base_tensor *t0 = elem_t(all[0], i);
        if (dim < 0 || dim >= t0->rank || t0->dims[dim] % n) {
            st = interp_fail(p, op, BASE_ERR_INVALID,
                             "scatter_dimension %lld must be a dimension divisible by the group size %d",
                             (long long)dim, n);
            break;
        }
        int64_t size[GRAPH_MAX_RANK], src_off[GRAPH_MAX_RANK] = {0}, zero[GRAPH_MAX_RANK] = {0};
        memcpy(size, t0->dims, sizeof size);
        size[dim] /= n;
        src_off[dim] = me * size[dim];
        for (int k = 0; k < n && st == BASE_OK; k++) {
            st = base_tensor_create(t0->dtype, t0->rank, size, &parts[k]);
            if (st != BASE_OK) st = interp_fail(p, op, st, "out of memory");
            else interp_copy_box(parts[k], zero, elem_t(all[k], i), src_off, size);
        }
        struct base_tensor *r = NULL;
        if (st == BASE_OK) st = reduce_parts(p, op, parts, n, &r);
        for (int k = 0; k < n; k++) {
            base_tensor_release(parts[k]);
            parts[k] = NULL;
        }
        if (st == BASE_OK) st = to_result(p, op, i, r, &out[i]);
    }
    interp_values_release(all, n);
    free(all);
    free(parts);
    return st;
}

static enum base_status k_cross_replica_sum(struct interp_proc *p, const struct graph_op *op,
                                            struct interp_value *const *in, struct interp_value **out)
{
    int group[MAX_GROUP], n = 0;
    TRY(need_group(p, op, group, &n));
    struct interp_value **all = calloc((size_t)n, sizeof *all);
    if (!all) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    enum base_status st = exchange_operands(p, op, in, op->n_operands, group, n, all);
    for (int i = 0; st == BASE_OK && i < op->n_operands; i++) {
        st = check_same(p, op, all, n, i);
        struct base_tensor *acc = NULL;
        if (st == BASE_OK && base_tensor_clone(elem_t(all[0], i), &acc) != BASE_OK)
            st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
        for (int k = 1; st == BASE_OK && k < n; k++) {
            struct base_tensor *o = NULL;
            st = interp_binary_tensors(p, op, GRAPH_OP_ADD, acc, elem_t(all[k], i), &o);
            base_tensor_release(acc);
            acc = o;
        }
        if (st == BASE_OK) st = to_result(p, op, i, acc, &out[i]);
        else base_tensor_release(acc);
    }
    interp_values_release(all, n);
    free(all);
    return st;
}

static enum base_status k_all_to_all(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                     struct interp_value **out)
{
    int64_t split_dim = 0, concat_dim = 0, split_count = 0;
    TRY(get_int_attr(p, op, "split_dimension", &split_dim));
    TRY(get_int_attr(p, op, "concat_dimension", &concat_dim));
    TRY(get_int_attr(p, op, "split_count", &split_count));
    int group[MAX_GROUP], n = 0;
    TRY(need_group(p, op, group, &n));
    if (split_count != n)
        return interp_fail(p, op, BASE_ERR_INVALID, "split_count %lld differs from the process group size %d",
                           (long long)split_count, n);
    int me = index_in(group, n, p->process_id);
    struct interp_value **all = calloc((size_t)n, sizeof *all);
    if (!all) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    enum base_status st = exchange_operands(p, op, in, op->n_operands, group, n, all);
    for (int i = 0; st == BASE_OK && i < op->n_operands; i++) {
        st = check_same(p, op, all, n, i);
        if (st != BASE_OK) break;
        const struct base_tensor *t0 = elem_t(all[0], i);
        if (split_dim < 0 || split_dim >= t0->rank || concat_dim < 0 || concat_dim >= t0->rank ||
            t0->dims[split_dim] % n) {
            st = interp_fail(p, op, BASE_ERR_INVALID, "split/concat dimension out of range or not divisible by %d", n);
            break;
        }
        int64_t part[GRAPH_MAX_RANK], dims[GRAPH_MAX_RANK];
        memcpy(part, t0->dims, sizeof part);
        part[split_dim] /= n;
        memcpy(dims, part, sizeof dims);
        dims[concat_dim] *= n;
        struct base_tensor *r = NULL;
        st = base_tensor_create(t0->dtype, t0->rank, dims, &r);
        if (st != BASE_OK) {
            st = interp_fail(p, op, st, "cannot allocate result");
            break;
        }
        int64_t src_off[GRAPH_MAX_RANK] = {0}, dst_off[GRAPH_MAX_RANK] = {0};
        src_off[split_dim] = me * part[split_dim];
        for (int k = 0; k < n; k++) {
            dst_off[concat_dim] = k * part[concat_dim];
            interp_copy_box(r, dst_off, elem_t(all[k], i), src_off, part);
        }
        st = to_result(p, op, i, r, &out[i]);
    }
    interp_values_release(all, n);
    free(all);
    return st;
}

static enum base_status zeros_like(struct interp_proc *p, const struct graph_op *op, int i,
                                   const struct base_tensor *like, struct interp_value **out)
{
    struct base_tensor *z = NULL;
    enum base_status st = base_tensor_create(like->dtype, like->rank, like->dims, &z);
    if (st != BASE_OK) return interp_fail(p, op, st, "out of memory");
    return to_result(p, op, i, z, out);
}

static enum base_status k_collective_broadcast(struct interp_proc *p, const struct graph_op *op,
                                               struct interp_value *const *in, struct interp_value **out)
{
    bool dynamic_root = graph_op_attr(op, "has_dynamic_root") != NULL;
    int n_data = dynamic_root ? op->n_operands - 1 : op->n_operands;
    if (n_data < 1 || n_data > op->n_results)
        return interp_fail(p, op, BASE_ERR_INVALID, "expects %d results for %d data operands", n_data, n_data);
    const struct base_tensor *root = dynamic_root ? iv_t(in[op->n_operands - 1]) : NULL;
    if (dynamic_root && (!root || !base_dtype_is_int(root->dtype) || root->count < n_data))
        return interp_fail(p, op, BASE_ERR_INVALID, "root must be an integer tensor with one index per data operand");
    for (int i = 0; i < n_data; i++)
        if (!iv_t(in[i])) return interp_fail(p, op, BASE_ERR_INVALID, "operand %d must be a tensor", i);
    int group[MAX_GROUP], n = 0;
    TRY(interp_process_group(p, op, group, MAX_GROUP, &n));
    enum base_status st = BASE_OK;
    if (n == 0) { /* not in any group: zeros */
        for (int i = 0; i < n_data && st == BASE_OK; i++) st = zeros_like(p, op, i, iv_t(in[i]), &out[i]);
        return st;
    }
    struct interp_value **all = calloc((size_t)n, sizeof *all);
    if (!all) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    st = exchange_operands(p, op, in, n_data, group, n, all);
    for (int i = 0; st == BASE_OK && i < n_data; i++) {
        int64_t src = dynamic_root ? base_elem_get_i64(root->dtype, root->data, (size_t)i) : 0;
        if (src < 0 || src >= n) {
            st = interp_fail(p, op, BASE_ERR_INVALID, "root %lld is outside the process group of %d", (long long)src, n);
            break;
        }
        struct base_tensor *r = NULL;
        if (base_tensor_clone(elem_t(all[src], i), &r) != BASE_OK) {
            st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
            break;
        }
        st = to_result(p, op, i, r, &out[i]);
    }
    interp_values_release(all, n);
    free(all);
    return st;
}

static enum base_status k_collective_permute(struct interp_proc *p, const struct graph_op *op,
                                             struct interp_value *const *in, struct interp_value **out)
{
    const struct base_tensor *x = iv_t(in[0]);
    if (!x) return interp_fail(p, op, BASE_ERR_INVALID, "operand must be a tensor");
    bool cross_partition = op_channel_id(op) > 0;
    int limit = cross_partition ? p->num_partitions : p->num_replicas;
    int my_idx = cross_partition ? p->partition_id : p->replica_id;
    const struct graph_attr *a = graph_op_attr(op, "source_target_pairs");
    const struct base_tensor *pairs = a && a->kind == GRAPH_ATTR_ELEMENTS ? a->u.elements.value : NULL;
    if (!pairs || (pairs->count && (pairs->rank != 2 || pairs->dims[1] != 2 || !base_dtype_is_int(pairs->dtype))))
        return interp_fail(p, op, BASE_ERR_INVALID, "source_target_pairs must be an [N, 2] integer tensor");
    int64_t n_pairs = pairs->count ? pairs->dims[0] : 0;
    bool *used = calloc((size_t)limit, sizeof *used);
    if (!used) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    int64_t source = -1;
    enum base_status st = BASE_OK;
    for (int64_t i = 0; i < n_pairs; i++) {
        int64_t s = base_elem_get_i64(pairs->dtype, pairs->data, (size_t)(2 * i));
        int64_t t = base_elem_get_i64(pairs->dtype, pairs->data, (size_t)(2 * i + 1));
        if (s < 0 || s >= limit || t < 0 || t >= limit) {
            st = interp_fail(p, op, BASE_ERR_INVALID, "source_target_pairs entry [%lld, %lld] is outside 0..%d",
                             (long long)s, (long long)t, limit - 1);
            break;
        }
        used[s] = used[t] = true;
        if (t == my_idx) source = s;
    }
    if (st != BASE_OK || !used[my_idx]) {
        free(used);
        return st != BASE_OK ? st : zeros_like(p, op, 0, x, &out[0]);
    }
    /* everyone on my line that takes part in the permutation meets once */
    int group[MAX_GROUP], n = 0;
    for (int i = 0; i < limit && n < MAX_GROUP; i++)
        if (used[i]) group[n++] = cross_partition ? p->replica_id * p->num_partitions + i : i * p->num_partitions + p->partition_id;
    struct interp_value **all = calloc((size_t)n, sizeof *all);
    if (!all) {
        free(used);
        return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    st = exchange_operands(p, op, in, 1, group, n, all);
    if (st == BASE_OK) {
        if (source < 0) {
            st = zeros_like(p, op, 0, x, &out[0]);
        } else {
            int k = 0;
            for (int i = 0; i < source; i++) k += used[i];
            struct base_tensor *r = NULL;
            if (base_tensor_clone(elem_t(all[k], 0), &r) != BASE_OK) st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
            else st = to_result(p, op, 0, r, &out[0]);
        }
    }
    interp_values_release(all, n);
    free(all);
    free(used);
    return st;
}

static enum base_status scalar_ui32(struct interp_proc *p, const struct graph_op *op, uint32_t v,
                                    struct interp_value **out)
{
    struct base_tensor *t = NULL;
    enum base_status st = base_tensor_create(BASE_DT_UI32, 0, NULL, &t);
    if (st != BASE_OK) return interp_fail(p, op, st, "out of memory");
    ((uint32_t *)t->data)[0] = v;
    return to_result(p, op, 0, t, out);
}

static enum base_status k_replica_id(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                     struct interp_value **out)
{
    (void)in;
    return scalar_ui32(p, op, (uint32_t)p->replica_id, out);
}

static enum base_status k_partition_id(struct interp_proc *p, const struct graph_op *op,
                                       struct interp_value *const *in, struct interp_value **out)
{
    (void)in;
    return scalar_ui32(p, op, (uint32_t)p->partition_id, out);
}

/* ------------------------------------------------------------------------ */
/* Point-to-point and streams                                                */

static struct coll_chan *chan_get(struct interp_coll *c, int64_t id)
{
    for (struct coll_chan *ch = c->chans; ch; ch = ch->next)
        if (ch->id == id) return ch;
    struct coll_chan *ch = calloc(1, sizeof *ch);
    if (!ch) return NULL;
    ch->id = id;
    ch->next = c->chans;
    c->chans = ch;
    return ch;
}

static enum base_status new_token(struct interp_proc *p, const struct graph_op *op, struct interp_value **out)
{
    *out = interp_value_token();
    return *out ? BASE_OK : interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
}

/* send(inputs..., token) -> token: queues the inputs on the channel. */
static enum base_status k_send(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                               struct interp_value **out)
{
    struct interp_coll *c = interp_proc_coll(p);
    int n = op->n_operands - 1; /* the last operand is the token */
    if (n < 0) return interp_fail(p, op, BASE_ERR_INVALID, "send needs a token operand");
    struct coll_msg *m = calloc(1, sizeof *m);
    if (m) m->v = pack(in, n);
    if (!m || !m->v) {
        free(m);
        return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    pthread_mutex_lock(&c->mu);
    struct coll_chan *ch = c->aborted ? NULL : chan_get(c, op_channel_id(op));
    if (!ch) {
        bool ab = c->aborted;
        pthread_mutex_unlock(&c->mu);
        msgs_free(m);
        return ab ? fail_aborted(p, op, c) : interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    if (ch->tail) ch->tail->next = m;
    else ch->head = m;
    ch->tail = m;
    wake(c, &ch->q);
    pthread_mutex_unlock(&c->mu);
    return new_token(p, op, &out[0]);
}

/* recv(token) -> (results..., token): takes the oldest message of the channel. */
static enum base_status k_recv(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                               struct interp_value **out)
{
    (void)in;
    struct interp_coll *c = interp_proc_coll(p);
    int n = op->n_results - 1;
    if (n < 0) return interp_fail(p, op, BASE_ERR_INVALID, "recv must produce a token");
    pthread_mutex_lock(&c->mu);
    struct coll_chan *ch = c->aborted ? NULL : chan_get(c, op_channel_id(op));
    while (ch && !ch->head && !c->aborted)
        if (!coll_wait(c, &ch->q)) break;
    if (!ch || !ch->head) {
        bool ab = c->aborted;
        pthread_mutex_unlock(&c->mu);
        return ab ? fail_aborted(p, op, c) : interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    struct coll_msg *m = ch->head;
    ch->head = m->next;
    if (!ch->head) ch->tail = NULL;
    pthread_mutex_unlock(&c->mu);
    enum base_status st = BASE_OK;
    if (m->v->n != n) {
        st = interp_fail(p, op, BASE_ERR_INVALID, "received %d values, %d expected", m->v->n, n);
    } else {
        for (int i = 0; i < n; i++) out[i] = interp_value_retain(m->v->elems[i]);
        st = new_token(p, op, &out[n]);
    }
    m->next = NULL;
    msgs_free(m);
    return st;
}

static enum base_status k_infeed(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                 struct interp_value **out)
{
    (void)in;
    struct interp_coll *c = interp_proc_coll(p);
    int n = op->n_results - 1;
    if (n < 0) return interp_fail(p, op, BASE_ERR_INVALID, "infeed must produce a token");
    pthread_mutex_lock(&c->mu);
    const struct graph_op *f = c->next_infeed < c->n_infeed ? c->infeed[c->next_infeed++] : NULL;
    pthread_mutex_unlock(&c->mu);
    if (!f) return interp_fail(p, op, BASE_ERR_RUNTIME, "infeed is empty (no more infeed data for this process grid)");
    int got = 0;
    TRY(interp_call_func(p, f, 0, NULL, out, n, &got));
    if (got != n) {
        interp_values_release(out, got);
        return interp_fail(p, op, BASE_ERR_INVALID, "infeed function @%s returned %d values, %d expected",
                           graph_func_name(f), got, n);
    }
    return new_token(p, op, &out[n]);
}

static enum base_status k_outfeed(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                  struct interp_value **out)
{
    struct interp_coll *c = interp_proc_coll(p);
    int n = op->n_operands - 1;
    if (n < 0) return interp_fail(p, op, BASE_ERR_INVALID, "outfeed needs a token operand");
    struct coll_msg *m = calloc(1, sizeof *m);
    if (m) m->v = pack(in, n);
    if (!m || !m->v) {
        free(m);
        return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    pthread_mutex_lock(&c->mu);
    if (c->outfeed_tail) c->outfeed_tail->next = m;
    else c->outfeed = m;
    c->outfeed_tail = m;
    pthread_mutex_unlock(&c->mu);
    return new_token(p, op, &out[0]);
}

void interp_register_collective(interp_kernel_fn *table)
{
    table[GRAPH_OP_ALL_GATHER] = k_all_gather;
    table[GRAPH_OP_ALL_REDUCE] = k_all_reduce;
    table[GRAPH_OP_ALL_TO_ALL] = k_all_to_all;
    table[GRAPH_OP_COLLECTIVE_BROADCAST] = k_collective_broadcast;
    table[GRAPH_OP_COLLECTIVE_PERMUTE] = k_collective_permute;
    table[GRAPH_OP_COLLECTIVE_REDUCE] = k_collective_reduce;
    table[GRAPH_OP_REDUCE_SCATTER] = k_reduce_scatter;
    table[GRAPH_OP_CROSS_REPLICA_SUM] = k_cross_replica_sum;
    table[GRAPH_OP_REPLICA_ID] = k_replica_id;
    table[GRAPH_OP_PARTITION_ID] = k_partition_id;
    table[GRAPH_OP_SEND] = k_send;
    table[GRAPH_OP_RECV] = k_recv;
    table[GRAPH_OP_INFEED] = k_infeed;
    table[GRAPH_OP_OUTFEED] = k_outfeed;
    interp_register_sdy(table);
}
