/* chess.c — see chess.h. */
#include "chess.h"

#include <stdio.h>
#include <string.h>

static uint64_t z_piece[16][128], z_side, z_castle[16], z_ep[8];
static int z_ready;

static const int KNIGHT[8] = {33, 31, 18, 14, -14, -18, -31, -33};
static const int KING[8] = {1, -1, 16, -16, 17, 15, -15, -17};
static const int BISHOP_DIRS[4] = {17, 15, -15, -17};
static const int ROOK_DIRS[4] = {1, -1, 16, -16};

#define ON(s) (((s) & 0x88) == 0)

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void init_keys(void)
{
    if (z_ready) return;
    uint64_t seed = 0x636865737321ull;
    for (int p = 0; p < 16; p++)
        for (int s = 0; s < 128; s++) z_piece[p][s] = splitmix(&seed);
    z_side = splitmix(&seed);
    for (int i = 0; i < 16; i++) z_castle[i] = splitmix(&seed);
    for (int i = 0; i < 8; i++) z_ep[i] = splitmix(&seed);
    z_ready = 1;
}

/* the ep square only counts in the key when a capture there is possible */
static int ep_capturable(const ch_board *b)
{
    if (b->ep < 0) return 0;
    int us = b->side, pawn = CH_PAWN | (us << 3);
    int from_rank = us == CH_WHITE ? -16 : 16;
    int a = b->ep + from_rank - 1, c = b->ep + from_rank + 1;
    return (ON(a) && b->sq[a] == pawn) || (ON(c) && b->sq[c] == pawn);
}

static uint64_t compute_key(const ch_board *b)
{
    uint64_t k = 0;
    for (int s = 0; s < 128; s++)
        if (ON(s) && b->sq[s]) k ^= z_piece[b->sq[s]][s];
    if (b->side) k ^= z_side;
    return k ^ z_castle[b->castling];
}

uint64_t ch_position_key(const ch_board *b)
{
    return ep_capturable(b) ? b->key ^ z_ep[CH_FILE(b->ep)] : b->key;
}

static int piece_of(char c)
{
    const char *w = "PNBRQK", *bl = "pnbrqk";
    const char *p = strchr(w, c);
    if (p && c) return (int)(p - w) + 1;
    p = strchr(bl, c);
    if (p && c) return ((int)(p - bl) + 1) | CH_BLACK_BIT;
    return -1;
}

int ch_attacked(const ch_board *b, int sq, int by)
{
    const uint8_t *s = b->sq;
    int them = by << 3;
    /* pawns */
    int dir = by == CH_WHITE ? -16 : 16;      /* from sq back toward the attacker's pawns */
    int p1 = sq + dir - 1, p2 = sq + dir + 1;
    if (ON(p1) && s[p1] == (CH_PAWN | them)) return 1;
    if (ON(p2) && s[p2] == (CH_PAWN | them)) return 1;
    for (int i = 0; i < 8; i++) {
        int t = sq + KNIGHT[i];
        if (ON(t) && s[t] == (CH_KNIGHT | them)) return 1;
        t = sq + KING[i];
        if (ON(t) && s[t] == (CH_KING | them)) return 1;
    }
    for (int i = 0; i < 4; i++) {
        int t = sq + BISHOP_DIRS[i];
        while (ON(t) && !s[t]) t += BISHOP_DIRS[i];
        if (ON(t) && (s[t] == (CH_BISHOP | them) || s[t] == (CH_QUEEN | them))) return 1;
        t = sq + ROOK_DIRS[i];
        while (ON(t) && !s[t]) t += ROOK_DIRS[i];
        if (ON(t) && (s[t] == (CH_ROOK | them) || s[t] == (CH_QUEEN | them))) return 1;
    }
    return 0;
}

int ch_in_check(const ch_board *b) { return ch_attacked(b, b->king[b->side], !b->side); }

