/* loop.h — one poll(2)-based event loop per process: file-descriptor watches,
 * timers on a monotonic clock, and a queue of completion tokens.
 *
 * C components (HTTP transfers, engine pipes) register fds and timers with C
 * callbacks; when work finishes they post a token with loop_signal(). The Lua
 * scheduler takes the posted tokens after each loop_run_once() and resumes the
 * coroutines waiting on them. Nothing here knows about Lua. */
#ifndef TABULA_LOOP_H
#define TABULA_LOOP_H

#include <stddef.h>
#include <stdint.h>

#define LOOP_READ  1
#define LOOP_WRITE 2
#define LOOP_ERROR 4   /* reported only: POLLERR, POLLHUP or POLLNVAL */

typedef struct loop loop_t;
typedef void (*loop_io_fn)(void *ud, int fd, int events);
typedef void (*loop_timer_fn)(void *ud, uint64_t id);

loop_t  *loop_default(void);              /* the process-wide loop, created on first use */
void     loop_free(loop_t *lp);
double   loop_now(void);                  /* monotonic clock, milliseconds */
uint64_t loop_token(loop_t *lp);          /* a fresh id for loop_signal (never 0) */

/* Watch fd for events (LOOP_READ|LOOP_WRITE); events == 0 removes the watch.
 * A later call for the same fd replaces the earlier one. Returns 0 or -1 (ENOMEM). */
int      loop_watch(loop_t *lp, int fd, int events, loop_io_fn fn, void *ud);
void    *loop_watch_data(const loop_t *lp, int fd);   /* the ud of fd's watch, or NULL */

/* Call fn at monotonic time due_ms (or as soon as possible after it). Timers
 * due at the same time fire in the order they were added. Returns the id. */
uint64_t loop_timer(loop_t *lp, double due_ms, loop_timer_fn fn, void *ud);
int      loop_timer_cancel(loop_t *lp, uint64_t id);   /* 1 if it was pending */
size_t   loop_timer_count(const loop_t *lp);

void     loop_signal(loop_t *lp, uint64_t token);
size_t   loop_take_signals(loop_t *lp, uint64_t *out, size_t max);
size_t   loop_pending_signals(const loop_t *lp);

/* Wait for at most max_wait_ms (< 0: no limit other than the next timer; if
 * there are no timers and no watches it returns at once) and dispatch what is
 * ready. Does not block when signals are pending. Returns the number of
 * callbacks run, or -1 with errno on a poll failure other than EINTR. */
int      loop_run_once(loop_t *lp, double max_wait_ms);

#endif
