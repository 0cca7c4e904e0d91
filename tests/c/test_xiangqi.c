/* Unit tests of src/xiangqi.c without Lua: perft, make/undo consistency, keys. */
#include "check.h"
#include "xiangqi.h"

#include <string.h>

/* walk the tree to depth d checking that undo restores the board exactly and
 * that the incremental key equals a fresh one */
static void walk(xq_board *b, int d)
{
    if (d == 0) return;
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_gen_moves(b, moves);
    for (int i = 0; i < n; i++) {
        uint8_t before[256];
        memcpy(before, b->sq, sizeof before);
        uint64_t key = b->key;
        xq_undo u;
        xq_do_move(b, moves[i], &u);
        CHECK(xq_is_ok(b), "board inconsistent after a move");
        walk(b, d - 1);
        xq_undo_move(b, &u);
        CHECK(memcmp(before, b->sq, sizeof before) == 0 && key == b->key, "undo did not restore the board");
    }
}

int main(void)
{
    xq_board b;
    char err[200], fen[160];
    CHECK(xq_from_fen(&b, XQ_START_FEN, err, sizeof err) == 0, "%s", err);
    CHECK(xq_perft(&b, 1) == 44, "perft 1");
    CHECK(xq_perft(&b, 2) == 1920, "perft 2");
    CHECK(xq_perft(&b, 3) == 79666, "perft 3");
    xq_to_fen(&b, fen, sizeof fen);
    CHECK(strcmp(fen, XQ_START_FEN) == 0, "FEN round trip: %s", fen);
    walk(&b, 3);

    /* the same position reached by two move orders has the same key */
    xq_board a, c;
    xq_from_fen(&a, XQ_START_FEN, err, sizeof err);
    xq_from_fen(&c, XQ_START_FEN, err, sizeof err);
    const char *order1[] = {"h2e2", "h9g7", "b0c2", "b9c7"}, *order2[] = {"b0c2", "b9c7", "h2e2", "h9g7"};
    for (int i = 0; i < 4; i++) {
        xq_move m1, m2;
        xq_parse_iccs(order1[i], &m1);
        xq_parse_iccs(order2[i], &m2);
        CHECK(xq_play(&a, m1) == 0, "play %s", order1[i]);
        CHECK(xq_play(&c, m2) == 0, "play %s", order2[i]);
    }
    CHECK(a.key == c.key, "transposition keys differ");
    CHECK(xq_unplay(&a) == 0 && xq_unplay(&a) == 0 && xq_unplay(&a) == 0 && xq_unplay(&a) == 0, "unplay");
    CHECK(xq_unplay(&a) == -1, "unplay past the start");
    xq_to_fen(&a, fen, sizeof fen);
    CHECK(strcmp(fen, XQ_START_FEN) == 0, "unplay restores the start: %s", fen);

    /* an illegal move is refused by xq_play and leaves no history */
    xq_move bad;
    xq_parse_iccs("h2h8", &bad);
    CHECK(xq_play(&a, bad) == -1 && a.nhist == 0, "illegal move accepted");
    CHECK(xq_parse_iccs("j0a0", &bad) == -1, "bad ICCS accepted");

    /* errors carry a message */
    CHECK(xq_from_fen(&b, "9/9 w", err, sizeof err) == -1 && strstr(err, "ranks"), "%s", err);
    return check_report("test_xiangqi");
}
