/* loop.c — see loop.h. Timers live in a binary min-heap ordered by (due, seq);
 * each timer occupies a slot whose generation makes stale ids harmless. */
#include "loop.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    double due;
    uint64_t seq;
    uint64_t id;        /* (generation << 24) | slot, never 0 */
    loop_timer_fn fn;
    void *ud;
    size_t heap_pos;    /* index in heap, or SIZE_MAX when free */
} timer_slot;

typedef struct {
    int fd, events;
    loop_io_fn fn;
    void *ud;
} watch;

struct loop {
    timer_slot *slots;
    size_t nslots, cap_slots;
    size_t *free_slots;  size_t nfree;
    size_t *heap;        size_t nheap;
    uint64_t seq, next_token;
    uint32_t *gen;
    watch *watches;      size_t nwatch, cap_watch;
    struct pollfd *pfds; size_t cap_pfds;
    uint64_t *signals;   size_t nsig, cap_sig;
};

#define SLOT_BITS 24
#define SLOT_MASK ((UINT64_C(1) << SLOT_BITS) - 1)

static loop_t *the_loop;

loop_t *loop_default(void)
{
    if (!the_loop) {
        the_loop = calloc(1, sizeof *the_loop);
        if (the_loop) the_loop->next_token = UINT64_C(1) << 62;  /* above every timer id */
    }
    return the_loop;
}

void loop_free(loop_t *lp)
{
    if (!lp) return;
    free(lp->slots); free(lp->free_slots); free(lp->heap); free(lp->gen);
    free(lp->watches); free(lp->pfds); free(lp->signals);
    if (lp == the_loop) the_loop = NULL;
    free(lp);
}

double loop_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

uint64_t loop_token(loop_t *lp) { return ++lp->next_token; }

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap * 2 : 64;
    while (n < need) n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q) return -1;
    *p = q; *cap = n;
    return 0;
}

/* ---- watches ---- */

int loop_watch(loop_t *lp, int fd, int events, loop_io_fn fn, void *ud)
{
    for (size_t i = 0; i < lp->nwatch; i++) {
        if (lp->watches[i].fd != fd) continue;
        if (events == 0) {
            lp->watches[i] = lp->watches[--lp->nwatch];
        } else {
            lp->watches[i] = (watch){fd, events, fn, ud};
        }
        return 0;
    }
    if (events == 0) return 0;
    if (grow((void **)&lp->watches, &lp->cap_watch, lp->nwatch + 1, sizeof(watch))) return -1;
    lp->watches[lp->nwatch++] = (watch){fd, events, fn, ud};
    return 0;
}

void *loop_watch_data(const loop_t *lp, int fd)
{
    for (size_t i = 0; i < lp->nwatch; i++)
        if (lp->watches[i].fd == fd) return lp->watches[i].ud;
    return NULL;
}

/* ---- timer heap ---- */

static int earlier(const loop_t *lp, size_t a, size_t b)
{
    const timer_slot *x = &lp->slots[a], *y = &lp->slots[b];
    return x->due < y->due || (x->due == y->due && x->seq < y->seq);
}

static void heap_set(loop_t *lp, size_t pos, size_t slot)
{
    lp->heap[pos] = slot;
    lp->slots[slot].heap_pos = pos;
}

static void sift_up(loop_t *lp, size_t pos)
{
    size_t slot = lp->heap[pos];
    while (pos > 0) {
        size_t parent = (pos - 1) / 2;
        if (!earlier(lp, slot, lp->heap[parent])) break;
        heap_set(lp, pos, lp->heap[parent]);
        pos = parent;
    }
    heap_set(lp, pos, slot);
}

static void sift_down(loop_t *lp, size_t pos)
{
    size_t slot = lp->heap[pos];
    for (;;) {
        size_t c = 2 * pos + 1;
        if (c >= lp->nheap) break;
        if (c + 1 < lp->nheap && earlier(lp, lp->heap[c + 1], lp->heap[c])) c++;
        if (!earlier(lp, lp->heap[c], slot)) break;
        heap_set(lp, pos, lp->heap[c]);
        pos = c;
    }
    heap_set(lp, pos, slot);
}

static void heap_remove(loop_t *lp, size_t pos)
{
    size_t last = lp->heap[--lp->nheap];
    if (pos < lp->nheap) {
        heap_set(lp, pos, last);
        sift_down(lp, pos);
        sift_up(lp, lp->slots[last].heap_pos);
    }
}

static void free_slot(loop_t *lp, size_t slot)
{
    lp->slots[slot].heap_pos = SIZE_MAX;
    lp->gen[slot]++;
    lp->free_slots[lp->nfree++] = slot;
}