int ch_from_fen(ch_board *b, const char *fen, char *err, size_t errlen)
{
    init_keys();
    memset(b, 0, sizeof *b);
    b->ep = -1;
    b->king[0] = b->king[1] = -1;
    const char *p = fen;
    while (*p == ' ') p++;
    int rank = 7, file = 0, kings[2] = {0, 0};
    for (; *p && *p != ' '; p++) {
        if (*p == '/') {
            if (file != 8) { snprintf(err, errlen, "rank %d has %d squares, expected 8", rank + 1, file); return -1; }
            if (--rank < 0) { snprintf(err, errlen, "more than 8 ranks"); return -1; }
            file = 0;
            continue;
        }
        if (*p >= '1' && *p <= '8') { file += *p - '0'; if (file > 8) goto long_rank; continue; }
        int pc = piece_of(*p);
        if (pc < 0) { snprintf(err, errlen, "unknown piece letter '%c' in rank %d", *p, rank + 1); return -1; }
        if (file >= 8) goto long_rank;
        if (CH_TYPE(pc) == CH_PAWN && (rank == 0 || rank == 7)) {
            snprintf(err, errlen, "a pawn on %c%d (the first or last rank)", 'a' + file, rank + 1);
            return -1;
        }
        if (CH_TYPE(pc) == CH_KING) { kings[CH_COLOR(pc)]++; b->king[CH_COLOR(pc)] = CH_SQ(file, rank); }
        b->sq[CH_SQ(file, rank)] = (uint8_t)pc;
        file++;
    }
    if (rank != 0) { snprintf(err, errlen, "the board has %d ranks, expected 8", 8 - rank); return -1; }
    if (file != 8) { snprintf(err, errlen, "rank 1 has %d squares, expected 8", file); return -1; }
    for (int c = 0; c < 2; c++)
        if (kings[c] != 1) {
            snprintf(err, errlen, "%s has %d kings", c ? "Black" : "White", kings[c]);
            return -1;
        }
    while (*p == ' ') p++;
    if (*p == 'w') b->side = CH_WHITE;
    else if (*p == 'b') b->side = CH_BLACK;
    else { snprintf(err, errlen, "the side to move must be w or b"); return -1; }
    p++;
    while (*p == ' ') p++;
    if (*p && *p != '-') {
        for (; *p && *p != ' '; p++) {
            int bit = *p == 'K' ? CH_WK : *p == 'Q' ? CH_WQ : *p == 'k' ? CH_BK : *p == 'q' ? CH_BQ : 0;
            if (!bit) { snprintf(err, errlen, "bad castling field character '%c'", *p); return -1; }
            b->castling |= bit;
        }
    } else if (*p == '-') p++;
    /* drop rights the position cannot have (king or rook not at home) */
    if (b->sq[CH_SQ(4, 0)] != CH_KING) b->castling &= ~(CH_WK | CH_WQ);
    if (b->sq[CH_SQ(7, 0)] != CH_ROOK) b->castling &= ~CH_WK;
    if (b->sq[CH_SQ(0, 0)] != CH_ROOK) b->castling &= ~CH_WQ;
    if (b->sq[CH_SQ(4, 7)] != (CH_KING | CH_BLACK_BIT)) b->castling &= ~(CH_BK | CH_BQ);
    if (b->sq[CH_SQ(7, 7)] != (CH_ROOK | CH_BLACK_BIT)) b->castling &= ~CH_BK;
    if (b->sq[CH_SQ(0, 7)] != (CH_ROOK | CH_BLACK_BIT)) b->castling &= ~CH_BQ;
    while (*p == ' ') p++;
    if (*p && *p != '-') {
        if (p[0] < 'a' || p[0] > 'h' || (p[1] != '3' && p[1] != '6')) {
            snprintf(err, errlen, "bad en passant square '%.2s'", p);
            return -1;
        }
        b->ep = CH_SQ(p[0] - 'a', p[1] - '1');
        p += 2;
    } else if (*p == '-') p++;
    int half = 0, full = 1;
    if (sscanf(p, "%d %d", &half, &full) >= 1) {
        b->halfmove = half > 0 ? half : 0;
        b->fullmove = full > 0 ? full : 1;
    } else {
        b->fullmove = 1;
    }
    if (ch_attacked(b, b->king[!b->side], b->side)) {
        snprintf(err, errlen, "%s is in check but it is %s's turn", b->side ? "White" : "Black", b->side ? "Black" : "White");
        return -1;
    }
    b->key = compute_key(b);
    return 0;
long_rank:
    snprintf(err, errlen, "rank %d has more than 8 squares", rank + 1);
    return -1;
}

