/* xiangqi.c — see xiangqi.h. */
#include "xiangqi.h"

#include <stdio.h>
#include <string.h>

static uint64_t zobrist[16][256];
static uint64_t zobrist_side;
static int initialized;

/* per-square facts, indexed [color][sq] */
static uint8_t in_palace[2][256];
static uint8_t elephant_point[2][256];
static uint8_t advisor_point[2][256];
static uint8_t own_half[2][256];
static uint8_t on_board[256];

static const int ORTH[4] = {1, -1, 16, -16};
static const int DIAG[4] = {17, 15, -15, -17};
/* horse: destination offset and the leg square (relative to the horse) */
static const int HORSE_TO[8]  = {33, 31, 18, 14, -14, -18, -31, -33};
static const int HORSE_LEG[8] = {16, 16, 1, -1, 1, -1, -16, -16};

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void xq_init(void)
{
    if (initialized) return;
    uint64_t seed = 0x7461627561ull;   /* fixed: keys are the same in every run */
    for (int p = 0; p < 16; p++)
        for (int s = 0; s < 256; s++) zobrist[p][s] = splitmix(&seed);
    zobrist_side = splitmix(&seed);
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 9; f++) {
            int sq = XQ_SQ(f, r);
            on_board[sq] = 1;
            own_half[XQ_RED][sq] = r <= 4;
            own_half[XQ_BLACK][sq] = r >= 5;
            if (f >= 3 && f <= 5) {
                in_palace[XQ_RED][sq] = r <= 2;
                in_palace[XQ_BLACK][sq] = r >= 7;
            }
        }
    static const int adv[5][2] = {{3, 0}, {5, 0}, {4, 1}, {3, 2}, {5, 2}};
    for (int i = 0; i < 5; i++) {
        advisor_point[XQ_RED][XQ_SQ(adv[i][0], adv[i][1])] = 1;
        advisor_point[XQ_BLACK][XQ_SQ(adv[i][0], 9 - adv[i][1])] = 1;
    }
    static const int ele[7][2] = {{2, 0}, {6, 0}, {0, 2}, {4, 2}, {8, 2}, {2, 4}, {6, 4}};
    for (int i = 0; i < 7; i++) {
        elephant_point[XQ_RED][XQ_SQ(ele[i][0], ele[i][1])] = 1;
        elephant_point[XQ_BLACK][XQ_SQ(ele[i][0], 9 - ele[i][1])] = 1;
    }
    initialized = 1;
}

char xq_piece_letter(uint8_t piece)
{
    static const char letters[] = " KABNRCP";
    char c = letters[XQ_TYPE(piece)];
    return XQ_COLOR(piece) ? (char)(c - 'A' + 'a') : c;
}

static void clear_board(xq_board *b)
{
    xq_init();
    memset(b, 0, sizeof *b);
    memset(b->sq, XQ_OFF, sizeof b->sq);
    for (int s = 0; s < 256; s++)
        if (on_board[s]) b->sq[s] = XQ_EMPTY;
    b->fullmove = 1;
}

static void put(xq_board *b, int sq, uint8_t piece)
{
    b->sq[sq] = piece;
    b->key ^= zobrist[piece][sq];
    if (XQ_TYPE(piece) == XQ_KING) b->king[XQ_COLOR(piece)] = sq;
}

static const char *const TYPE_NAME[8] = {"", "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier"};

static void sqname(int sq, char out[4])
{
    out[0] = (char)('a' + XQ_FILE(sq));
    out[1] = (char)('0' + XQ_RANK(sq));
    out[2] = 0;
}