uint64_t loop_timer(loop_t *lp, double due_ms, loop_timer_fn fn, void *ud)
{
    size_t slot;
    if (lp->nfree) {
        slot = lp->free_slots[--lp->nfree];
    } else {
        if (lp->nslots >= SLOT_MASK) return 0;
        size_t cap = lp->cap_slots;
        if (grow((void **)&lp->slots, &lp->cap_slots, lp->nslots + 1, sizeof(timer_slot))) return 0;
        size_t c2 = cap, c3 = cap, c4 = cap;
        if (grow((void **)&lp->gen, &c2, lp->cap_slots, sizeof(uint32_t)) ||
            grow((void **)&lp->free_slots, &c3, lp->cap_slots, sizeof(size_t)) ||
            grow((void **)&lp->heap, &c4, lp->cap_slots, sizeof(size_t)))
            return 0;
        slot = lp->nslots++;
        lp->gen[slot] = 1;
    }
    uint64_t id = ((uint64_t)lp->gen[slot] << SLOT_BITS) | slot;
    lp->slots[slot] = (timer_slot){due_ms, lp->seq++, id, fn, ud, 0};
    lp->heap[lp->nheap++] = slot;
    sift_up(lp, lp->nheap - 1);
    return id;
}

int loop_timer_cancel(loop_t *lp, uint64_t id)
{
    size_t slot = (size_t)(id & SLOT_MASK);
    if (slot >= lp->nslots || lp->slots[slot].id != id || lp->slots[slot].heap_pos == SIZE_MAX)
        return 0;
    heap_remove(lp, lp->slots[slot].heap_pos);
    free_slot(lp, slot);
    return 1;
}

size_t loop_timer_count(const loop_t *lp) { return lp->nheap; }

/* ---- signals ---- */

void loop_signal(loop_t *lp, uint64_t token)
{
    if (grow((void **)&lp->signals, &lp->cap_sig, lp->nsig + 1, sizeof(uint64_t))) abort();
    lp->signals[lp->nsig++] = token;
}

size_t loop_take_signals(loop_t *lp, uint64_t *out, size_t max)
{
    size_t n = lp->nsig < max ? lp->nsig : max;
    if (n == 0) return 0;
    memcpy(out, lp->signals, n * sizeof *out);
    memmove(lp->signals, lp->signals + n, (lp->nsig - n) * sizeof *out);
    lp->nsig -= n;
    return n;
}

size_t loop_pending_signals(const loop_t *lp) { return lp->nsig; }

/* ---- one turn ---- */

static int fire_timers(loop_t *lp)
{
    int n = 0;
    double now = loop_now();
    while (lp->nheap && lp->slots[lp->heap[0]].due <= now) {
        size_t slot = lp->heap[0];
        timer_slot t = lp->slots[slot];
        heap_remove(lp, 0);
        free_slot(lp, slot);
        t.fn(t.ud, t.id);
        n++;
    }
    return n;
}

int loop_run_once(loop_t *lp, double max_wait_ms)
{
    double wait = max_wait_ms;
    if (lp->nsig) wait = 0;
    if (lp->nheap) {
        double until = lp->slots[lp->heap[0]].due - loop_now();
        if (until < 0) until = 0;
        if (wait < 0 || until < wait) wait = until;
    } else if (lp->nwatch == 0 && wait < 0) {
        wait = 0;
    }
    if (grow((void **)&lp->pfds, &lp->cap_pfds, lp->nwatch + 1, sizeof(struct pollfd))) return -1;
    size_t nw = lp->nwatch;
    for (size_t i = 0; i < nw; i++) {
        lp->pfds[i].fd = lp->watches[i].fd;
        lp->pfds[i].events = (short)(((lp->watches[i].events & LOOP_READ) ? POLLIN : 0) |
                                     ((lp->watches[i].events & LOOP_WRITE) ? POLLOUT : 0));
        lp->pfds[i].revents = 0;
    }
    int timeout = wait < 0 ? -1 : (int)(wait + 0.999);
    int r = poll(lp->pfds, nw, timeout);
    if (r < 0 && errno != EINTR) return -1;
    int n = 0;
    for (size_t i = 0; r > 0 && i < nw; i++) {
        short re = lp->pfds[i].revents;
        if (!re) continue;
        int ev = ((re & POLLIN) ? LOOP_READ : 0) | ((re & POLLOUT) ? LOOP_WRITE : 0) |
                 ((re & (POLLERR | POLLHUP | POLLNVAL)) ? LOOP_ERROR : 0);
        int fd = lp->pfds[i].fd;
        /* the callback may have been removed or replaced by an earlier one */
        for (size_t j = 0; j < lp->nwatch; j++) {
            if (lp->watches[j].fd == fd) {
                watch w = lp->watches[j];
                w.fn(w.ud, fd, ev);
                n++;
                break;
            }
        }
    }
    return n + fire_timers(lp);
}