void ch_to_fen(const ch_board *b, char *out, size_t outlen)
{
    char buf[100];
    size_t n = 0;
    const char *letters = " PNBRQK";
    for (int r = 7; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 8; f++) {
            uint8_t p = b->sq[CH_SQ(f, r)];
            if (!p) { empty++; continue; }
            if (empty) { buf[n++] = (char)('0' + empty); empty = 0; }
            char c = letters[CH_TYPE(p)];
            buf[n++] = CH_COLOR(p) ? (char)(c - 'A' + 'a') : c;
        }
        if (empty) buf[n++] = (char)('0' + empty);
        if (r) buf[n++] = '/';
    }
    buf[n] = 0;
    char cast[5];
    int k = 0;
    if (b->castling & CH_WK) cast[k++] = 'K';
    if (b->castling & CH_WQ) cast[k++] = 'Q';
    if (b->castling & CH_BK) cast[k++] = 'k';
    if (b->castling & CH_BQ) cast[k++] = 'q';
    if (!k) cast[k++] = '-';
    cast[k] = 0;
    char ep[3] = "-";
    if (b->ep >= 0) { ep[0] = (char)('a' + CH_FILE(b->ep)); ep[1] = (char)('1' + CH_RANK(b->ep)); ep[2] = 0; }
    snprintf(out, outlen, "%s %c %s %s %d %d", buf, b->side ? 'b' : 'w', cast, ep, b->halfmove, b->fullmove);
}

static ch_move mk(int from, int to, int promo, int flags)
{
    return (ch_move)from | (ch_move)to << 7 | (ch_move)promo << 14 | (ch_move)flags << 17;
}

static int gen_pseudo(const ch_board *b, ch_move *out)
{
    int n = 0, us = b->side, them = !us;
    const uint8_t *s = b->sq;
    int fwd = us == CH_WHITE ? 16 : -16, start_rank = us == CH_WHITE ? 1 : 6, last_rank = us == CH_WHITE ? 7 : 0;
    for (int sq = 0; sq < 128; sq++) {
        if (!ON(sq)) { sq += 7; continue; }
        uint8_t p = s[sq];
        if (!p || CH_COLOR(p) != us) continue;
        switch (CH_TYPE(p)) {
        case CH_PAWN: {
            int t = sq + fwd;
            if (ON(t) && !s[t]) {
                if (CH_RANK(t) == last_rank) {
                    for (int pr = CH_QUEEN; pr >= CH_KNIGHT; pr--) out[n++] = mk(sq, t, pr, 0);
                } else {
                    out[n++] = mk(sq, t, 0, 0);
                    if (CH_RANK(sq) == start_rank && !s[t + fwd]) out[n++] = mk(sq, t + fwd, 0, CH_F_DOUBLE);
                }
            }
            for (int d = -1; d <= 1; d += 2) {
                int c = sq + fwd + d;
                if (!ON(c)) continue;
                if (s[c] && CH_COLOR(s[c]) == them) {
                    if (CH_RANK(c) == last_rank)
                        for (int pr = CH_QUEEN; pr >= CH_KNIGHT; pr--) out[n++] = mk(sq, c, pr, CH_F_CAPTURE);
                    else out[n++] = mk(sq, c, 0, CH_F_CAPTURE);
                } else if (c == b->ep) {
                    out[n++] = mk(sq, c, 0, CH_F_CAPTURE | CH_F_EP);
                }
            }
            break;
        }
        case CH_KNIGHT:
        case CH_KING: {
            const int *d = CH_TYPE(p) == CH_KNIGHT ? KNIGHT : KING;
            for (int i = 0; i < 8; i++) {
                int t = sq + d[i];
                if (!ON(t)) continue;
                if (!s[t]) out[n++] = mk(sq, t, 0, 0);
                else if (CH_COLOR(s[t]) == them) out[n++] = mk(sq, t, 0, CH_F_CAPTURE);
            }
            if (CH_TYPE(p) == CH_KING) {
                int r = us == CH_WHITE ? 0 : 7;
                int ks = us == CH_WHITE ? CH_WK : CH_BK, qs = us == CH_WHITE ? CH_WQ : CH_BQ;
                if ((b->castling & ks) && !s[CH_SQ(5, r)] && !s[CH_SQ(6, r)] && !ch_attacked(b, CH_SQ(4, r), them) &&
                    !ch_attacked(b, CH_SQ(5, r), them) && !ch_attacked(b, CH_SQ(6, r), them))
                    out[n++] = mk(sq, CH_SQ(6, r), 0, CH_F_CASTLE);
                if ((b->castling & qs) && !s[CH_SQ(3, r)] && !s[CH_SQ(2, r)] && !s[CH_SQ(1, r)] &&
                    !ch_attacked(b, CH_SQ(4, r), them) && !ch_attacked(b, CH_SQ(3, r), them) &&
                    !ch_attacked(b, CH_SQ(2, r), them))
                    out[n++] = mk(sq, CH_SQ(2, r), 0, CH_F_CASTLE);
            }
            break;
        }
        default: {
            int t0 = CH_TYPE(p);
            for (int i = 0; i < 8; i++) {
                int d;
                if (i < 4) { if (t0 == CH_ROOK) continue; d = BISHOP_DIRS[i]; }
                else { if (t0 == CH_BISHOP) continue; d = ROOK_DIRS[i - 4]; }
                int t = sq + d;
                while (ON(t) && !s[t]) { out[n++] = mk(sq, t, 0, 0); t += d; }
                if (ON(t) && CH_COLOR(s[t]) == them) out[n++] = mk(sq, t, 0, CH_F_CAPTURE);
            }
        }
        }
    }
    return n;
}