int xq_check_placement(const xq_board *b, char *err, size_t errlen)
{
    static const int limit[8] = {0, 1, 2, 2, 2, 2, 2, 5};
    int count[2][8] = {{0}};
    for (int s = 0; s < 256; s++) {
        uint8_t p = b->sq[s];
        if (p == XQ_OFF || p == XQ_EMPTY) continue;
        int c = XQ_COLOR(p), t = XQ_TYPE(p);
        const char *side = c ? "Black" : "Red";
        char name[4];
        sqname(s, name);
        count[c][t]++;
        if (t == XQ_KING && !in_palace[c][s]) {
            snprintf(err, errlen, "%s general (%c) on %s is outside the palace", side, xq_piece_letter(p), name);
            return -1;
        }
        if (t == XQ_ADVISOR && !advisor_point[c][s]) {
            snprintf(err, errlen, "%s advisor (%c) on %s is not on one of the palace's five advisor points", side, xq_piece_letter(p), name);
            return -1;
        }
        if (t == XQ_ELEPHANT && !elephant_point[c][s]) {
            snprintf(err, errlen, "%s elephant (%c) on %s is not on one of its seven elephant points", side, xq_piece_letter(p), name);
            return -1;
        }
    }
    for (int c = 0; c < 2; c++) {
        const char *side = c ? "Black" : "Red";
        if (count[c][XQ_KING] == 0) {
            snprintf(err, errlen, "%s has no general (%c)", side, c ? 'k' : 'K');
            return -1;
        }
        for (int t = 1; t < 8; t++)
            if (count[c][t] > limit[t]) {
                snprintf(err, errlen, "%s has %d %ss (at most %d)", side, count[c][t], TYPE_NAME[t], limit[t]);
                return -1;
            }
    }
    return 0;
}

/* After the placement is known good: generals must not face, and the side that
 * just moved must not be in check. */
static int check_position(xq_board *b, char *err, size_t errlen)
{
    if (xq_check_placement(b, err, errlen)) return -1;
    int rk = b->king[XQ_RED], bk = b->king[XQ_BLACK];
    if (XQ_FILE(rk) == XQ_FILE(bk)) {
        int s = rk + 16;
        while (s != bk && b->sq[s] == XQ_EMPTY) s += 16;
        if (s == bk) {
            snprintf(err, errlen, "the generals face each other on file %c with nothing between them", 'a' + XQ_FILE(rk));
            return -1;
        }
    }
    if (xq_side_in_check(b, !b->side)) {
        snprintf(err, errlen, "%s is in check but it is %s's turn", b->side ? "Red" : "Black", b->side ? "Black" : "Red");
        return -1;
    }
    return 0;
}

static int letter_piece(char ch)
{
    switch (ch) {
    case 'K': return XQ_KING;     case 'k': return XQ_KING | XQ_BLACK_BIT;
    case 'A': return XQ_ADVISOR;  case 'a': return XQ_ADVISOR | XQ_BLACK_BIT;
    case 'B': case 'E': return XQ_ELEPHANT; case 'b': case 'e': return XQ_ELEPHANT | XQ_BLACK_BIT;
    case 'N': case 'H': return XQ_HORSE;    case 'n': case 'h': return XQ_HORSE | XQ_BLACK_BIT;
    case 'R': return XQ_ROOK;     case 'r': return XQ_ROOK | XQ_BLACK_BIT;
    case 'C': return XQ_CANNON;   case 'c': return XQ_CANNON | XQ_BLACK_BIT;
    case 'P': return XQ_PAWN;     case 'p': return XQ_PAWN | XQ_BLACK_BIT;
    default: return -1;
    }
}

static const char *ordinal(int n)
{
    static const char *const o[] = {"1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th"};
    return n >= 1 && n <= 10 ? o[n - 1] : "?";
}

