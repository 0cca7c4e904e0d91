/* Unit tests of src/loop.c: timer order, cancellation, fd readiness, signals. */
#include "check.h"
#include "loop.h"

#include <stdint.h>
#include <unistd.h>

static int fired[16], nfired;

static void on_timer(void *ud, uint64_t id)
{
    (void)id;
    fired[nfired++] = (int)(intptr_t)ud;
}

static int io_hits;
static void on_io(void *ud, int fd, int events)
{
    (void)ud;
    char c;
    if (events & LOOP_READ) io_hits += (int)read(fd, &c, 1);
}

int main(void)
{
    loop_t *lp = loop_default();
    double now = loop_now();
    /* added out of order; two share a due time and keep insertion order */
    loop_timer(lp, now + 3, on_timer, (void *)(intptr_t)3);
    loop_timer(lp, now + 1, on_timer, (void *)(intptr_t)1);
    uint64_t gone = loop_timer(lp, now + 2, on_timer, (void *)(intptr_t)99);
    loop_timer(lp, now + 2, on_timer, (void *)(intptr_t)2);
    loop_timer(lp, now + 2, on_timer, (void *)(intptr_t)22);
    CHECK(loop_timer_cancel(lp, gone) == 1, "cancel a pending timer");
    CHECK(loop_timer_cancel(lp, gone) == 0, "cancel twice");
    while (loop_timer_count(lp) > 0) loop_run_once(lp, -1);
    CHECK(nfired == 4, "fired %d", nfired);
    CHECK(fired[0] == 1 && fired[1] == 2 && fired[2] == 22 && fired[3] == 3, "order %d %d %d %d",
          fired[0], fired[1], fired[2], fired[3]);

    int p[2];
    CHECK(pipe(p) == 0, "pipe");
    loop_watch(lp, p[0], LOOP_READ, on_io, NULL);
    CHECK(loop_run_once(lp, 0) == 0 && io_hits == 0, "nothing to read yet");
    CHECK(write(p[1], "x", 1) == 1, "write");
    loop_run_once(lp, 100);
    CHECK(io_hits == 1, "read callback ran");
    loop_watch(lp, p[0], 0, NULL, NULL);

    uint64_t t1 = loop_token(lp), t2 = loop_token(lp), out[4];
    CHECK(t1 != t2 && t1 != 0, "tokens are distinct");
    loop_signal(lp, t1);
    loop_signal(lp, t2);
    CHECK(loop_take_signals(lp, out, 4) == 2 && out[0] == t1 && out[1] == t2, "signals in order");
    CHECK(loop_take_signals(lp, out, 4) == 0, "signals drained");
    loop_free(lp);
    return check_report("test_loop");
}