static int castle_mask(int sq)
{
    switch (sq) {
    case 0x00: return ~CH_WQ & 15;
    case 0x07: return ~CH_WK & 15;
    case 0x04: return ~(CH_WK | CH_WQ) & 15;
    case 0x70: return ~CH_BQ & 15;
    case 0x77: return ~CH_BK & 15;
    case 0x74: return ~(CH_BK | CH_BQ) & 15;
    default: return 15;
    }
}

void ch_do_move(ch_board *b, ch_move m, ch_undo *u)
{
    int from = CH_FROM(m), to = CH_TO(m), flags = CH_FLAGS(m), promo = CH_PROMO(m);
    uint8_t p = b->sq[from];
    uint64_t k = b->key;
    u->move = m;
    u->castling = b->castling;
    u->ep = b->ep;
    u->halfmove = b->halfmove;
    u->key = k;
    u->captured = 0;
    if (flags & CH_F_EP) {
        int cap = to + (b->side == CH_WHITE ? -16 : 16);
        u->captured = b->sq[cap];
        b->sq[cap] = 0;
        k ^= z_piece[u->captured][cap];
    } else if (b->sq[to]) {
        u->captured = b->sq[to];
        k ^= z_piece[u->captured][to];
    }
    uint8_t placed = promo ? (uint8_t)(promo | (b->side << 3)) : p;
    b->sq[to] = placed;
    b->sq[from] = 0;
    k ^= z_piece[p][from] ^ z_piece[placed][to];
    if (CH_TYPE(p) == CH_KING) {
        b->king[b->side] = to;
        if (flags & CH_F_CASTLE) {
            int r = CH_RANK(from);
            int rf = CH_FILE(to) == 6 ? CH_SQ(7, r) : CH_SQ(0, r), rt = CH_FILE(to) == 6 ? CH_SQ(5, r) : CH_SQ(3, r);
            uint8_t rook = b->sq[rf];
            b->sq[rt] = rook;
            b->sq[rf] = 0;
            k ^= z_piece[rook][rf] ^ z_piece[rook][rt];
        }
    }
    int castling = b->castling & castle_mask(from) & castle_mask(to);
    k ^= z_castle[b->castling] ^ z_castle[castling];
    b->castling = castling;
    b->ep = (flags & CH_F_DOUBLE) ? (from + to) / 2 : -1;
    b->halfmove = (CH_TYPE(p) == CH_PAWN || u->captured) ? 0 : b->halfmove + 1;
    if (b->side == CH_BLACK) b->fullmove++;
    b->side ^= 1;
    b->key = k ^ z_side;
}