int xq_from_fen(xq_board *b, const char *fen, char *err, size_t errlen)
{
    clear_board(b);
    const char *p = fen;
    while (*p == ' ') p++;
    int row = 0, file = 0;    /* row 0 is the top line (rank 9) */
    for (; *p && *p != ' '; p++) {
        char ch = *p;
        if (ch == '/') {
            if (file != 9) {
                snprintf(err, errlen, "rank %d (the %s line from the top) describes %d files, expected 9", 9 - row, ordinal(row + 1), file);
                return -1;
            }
            row++;
            file = 0;
            if (row > 9) {
                snprintf(err, errlen, "the board has more than 10 ranks");
                return -1;
            }
            continue;
        }
        if (ch >= '1' && ch <= '9') { file += ch - '0'; if (file > 9) goto long_rank; continue; }
        int piece = letter_piece(ch);
        if (piece < 0) {
            snprintf(err, errlen, "unknown piece letter '%c' in rank %d (the %s line from the top); use KABNRCP / kabnrcp", ch, 9 - row, ordinal(row + 1));
            return -1;
        }
        if (file >= 9) goto long_rank;
        int sq = XQ_SQ(file, 9 - row);
        if (XQ_TYPE(piece) == XQ_KING && b->sq[b->king[XQ_COLOR(piece)]] == piece && b->king[XQ_COLOR(piece)]) {
            snprintf(err, errlen, "%s has more than one general", XQ_COLOR(piece) ? "Black" : "Red");
            return -1;
        }
        put(b, sq, (uint8_t)piece);
        file++;
    }
    if (row != 9) {
        snprintf(err, errlen, "the board has %d ranks, expected 10 separated by '/'", row + 1);
        return -1;
    }
    if (file != 9) {
        snprintf(err, errlen, "rank 0 (the 10th line from the top) describes %d files, expected 9", file);
        return -1;
    }
    while (*p == ' ') p++;
    if (*p == 'w' || *p == 'W' || *p == 'r' || *p == 'R') b->side = XQ_RED;
    else if (*p == 'b' || *p == 'B') b->side = XQ_BLACK;
    else if (*p == 0) { snprintf(err, errlen, "the side to move is missing (w for Red, b for Black)"); return -1; }
    else { snprintf(err, errlen, "the side to move must be w (or r) for Red or b for Black, got '%c'", *p); return -1; }
    p++;
    if (*p && *p != ' ') { snprintf(err, errlen, "the side to move must be a single letter"); return -1; }
    if (b->side) b->key ^= zobrist_side;
    /* optional "- - halfmove fullmove" */
    int half = 0, full = 1;
    if (sscanf(p, " %*s %*s %d %d", &half, &full) == 2 && half >= 0 && full >= 1) {
        b->halfmove = half;
        b->fullmove = full;
    }
    return check_position(b, err, errlen);
long_rank:
    snprintf(err, errlen, "rank %d (the %s line from the top) describes more than 9 files", 9 - row, ordinal(row + 1));
    return -1;
}

int xq_from_pieces(xq_board *b, const int *squares, const uint8_t *pieces, int n, int side,
                   char *err, size_t errlen)
{
    clear_board(b);
    for (int i = 0; i < n; i++) {
        int s = squares[i];
        char name[4];
        if (s < 0 || s > 255 || !on_board[s]) { snprintf(err, errlen, "square %d is off the board", s); return -1; }
        sqname(s, name);
        if (b->sq[s] != XQ_EMPTY) { snprintf(err, errlen, "two pieces on %s", name); return -1; }
        if (XQ_TYPE(pieces[i]) == XQ_KING && b->king[XQ_COLOR(pieces[i])]) {
            snprintf(err, errlen, "%s has more than one general", XQ_COLOR(pieces[i]) ? "Black" : "Red");
            return -1;
        }
        put(b, s, pieces[i]);
    }
    b->side = side;
    if (side) b->key ^= zobrist_side;
    return check_position(b, err, errlen);
}

void xq_to_fen(const xq_board *b, char *out, size_t outlen)
{
    char buf[128];
    size_t n = 0;
    for (int r = 9; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 9; f++) {
            uint8_t p = b->sq[XQ_SQ(f, r)];
            if (p == XQ_EMPTY) { empty++; continue; }
            if (empty) { buf[n++] = (char)('0' + empty); empty = 0; }
            buf[n++] = xq_piece_letter(p);
        }
        if (empty) buf[n++] = (char)('0' + empty);
        if (r) buf[n++] = '/';
    }
    buf[n] = 0;
    snprintf(out, outlen, "%s %c - - %d %d", buf, b->side ? 'b' : 'w', b->halfmove, b->fullmove);
}

/* ---- attacks ---- */

/* Is the general of `color` attacked (including by the facing enemy general)? */
static int king_attacked(const xq_board *b, int color)
{
    int k = b->king[color];
    int them = (!color) << 3;
    const uint8_t *sq = b->sq;
    /* chariots, cannons and the facing general along the four lines */
    for (int d = 0; d < 4; d++) {
        int step = ORTH[d], s = k + step;
        while (sq[s] == XQ_EMPTY) s += step;
        if (sq[s] == XQ_OFF) continue;
        uint8_t p = sq[s];
        if (p == (XQ_ROOK | them)) return 1;
        if (p == (XQ_KING | them)) return 1;           /* only possible along the file */
        s += step;
        while (sq[s] == XQ_EMPTY) s += step;
        if (sq[s] == (XQ_CANNON | them)) return 1;
    }
    /* horses: the leg is the diagonal neighbour of the general toward the horse */
    for (int d = 0; d < 4; d++) {
        int leg = k + DIAG[d];
        if (sq[leg] != XQ_EMPTY) continue;
        int dx = (DIAG[d] == 17 || DIAG[d] == -15) ? 1 : -1;
        int dy = DIAG[d] > 0 ? 16 : -16;
        if (sq[leg + dx] == (XQ_HORSE | them) || sq[leg + dy] == (XQ_HORSE | them)) return 1;
    }
    /* soldiers: in front of the general, or beside it */
    int fwd = color == XQ_RED ? 16 : -16;             /* enemy soldiers come from this direction */
    if (sq[k + fwd] == (XQ_PAWN | them)) return 1;
    if (sq[k + 1] == (XQ_PAWN | them) || sq[k - 1] == (XQ_PAWN | them)) return 1;  /* a soldier in the palace has crossed */
    return 0;
}

