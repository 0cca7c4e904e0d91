/* go_playout_peer.c — the peer for tabula's light playouts (bench/go.sh): a
 * plain textbook playout on 9x9 with no incremental state. Each candidate
 * point is tried by placing the stone and flood-filling the liberties of the
 * chains next to it; the policy is tabula's (uniform among legal points that
 * are not the mover's own eye, simple ko, two passes end it, 3 x 81 moves at
 * most). Prints "peer: N playouts in S s = R playouts/s (M moves each)".
 *   cc -O2 -o go_playout_peer bench/go_playout_peer.c && ./go_playout_peer [N] */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#define N 9
#define W (N + 2)
enum { EMPTY, BLACK, WHITE, EDGE };
static const int DIRS[4] = { -1, 1, -W, W };

static uint8_t board[W * W];
static int mark[W * W], stamp;

static uint64_t rng = 1;
static uint64_t next_rand(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* does the chain at p have a liberty? (flood fill) */
static int has_liberty(int p)
{
    int stack[W * W], sp = 0, c = board[p];
    stamp++;
    stack[sp++] = p; mark[p] = stamp;
    while (sp) {
        int q = stack[--sp];
        for (int d = 0; d < 4; d++) {
            int r = q + DIRS[d];
            if (board[r] == EMPTY) return 1;
            if (board[r] == c && mark[r] != stamp) { mark[r] = stamp; stack[sp++] = r; }
        }
    }
    return 0;
}

static int remove_chain(int p)
{
    int stack[W * W], sp = 0, c = board[p], n = 0;
    stack[sp++] = p; board[p] = EMPTY;
    while (sp) {
        int q = stack[--sp];
        n++;
        for (int d = 0; d < 4; d++)
            if (board[q + DIRS[d]] == c) { board[q + DIRS[d]] = EMPTY; stack[sp++] = q + DIRS[d]; }
    }
    return n;
}

static int is_eye(int p, int c)
{
    for (int d = 0; d < 4; d++)
        if (board[p + DIRS[d]] != c && board[p + DIRS[d]] != EDGE) return 0;
    static const int DIAG[4] = { -W - 1, -W + 1, W - 1, W + 1 };
    int enemy = 0, edge = 0;
    for (int d = 0; d < 4; d++) {
        int x = board[p + DIAG[d]];
        edge |= x == EDGE;
        enemy += x == 3 - c;
    }
    return enemy < (edge ? 1 : 2);
}

/* play c at p if legal (not suicide, not the ko point): captures; returns 0 if illegal */
static int try_play(int p, int c, int ko, int *new_ko)
{
    board[p] = (uint8_t)c;
    int taken = 0, last = 0;
    for (int d = 0; d < 4; d++) {
        int q = p + DIRS[d];
        if (board[q] == 3 - c && !has_liberty(q)) { last = q; taken += remove_chain(q); }
    }
    if (!taken && !has_liberty(p)) { board[p] = EMPTY; return 0; }
    if (p == ko) return 0;      /* a ko retake always captures one stone: undone by the caller's copy */
    int alone = 1, libs = 0;
    for (int d = 0; d < 4; d++) {
        alone &= board[p + DIRS[d]] != c;
        libs += board[p + DIRS[d]] == EMPTY;
    }
    *new_ko = taken == 1 && alone && libs == 1 ? last : 0;
    return 1;
}

static int playout(void)
{
    memset(board, EDGE, sizeof board);
    for (int y = 1; y <= N; y++)
        for (int x = 1; x <= N; x++) board[y * W + x] = EMPTY;
    int color = BLACK, passes = 0, ko = 0, moves = 0;
    while (passes < 2 && moves < 3 * N * N) {
        int cand[N * N], m = 0;
        for (int p = 0; p < W * W; p++)
            if (board[p] == EMPTY && !is_eye(p, color)) cand[m++] = p;
        int played = 0;
        while (m > 0 && !played) {
            int i = (int)(((next_rand() >> 32) * (uint64_t)m) >> 32);
            int p = cand[i], new_ko = 0;
            uint8_t saved[W * W];
            memcpy(saved, board, sizeof board);
            if (try_play(p, color, ko, &new_ko)) { played = 1; ko = new_ko; }
            else { memcpy(board, saved, sizeof board); cand[i] = cand[--m]; }
        }
        if (!played) { passes++; ko = 0; } else passes = 0;
        color = 3 - color;
        moves++;
    }
    return moves;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    struct timespec a, z;
    long moves = 0;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    for (int i = 0; i < n; i++) moves += playout();
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &z);
    double s = (double)(z.tv_sec - a.tv_sec) + (double)(z.tv_nsec - a.tv_nsec) / 1e9;
    printf("peer: %d playouts in %.2f s = %.0f playouts/s (%.1f moves each)\n", n, s, n / s, (double)moves / n);
    return 0;
}