void ch_undo_move(ch_board *b, const ch_undo *u)
{
    ch_move m = u->move;
    int from = CH_FROM(m), to = CH_TO(m), flags = CH_FLAGS(m);
    b->side ^= 1;
    if (b->side == CH_BLACK) b->fullmove--;
    uint8_t p = b->sq[to];
    if (CH_PROMO(m)) p = (uint8_t)(CH_PAWN | (b->side << 3));
    b->sq[from] = p;
    if (flags & CH_F_EP) {
        b->sq[to] = 0;
        b->sq[to + (b->side == CH_WHITE ? -16 : 16)] = u->captured;
    } else {
        b->sq[to] = u->captured;
    }
    if (CH_TYPE(p) == CH_KING) {
        b->king[b->side] = from;
        if (flags & CH_F_CASTLE) {
            int r = CH_RANK(from);
            if (CH_FILE(to) == 6) { b->sq[CH_SQ(7, r)] = b->sq[CH_SQ(5, r)]; b->sq[CH_SQ(5, r)] = 0; }
            else { b->sq[CH_SQ(0, r)] = b->sq[CH_SQ(3, r)]; b->sq[CH_SQ(3, r)] = 0; }
        }
    }
    b->castling = u->castling;
    b->ep = u->ep;
    b->halfmove = u->halfmove;
    b->key = u->key;
}

/* Squares of our pieces pinned to our king (by a slider behind them). */
static int pinned_squares(const ch_board *b, int *pins)
{
    int n = 0, us = b->side, ksq = b->king[us], them = (!us) << 3;
    for (int i = 0; i < 8; i++) {
        int d = i < 4 ? BISHOP_DIRS[i] : ROOK_DIRS[i - 4];
        int t = ksq + d;
        while (ON(t) && !b->sq[t]) t += d;
        if (!ON(t) || CH_COLOR(b->sq[t]) != us) continue;
        int own = t;
        t += d;
        while (ON(t) && !b->sq[t]) t += d;
        if (!ON(t)) continue;
        uint8_t p = b->sq[t];
        if (p == (CH_QUEEN | them) || p == ((i < 4 ? CH_BISHOP : CH_ROOK) | them)) pins[n++] = own;
    }
    return n;
}

int ch_gen_moves(ch_board *b, ch_move *out)
{
    ch_move pseudo[CH_MAX_MOVES];
    int np = gen_pseudo(b, pseudo), n = 0, us = b->side, ksq = b->king[us];
    /* Out of check, a move of a piece that is neither the king, nor pinned, nor
     * an en passant capture cannot expose the king: only those are tested. */
    int checked = ch_attacked(b, ksq, !us);
    int pins[8], npins = checked ? 0 : pinned_squares(b, pins);
    ch_undo u;
    for (int i = 0; i < np; i++) {
        ch_move m = pseudo[i];
        int from = CH_FROM(m), test = checked || from == ksq || (CH_FLAGS(m) & CH_F_EP);
        for (int k = 0; k < npins && !test; k++) test = pins[k] == from;
        if (!test) { out[n++] = m; continue; }
        if (from == ksq && !(CH_FLAGS(m) & CH_F_EP)) {
            /* castling was checked square by square when generated; another king
             * move is legal when its target is not attacked with the king lifted */
            if (CH_FLAGS(m) & CH_F_CASTLE) { out[n++] = m; continue; }
            uint8_t king = b->sq[from];
            b->sq[from] = 0;
            int bad = ch_attacked(b, CH_TO(m), !us);
            b->sq[from] = king;
            if (!bad) out[n++] = m;
            continue;
        }
        ch_do_move(b, m, &u);
        if (!ch_attacked(b, b->king[us], !us)) out[n++] = m;
        ch_undo_move(b, &u);
    }
    return n;
}