int xq_side_in_check(const xq_board *b, int color) { return king_attacked(b, color); }
int xq_in_check(const xq_board *b) { return king_attacked(b, b->side); }

/* ---- move generation ---- */

/* The pseudo-legal moves of `side`, in one fixed order (squares rank by rank,
 * then each piece's directions): all of them (GEN_ALL), only captures
 * (GEN_CAPTURES, the same moves in the same relative order), or with out
 * unused, their number (GEN_COUNT) or that of `side` minus the other side's
 * (GEN_BALANCE, both sides in one pass). Inlined with a constant mode, so each
 * caller gets its own loop. */
enum { GEN_ALL, GEN_CAPTURES, GEN_COUNT, GEN_BALANCE };

static inline __attribute__((always_inline))
int gen(const xq_board *b, int side, xq_move *out, int mode)
{
    int n = 0, one = 1;
    const uint8_t *sq = b->sq;
#define OWN(p) ((p) != XQ_EMPTY && (p) != XQ_OFF && XQ_COLOR(p) == us)
    /* t holds nothing of ours and is on the board */
#define ADD(f, t) do { \
        if (mode >= GEN_COUNT) n += one; \
        else if (mode == GEN_ALL || sq[t] != XQ_EMPTY) out[n++] = XQ_MOVE(f, t); \
    } while (0)
    /* a slider's run of empty squares from s along step; t ends on the first non-empty */
#define RUN(s, t, step) do { \
        if (mode == GEN_ALL) while (sq[t] == XQ_EMPTY) { out[n++] = XQ_MOVE(s, t); t += (step); } \
        else if (mode >= GEN_COUNT) while (sq[t] == XQ_EMPTY) { n += one; t += (step); } \
        else while (sq[t] == XQ_EMPTY) t += (step); \
    } while (0)
    for (int r = 0; r < 10; r++) {
        for (int s = XQ_SQ(0, r), e = s + 9; s < e; s++) {
            uint8_t p = sq[s];
            if (p == XQ_EMPTY) continue;
            int us = XQ_COLOR(p);
            if (mode == GEN_BALANCE) one = us == side ? 1 : -1;
            else if (us != side) continue;
            switch (XQ_TYPE(p)) {
            case XQ_KING:
                for (int d = 0; d < 4; d++) {
                    int t = s + ORTH[d];
                    if (in_palace[us][t] && !OWN(sq[t])) ADD(s, t);
                }
                break;
            case XQ_ADVISOR:
                for (int d = 0; d < 4; d++) {
                    int t = s + DIAG[d];
                    if (in_palace[us][t] && !OWN(sq[t])) ADD(s, t);
                }
                break;
            case XQ_ELEPHANT:
                for (int d = 0; d < 4; d++) {
                    int eye = s + DIAG[d], t = eye + DIAG[d];
                    if (sq[eye] == XQ_EMPTY && own_half[us][t] && !OWN(sq[t])) ADD(s, t);
                }
                break;
            case XQ_HORSE:
                for (int d = 0; d < 8; d++) {
                    int t = s + HORSE_TO[d];
                    if (sq[s + HORSE_LEG[d]] == XQ_EMPTY && sq[t] != XQ_OFF && !OWN(sq[t])) ADD(s, t);
                }
                break;
            case XQ_ROOK:
                for (int d = 0; d < 4; d++) {
                    int t = s + ORTH[d];
                    RUN(s, t, ORTH[d]);
                    if (sq[t] != XQ_OFF && !OWN(sq[t])) ADD(s, t);
                }
                break;
            case XQ_CANNON:
                for (int d = 0; d < 4; d++) {
                    int t = s + ORTH[d];
                    RUN(s, t, ORTH[d]);
                    if (sq[t] == XQ_OFF) continue;
                    t += ORTH[d];
                    while (sq[t] == XQ_EMPTY) t += ORTH[d];
                    if (sq[t] != XQ_OFF && !OWN(sq[t])) ADD(s, t);
                }
                break;
            case XQ_PAWN: {
                int fwd = us == XQ_RED ? 16 : -16;
                if (sq[s + fwd] != XQ_OFF && !OWN(sq[s + fwd])) ADD(s, s + fwd);
                if (!own_half[us][s]) {
                    if (sq[s + 1] != XQ_OFF && !OWN(sq[s + 1])) ADD(s, s + 1);
                    if (sq[s - 1] != XQ_OFF && !OWN(sq[s - 1])) ADD(s, s - 1);
                }
                break;
            }
            default: break;
            }
        }
    }
#undef OWN
#undef ADD
#undef RUN
    return n;
}

int xq_gen_pseudo(const xq_board *b, xq_move *out) { return gen(b, b->side, out, GEN_ALL); }
int xq_gen_captures(const xq_board *b, xq_move *out) { return gen(b, b->side, out, GEN_CAPTURES); }
int xq_count_pseudo(const xq_board *b, int color) { return gen(b, color, NULL, GEN_COUNT); }
int xq_mobility(const xq_board *b) { return gen(b, b->side, NULL, GEN_BALANCE); }

void xq_do_move(xq_board *b, xq_move m, xq_undo *u)
{
    int from = XQ_FROM(m), to = XQ_TO(m);
    uint8_t p = b->sq[from], cap = b->sq[to];
    u->move = m;
    u->captured = cap;
    u->halfmove = b->halfmove;
    u->key = b->key;
    b->key ^= zobrist[p][from] ^ zobrist[p][to] ^ zobrist_side;
    if (cap) b->key ^= zobrist[cap][to];
    b->sq[to] = p;
    b->sq[from] = XQ_EMPTY;
    if (XQ_TYPE(p) == XQ_KING) b->king[b->side] = to;
    b->halfmove = cap ? 0 : b->halfmove + 1;
    if (b->side == XQ_BLACK) b->fullmove++;
    b->side ^= 1;
}

void xq_do_null(xq_board *b)
{
    b->key ^= zobrist_side;
    b->side ^= 1;
}

void xq_undo_null(xq_board *b) { xq_do_null(b); }

void xq_undo_move(xq_board *b, const xq_undo *u)
{
    int from = XQ_FROM(u->move), to = XQ_TO(u->move);
    b->side ^= 1;
    if (b->side == XQ_BLACK) b->fullmove--;
    uint8_t p = b->sq[to];
    b->sq[from] = p;
    b->sq[to] = u->captured;
    if (XQ_TYPE(p) == XQ_KING) b->king[b->side] = from;
    b->halfmove = u->halfmove;
    b->key = u->key;
}

int xq_gen_moves(xq_board *b, xq_move *out)
{
    xq_move pseudo[XQ_MAX_MOVES];
    int np = xq_gen_pseudo(b, pseudo), n = 0, us = b->side;
    xq_undo u;
    for (int i = 0; i < np; i++) {
        xq_do_move(b, pseudo[i], &u);
        if (!king_attacked(b, us)) out[n++] = pseudo[i];
        xq_undo_move(b, &u);
    }
    return n;
}

int xq_has_legal_move(xq_board *b)
{
    xq_move pseudo[XQ_MAX_MOVES];
    int np = xq_gen_pseudo(b, pseudo), us = b->side;
    xq_undo u;
    for (int i = 0; i < np; i++) {
        xq_do_move(b, pseudo[i], &u);
        int bad = king_attacked(b, us);
        xq_undo_move(b, &u);
        if (!bad) return 1;
    }
    return 0;
}

int xq_is_legal(xq_board *b, xq_move m)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_gen_moves(b, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m) return 1;
    return 0;
}

int xq_gives_check(xq_board *b, xq_move m)
{
    xq_undo u;
    xq_do_move(b, m, &u);
    int c = king_attacked(b, b->side);
    xq_undo_move(b, &u);
    return c;
}

xq_status xq_status_of(xq_board *b)
{
    xq_move moves[XQ_MAX_MOVES];
    return xq_gen_moves(b, moves) == 0 ? XQ_NO_MOVES : XQ_ONGOING;
}