int ch_play(ch_game *g, ch_move m)
{
    ch_move moves[CH_MAX_MOVES];
    int n = ch_gen_moves(&g->b, moves), ok = 0;
    for (int i = 0; i < n; i++) if (moves[i] == m) ok = 1;
    if (!ok || g->b.nhist >= CH_MAX_HISTORY) return -1;
    int i = g->b.nhist;
    g->hist_key[i] = ch_position_key(&g->b);
    ch_do_move(&g->b, m, &g->hist[i]);
    g->b.nhist = i + 1;
    return 0;
}

int ch_unplay(ch_game *g)
{
    if (g->b.nhist == 0) return -1;
    int i = --g->b.nhist;
    ch_undo_move(&g->b, &g->hist[i]);
    return 0;
}

int ch_count_repetitions(const ch_game *g)
{
    int n = 1;
    uint64_t now = ch_position_key(&g->b);
    /* only positions since the last irreversible move can repeat */
    for (int i = g->b.nhist - 1, k = 0; i >= 0 && k < g->b.halfmove; i--, k++)
        if (g->hist_key[i] == now) n++;
    return n;
}

static int insufficient(const ch_board *b)
{
    int minors = 0, bishops_light = 0, bishops_dark = 0, knights = 0;
    for (int sq = 0; sq < 128; sq++) {
        if (!ON(sq)) { sq += 7; continue; }
        int t = CH_TYPE(b->sq[sq]);
        if (!t || t == CH_KING) continue;
        if (t == CH_PAWN || t == CH_ROOK || t == CH_QUEEN) return 0;
        minors++;
        if (t == CH_KNIGHT) knights++;
        else if ((CH_FILE(sq) + CH_RANK(sq)) % 2) bishops_light++;
        else bishops_dark++;
    }
    if (minors <= 1) return 1;                                 /* K v K, K+minor v K */
    if (knights == 0 && (bishops_light == 0 || bishops_dark == 0)) return 1;   /* bishops all on one colour */
    return 0;
}

ch_status ch_status_of(ch_game *g)
{
    ch_board *b = &g->b;
    ch_move moves[CH_MAX_MOVES];
    if (ch_gen_moves(b, moves) == 0) return ch_in_check(b) ? CH_CHECKMATE : CH_STALEMATE;
    if (insufficient(b)) return CH_INSUFFICIENT;
    if (ch_count_repetitions(g) >= 5) return CH_FIVEFOLD;
    if (b->halfmove >= 150) return CH_SEVENTY_FIVE;
    return CH_ONGOING;
}

uint64_t ch_perft(ch_board *b, int depth)
{
    ch_move moves[CH_MAX_MOVES];
    int n = ch_gen_moves(b, moves);
    if (depth <= 1) return depth <= 0 ? 1 : (uint64_t)n;
    uint64_t total = 0;
    ch_undo u;
    for (int i = 0; i < n; i++) {
        ch_do_move(b, moves[i], &u);
        total += ch_perft(b, depth - 1);
        ch_undo_move(b, &u);
    }
    return total;
}

void ch_format_uci(ch_move m, char out[6])
{
    out[0] = (char)('a' + CH_FILE(CH_FROM(m)));
    out[1] = (char)('1' + CH_RANK(CH_FROM(m)));
    out[2] = (char)('a' + CH_FILE(CH_TO(m)));
    out[3] = (char)('1' + CH_RANK(CH_TO(m)));
    out[4] = CH_PROMO(m) ? " pnbrqk"[CH_PROMO(m)] : 0;
    out[5] = 0;
}

ch_move ch_find_uci(ch_board *b, const char *uci)
{
    ch_move moves[CH_MAX_MOVES];
    int n = ch_gen_moves(b, moves);
    char s[6];
    for (int i = 0; i < n; i++) {
        ch_format_uci(moves[i], s);
        if (strcmp(s, uci) == 0) return moves[i];
    }
    return 0;
}