int xq_play(xq_board *b, xq_move m)
{
    if (b->nhist >= XQ_MAX_HISTORY || !xq_is_legal(b, m)) return -1;
    int i = b->nhist++;
    b->hist_key[i] = b->key;
    b->hist_move[i] = m;
    b->hist_captured[i] = b->sq[XQ_TO(m)];
    b->hist_halfmove[i] = (uint16_t)b->halfmove;
    xq_undo u;
    xq_do_move(b, m, &u);
    b->hist_check[i] = (uint8_t)king_attacked(b, b->side);
    return 0;
}

int xq_unplay(xq_board *b)
{
    if (b->nhist == 0) return -1;
    int i = --b->nhist;
    xq_undo u = {b->hist_move[i], b->hist_captured[i], b->hist_halfmove[i], b->hist_key[i]};
    xq_undo_move(b, &u);
    return 0;
}

void xq_repetition_of(const xq_board *b, xq_repetition *r)
{
    memset(r, 0, sizeof *r);
    r->occurrences = 1;
    r->first_ply = b->nhist;
    /* positions are hist_key[0..nhist-1] and the current key */
    for (int i = b->nhist - 1; i >= 0; i--)
        if (b->hist_key[i] == b->key) { r->occurrences++; r->first_ply = i; }
    if (r->occurrences < 3) return;
    /* moves first_ply .. nhist-1 were made since the first occurrence; the
     * mover of move i is the side to move in position i */
    int mover = b->side;
    for (int i = b->nhist - 1; i >= r->first_ply; i--) {
        mover ^= 1;
        if (mover == XQ_RED) { r->red_moves++; r->red_checks += b->hist_check[i]; }
        else { r->black_moves++; r->black_checks += b->hist_check[i]; }
    }
    int red_perpetual = r->red_moves > 0 && r->red_checks == r->red_moves;
    int black_perpetual = r->black_moves > 0 && r->black_checks == r->black_moves;
    if (red_perpetual && !black_perpetual) r->result = XQ_REP_RED_LOSES;
    else if (black_perpetual && !red_perpetual) r->result = XQ_REP_BLACK_LOSES;
    else r->result = XQ_REP_DRAW;
}

uint64_t xq_perft(xq_board *b, int depth)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_gen_moves(b, moves);
    if (depth <= 1) return depth <= 0 ? 1 : (uint64_t)n;
    uint64_t total = 0;
    xq_undo u;
    for (int i = 0; i < n; i++) {
        xq_do_move(b, moves[i], &u);
        total += xq_perft(b, depth - 1);
        xq_undo_move(b, &u);
    }
    return total;
}

int xq_parse_iccs(const char *s, xq_move *m)
{
    if (strlen(s) != 4) return -1;
    int f1 = s[0] - 'a', r1 = s[1] - '0', f2 = s[2] - 'a', r2 = s[3] - '0';
    if (f1 < 0 || f1 > 8 || f2 < 0 || f2 > 8 || r1 < 0 || r1 > 9 || r2 < 0 || r2 > 9) return -1;
    *m = XQ_MOVE(XQ_SQ(f1, r1), XQ_SQ(f2, r2));
    return 0;
}

void xq_format_iccs(xq_move m, char out[5])
{
    out[0] = (char)('a' + XQ_FILE(XQ_FROM(m)));
    out[1] = (char)('0' + XQ_RANK(XQ_FROM(m)));
    out[2] = (char)('a' + XQ_FILE(XQ_TO(m)));
    out[3] = (char)('0' + XQ_RANK(XQ_TO(m)));
    out[4] = 0;
}

int xq_is_ok(const xq_board *b)
{
    uint64_t key = b->side ? zobrist_side : 0;
    int kings[2] = {0, 0};
    for (int s = 0; s < 256; s++) {
        uint8_t p = b->sq[s];
        if (!on_board[s]) { if (p != XQ_OFF) return 0; continue; }
        if (p == XQ_OFF) return 0;
        if (p == XQ_EMPTY) continue;
        key ^= zobrist[p][s];
        if (XQ_TYPE(p) == XQ_KING) { kings[XQ_COLOR(p)]++; if (b->king[XQ_COLOR(p)] != s) return 0; }
    }
    return key == b->key && kings[0] == 1 && kings[1] == 1;
}
