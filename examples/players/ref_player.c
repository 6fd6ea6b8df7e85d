/*
 * ref_player.c -- the reference heuristic as an external tune2048 player.
 *
 * A player is any program that speaks tune2048's line protocol (version 2,
 * or version 1 when greeted with `hello 1`) on stdin/stdout; see README.md
 * next to this file. This one declares the
 * seven weights of the reference heuristic (nneonneo/2048-ai) as tunable
 * parameters and searches with expectimax to a fixed depth. At every depth
 * it is meant to choose exactly the moves tune2048's built-in player
 * chooses with the same weights: same tables, same f32 arithmetic in the
 * same order, same tie-breaking, and (from depth 2) a transposition table
 * that behaves like tune2048's.
 *
 * Build:   cc -O2 -o ref_player ref_player.c -lm     (GCC or Clang: it
 *          uses __builtin_ctzll)
 * Run:     ./ref_player [--depth N]        (N = 0..4, default 1)
 *
 * Do not build with -ffast-math: the search relies on IEEE single-precision
 * arithmetic, evaluated as written (no fused multiply-add; see the pragmas
 * below) and with float expressions evaluated in float (FLT_EVAL_METHOD 0,
 * as on x86-64 and ARM64; a 32-bit x87 build needs -msse2 -mfpmath=sse to
 * give the same values).
 *
 * The file reads top-down: the protocol loop first, then the heuristic,
 * the moves and the search.
 */

/* No a*b+c contracted into one fused multiply-add: tune2048 rounds the
 * product before the sum, and so must we. (GCC's default in its GNU modes
 * is to contract wherever the target has an FMA instruction.) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A board: 16 cells of 4 bits, each the rank of its tile (tile 2^r has
 * rank r, an empty cell rank 0). Cell i = 4*row + col, row-major from the
 * top-left corner, lives in bits 4i..4i+3, so row r is the 16-bit "line"
 * at bits 16r, its leftmost cell in the low nibble. */
typedef uint64_t board_t;

/* Directions, in the order used everywhere: the order of the `move`
 * letters, of the search's tie-breaking, of everything. */
enum { UP, DOWN, LEFT, RIGHT };
static const char DIRECTION_LETTER[4] = {'U', 'D', 'L', 'R'};

/* ------------------------------------------------------------------ */
/* Parameters                                                          */
/* ------------------------------------------------------------------ */

enum {
    W_LOST_PENALTY,
    W_EMPTY,
    W_MERGES,
    W_MONOTONICITY,
    W_MONOTONICITY_POWER,
    W_SUM,
    W_SUM_POWER,
    N_PARAMS
};

/* Declared in the handshake in this order, with these defaults (written
 * out as text so that what we declare is exactly what we start from). */
static const char *const PARAM_NAME[N_PARAMS] = {
    "lost_penalty", "empty", "merges", "monotonicity",
    "monotonicity_power", "sum", "sum_power",
};
static const char *const PARAM_DEFAULT[N_PARAMS] = {
    "200000", "270", "700", "47", "4", "11", "3.5",
};

static double weight[N_PARAMS];

/* ------------------------------------------------------------------ */
/* Everything below main() is declared here                            */
/* ------------------------------------------------------------------ */

static void fail(const char *format, ...);
static int read_line(char *line, size_t size);
static int parse_number(const char *text, double *value);
static void command_set(char *args);
static void command_game(char *args);
static void command_board(char *args);
static void command_boards(char *args);
static board_t parse_board(char **cursor);

static void build_score_table(void);
static float score(board_t b, board_t t);

static void build_move_tables(void);
static board_t transpose(board_t b);
static board_t make_move(board_t b, board_t t, int direction, board_t *moved_t);

static void search_init(int depth);
static int decide(board_t b);

/* Settings of the game in progress. */
static int search_depth = 1;
static int have_game = 0;      /* a `game` line came since the last `set` */
static float p4 = 0.1f;        /* probability that a new tile is a 4 */
static int table_stale = 1;    /* a weight changed since the table was built */

/* A line of boards holds up to 1024 boards of 16 cells of up to 6 bytes. */
#define MAX_LINE (1 << 17)

/* ------------------------------------------------------------------ */
/* The protocol loop                                                   */
/* ------------------------------------------------------------------ */

static void usage(void)
{
    fprintf(stderr,
            "usage: ref_player [--depth N]\n"
            "  A tune2048 player (line protocol version 2 or 1) on stdin/stdout.\n"
            "  --depth N   expectimax depth, 0..4 (default 1)\n");
}

int main(int argc, char **argv)
{
    static char line[MAX_LINE];
    int i;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--depth") == 0 && i + 1 < argc) {
            const char *d = argv[++i];
            if (strlen(d) != 1 || d[0] < '0' || d[0] > '4') {
                usage();
                fail("--depth must be 0..4, not `%s`", d);
            }
            search_depth = d[0] - '0';
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage();
            return 0;
        } else {
            usage();
            fail("unknown argument `%s`", argv[i]);
        }
    }

    for (i = 0; i < N_PARAMS; i++)
        parse_number(PARAM_DEFAULT[i], &weight[i]);
    build_move_tables();
    search_init(search_depth);

    /* Handshake: `hello 1`, or `hello 2` answered by `version 2` (boards
     * come several to a line); then our parameters and `ready`. */
    if (!read_line(line, sizeof line))
        return 0;
    if (strcmp(line, "hello 2") == 0)
        printf("version 2\n");
    else if (strcmp(line, "hello 1") != 0)
        fail("expected `hello 1` or `hello 2`, got `%s`", line);
    for (i = 0; i < N_PARAMS; i++)
        printf("param %s %s\n", PARAM_NAME[i], PARAM_DEFAULT[i]);
    printf("ready\n");
    fflush(stdout);

    /* Then `set`, `game` and `board` lines, in any number, until `quit`
     * or the end of the input. A game has no end marker: the next `set`
     * or `game` line starts the next one. */
    while (read_line(line, sizeof line)) {
        char *args = strchr(line, ' ');
        if (args)
            *args++ = '\0';
        else
            args = line + strlen(line);

        if (strcmp(line, "boards") == 0)
            command_boards(args);
        else if (strcmp(line, "board") == 0)
            command_board(args);
        else if (strcmp(line, "set") == 0)
            command_set(args);
        else if (strcmp(line, "game") == 0)
            command_game(args);
        else if (strcmp(line, "quit") == 0 && *args == '\0')
            return 0;
        else
            fail("unknown line `%s%s%s`", line, *args ? " " : "", args);
    }
    return 0; /* end of input: tune2048 is gone, so are we */
}

/* A protocol error: say why on stderr and exit with status 2. */
static void fail(const char *format, ...)
{
    va_list ap;
    fputs("ref_player: ", stderr);
    va_start(ap, format);
    vfprintf(stderr, format, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

/* Reads one line without its "\n" (a "\r" before it is dropped too).
 * Returns 0 at the end of the input. */
static int read_line(char *line, size_t size)
{
    size_t n;
    if (!fgets(line, (int)size, stdin))
        return 0;
    n = strlen(line);
    if (n > 0 && line[n - 1] == '\n')
        line[--n] = '\0';
    else if (!feof(stdin))
        fail("line longer than %d bytes", (int)size - 2);
    if (n > 0 && line[n - 1] == '\r')
        line[--n] = '\0';
    return 1;
}

/* A decimal number as the protocol writes them ("270", "-1.5", "1.5e-4",
 * ".5"): an optional sign, digits with an optional point, an optional
 * exponent; nothing else (no "inf", "nan" or hexadecimal). Returns 0 if
 * `text` is not one, or is too large for a double. */
static int parse_number(const char *text, double *value)
{
    const char *p = text;
    int digits = 0;
    char *end;

    if (*p == '+' || *p == '-')
        p++;
    while (*p >= '0' && *p <= '9')
        p++, digits++;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++)
            digits++;
    if (digits == 0)
        return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return 0;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p != '\0')
        return 0;
    *value = strtod(text, &end); /* correctly rounded, as tune2048 parses */
    return end == p && isfinite(*value);
}

/* `set NAME VALUE`: a new weight for the next games. */
static void command_set(char *args)
{
    char *name = strtok(args, " ");
    char *text = strtok(NULL, " ");
    double value;
    int i;

    if (!name || !text || strtok(NULL, " "))
        fail("`set` needs a name and a value");
    for (i = 0; i < N_PARAMS; i++)
        if (strcmp(name, PARAM_NAME[i]) == 0)
            break;
    if (i == N_PARAMS)
        fail("unknown parameter `%s`", name);
    if (!parse_number(text, &value))
        fail("`%s` is not a number (set %s)", text, name);
    if (value != weight[i]) {
        weight[i] = value;
        table_stale = 1;
    }
    have_game = 0; /* a `set` comes between games: a `board` needs a `game` first */
}

/* `game classic|twos`: a new game starts; the table follows the weights. */
static void command_game(char *args)
{
    if (strcmp(args, "classic") == 0)
        p4 = 0.1f;
    else if (strcmp(args, "twos") == 0)
        p4 = 0.0f;
    else
        fail("unknown game `%s`", args);
    if (table_stale) {
        build_score_table();
        table_stale = 0;
    }
    have_game = 1;
}

/* One board's 16 tile values from *cursor (each after a space), which
 * moves past them. */
/* rank_mod_37[2^r % 37] = r for r = 1..15, and 0 at every other
 * remainder (filled in by build_move_tables). */
static signed char rank_mod_37[37];

static board_t parse_board(char **cursor)
{
    board_t b = 0;
    char *p = *cursor;
    int i;

    for (i = 0; i < 16; i++) {
        unsigned long value = 0;
        int rank = 0, digits = 0;
        if (*p++ != ' ')
            fail("a board is 16 tile values");
        for (; *p >= '0' && *p <= '9' && digits < 6; p++, digits++)
            value = 10 * value + (unsigned long)(*p - '0');
        if (digits == 0 || (*p != ' ' && *p != '\0'))
            fail("a board is 16 tile values");
        /* 0 or a power of two from 2 to 32768: the ranks a cell can hold.
         * The powers of two 2^0..2^35 leave distinct remainders mod 37, so
         * one lookup finds the only rank the value can have. */
        if (value != 0) {
            rank = rank_mod_37[value % 37];
            if (rank < 1 || rank > 15 || (1UL << rank) != value)
                fail("`%lu` is not a tile value", value);
        }
        b |= (board_t)rank << (4 * i);
    }
    *cursor = p;
    return b;
}

/* `board C1 ... C16` (version 1): answered by `move X`. */
static void command_board(char *args)
{
    char *p = args - 1; /* where the space before the first cell was */
    int direction;

    *p = ' ';
    if (!have_game)
        fail("`board` without a `game` before it");
    direction = decide(parse_board(&p));
    if (*p != '\0')
        fail("a board is 16 tile values");
    if (direction < 0)
        fail("no legal move on this board");
    printf("move %c\n", DIRECTION_LETTER[direction]);
    fflush(stdout);
}

/* `boards N C1 ... C16 ...` (version 2): N boards of 16 cells, answered by
 * `moves X1 ... XN`, their moves in order in one line. */
static void command_boards(char *args)
{
    static char answer[6 + 2 * 1024 + 2];
    char *p, *out = answer;
    long n, k;

    if (!have_game)
        fail("`boards` without a `game` before it");
    n = strtol(args, &p, 10);
    if (p == args || n < 1 || n > 1024)
        fail("`boards` needs a count from 1 to 1024");
    out += sprintf(out, "moves");
    for (k = 0; k < n; k++) {
        int direction = decide(parse_board(&p));
        if (direction < 0)
            fail("no legal move on board %ld of %ld", k + 1, n);
        *out++ = ' ';
        *out++ = DIRECTION_LETTER[direction];
    }
    if (*p != '\0')
        fail("more than %ld boards in a `boards %ld` line", n, n);
    *out++ = '\n';
    fwrite(answer, 1, (size_t)(out - answer), stdout);
    fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* The heuristic                                                       */
/* ------------------------------------------------------------------ */

/* line_score[line]: the heuristic's score of a 16-bit line (4 ranks, cell
 * 0 in the low nibble), computed in double and stored as float. A board's
 * score is the sum of its 4 rows' and 4 columns' entries. */
static float line_score[1 << 16];

/* rank^power, and 0 for an empty cell whatever the power. */
static double rank_pow(int rank, double power)
{
    return rank == 0 ? 0.0 : pow((double)rank, power);
}

/* The score of one line of ranks r[0..3], in double. */
static double line_heuristic(const int r[4])
{
    int empty = 0, merges = 0, run = 0, prev = 0, i;
    double sum = 0.0, left = 0.0, right = 0.0;

    for (i = 0; i < 4; i++) {
        sum += rank_pow(r[i], weight[W_SUM_POWER]);
        if (r[i] == 0) {
            empty++;
            continue; /* runs of equal ranks skip empty cells */
        }
        if (r[i] == prev) {
            run++; /* one more tile equal to the one before it */
        } else {
            if (run > 0)
                merges += run + 1; /* a run of k >= 2 equal tiles adds k */
            run = 0;
        }
        prev = r[i];
    }
    if (run > 0)
        merges += run + 1;

    /* Monotonicity: how much the line falls (left) and rises (right) from
     * cell 0 to cell 3 on the rank^power scale; the smaller is a penalty. */
    for (i = 1; i < 4; i++) {
        double a = rank_pow(r[i - 1], weight[W_MONOTONICITY_POWER]);
        double b = rank_pow(r[i], weight[W_MONOTONICITY_POWER]);
        if (r[i - 1] > r[i])
            left += a - b;
        else
            right += b - a;
    }

    return weight[W_LOST_PENALTY] + weight[W_EMPTY] * empty + weight[W_MERGES] * merges -
           weight[W_MONOTONICITY] * fmin(left, right) - weight[W_SUM] * sum;
}

static void build_score_table(void)
{
    unsigned line;
    for (line = 0; line < (1u << 16); line++) {
        int r[4] = {line & 15, (line >> 4) & 15, (line >> 8) & 15, (line >> 12) & 15};
        line_score[line] = (float)line_heuristic(r);
    }
}

/* The score of board b, given with its transpose t, summed in float in
 * this order: rows top to bottom (each read left to right), then columns
 * left to right (each read top to bottom, i.e. as the rows of t). */
static inline float score(board_t b, board_t t)
{
    float s = line_score[b & 0xFFFF];
    s += line_score[(b >> 16) & 0xFFFF];
    s += line_score[(b >> 32) & 0xFFFF];
    s += line_score[b >> 48];
    s += line_score[t & 0xFFFF];
    s += line_score[(t >> 16) & 0xFFFF];
    s += line_score[(t >> 32) & 0xFFFF];
    s += line_score[t >> 48];
    return s;
}

/* ------------------------------------------------------------------ */
/* The moves                                                           */
/* ------------------------------------------------------------------ */

/* Each line after sliding toward cell 0 (LEFT on a row) and toward cell 3
 * (RIGHT). UP and DOWN slide the rows of the transposed board. */
static uint16_t slide_left[1 << 16], slide_right[1 << 16];

/* spread_low[x]: the byte x of a line (cells 0 and 1) as a column of the
 * other form (cell k at bit 16k); spread_high[x]: the line's high byte
 * (cells 2 and 3). Filled in by build_move_tables. */
static board_t spread_low[256], spread_high[256];

static unsigned reverse_line(unsigned line)
{
    return ((line & 0xF) << 12) | ((line & 0xF0) << 4) | ((line >> 4) & 0xF0) | (line >> 12);
}

static void build_move_tables(void)
{
    unsigned line;
    int r;
    for (r = 1; r < 16; r++)
        rank_mod_37[(1u << r) % 37] = (signed char)r;
    for (line = 0; line < (1u << 16); line++) {
        int out[4] = {0, 0, 0, 0};
        int n = 0, can_merge = 0, i;
        for (i = 0; i < 4; i++) {
            int r = (line >> (4 * i)) & 15;
            if (r == 0)
                continue;
            if (can_merge && out[n - 1] == r) {
                /* Merge into the tile nearer the wall; the result does not
                 * merge again in this move. Two 32768s make a 65536, which
                 * a cell cannot hold: like tune2048's search, keep 32768. */
                if (r < 15)
                    out[n - 1] = r + 1;
                can_merge = 0;
            } else {
                out[n++] = r;
                can_merge = 1;
            }
        }
        slide_left[line] = (uint16_t)(out[0] | out[1] << 4 | out[2] << 8 | out[3] << 12);
    }
    for (line = 0; line < (1u << 16); line++)
        slide_right[line] = (uint16_t)reverse_line(slide_left[reverse_line(line)]);
    for (line = 0; line < 256; line++) {
        spread_low[line] = (board_t)(line & 15) | (board_t)(line >> 4) << 16;
        spread_high[line] = (board_t)(line & 15) << 32 | (board_t)(line >> 4) << 48;
    }
}

/* Cell (r, c) goes to (c, r), in two steps: swap the off-diagonal cells
 * of every 2x2 block (3 cells = 12 bits apart), then swap the top-right
 * and bottom-left 2x2 blocks (6 cells = 24 bits apart). */
static inline board_t transpose(board_t b)
{
    board_t stay = b & 0xF0F00F0FF0F00F0FULL;
    board_t down = b & 0x0000F0F00000F0F0ULL; /* (r, c+1) -> (r+1, c) */
    board_t up = b & 0x0F0F00000F0F0000ULL;   /* (r+1, c) -> (r, c+1) */
    b = stay | (down << 12) | (up >> 12);
    stay = b & 0xFF00FF0000FF00FFULL;
    down = b & 0x00000000FF00FF00ULL;          /* top-right block */
    up = b & 0x00FF00FF00000000ULL;            /* bottom-left block */
    return stay | (down << 24) | (up >> 24);
}

static inline board_t slide_rows(board_t b, const uint16_t *table)
{
    return (board_t)table[b & 0xFFFF] | (board_t)table[(b >> 16) & 0xFFFF] << 16 |
           (board_t)table[(b >> 32) & 0xFFFF] << 32 | (board_t)table[b >> 48] << 48;
}

/* Board b, given with its transpose t, after a move (the same board when
 * the move is illegal); the moved board's transpose goes to *moved_t. The
 * search carries every board with its transpose: a column move slides the
 * rows of t, and each move costs one transpose, the score none. */
static inline board_t make_move(board_t b, board_t t, int direction, board_t *moved_t)
{
    board_t moved;
    switch (direction) {
    case UP:
        *moved_t = slide_rows(t, slide_left);
        return transpose(*moved_t);
    case DOWN:
        *moved_t = slide_rows(t, slide_right);
        return transpose(*moved_t);
    case LEFT:
        moved = slide_rows(b, slide_left);
        break;
    default:
        moved = slide_rows(b, slide_right);
        break;
    }
    *moved_t = transpose(moved);
    return moved;
}

/* The empty cells of b: bit 4i set when cell i is empty. A chance node
 * visits them lowest first (__builtin_ctzll), with no test per cell whose
 * outcome the processor would have to guess. */
static inline board_t empty_cells(board_t b)
{
    b |= b >> 1;
    b |= b >> 2;
    return ~b & 0x1111111111111111ULL;
}

/* ------------------------------------------------------------------ */
/* The search                                                          */
/* ------------------------------------------------------------------ */

/* Expectimax, all values in float. A chance node (a board after a move)
 * averages over every empty cell and new tile; a max node (a board after
 * a new tile) takes its best move; boards at the depth limit, or reached
 * with a probability below CUTOFF, are scored by the heuristic. */

#define CUTOFF 1e-4f

static struct {
    int limit;     /* chance layers to search */
    float p2, p4;  /* probabilities of a new 2 and a new 4 */
    float lost;    /* the value of a board with no legal move */
    float lowest;  /* the lowest heuristic score of this search */
    int saw_lost;  /* whether this search reached a board with no move */
} S;

/* A transposition table, used from depth 2 on, that behaves as tune2048's:
 * 2^bits entries, one per slot, the slot a hash of the board, each new
 * entry replacing the slot's old one, and every entry forgotten when a
 * root search starts. From depth 3 on a stored value may have been
 * searched under another probability cutoff than a later visit would
 * use, so the table's exact behaviour shapes the moves chosen. At depth 1
 * it would change nothing, and is not used. */
typedef struct {
    uint64_t key;
    float value;
    uint32_t epoch;    /* the root search that stored it */
    int remaining;     /* chance layers below the node its value covers */
} tt_entry;

static tt_entry *tt;
static uint64_t tt_mask;
static uint32_t tt_epoch;

static void search_init(int depth)
{
    S.limit = depth;
    if (depth >= 2) {
        int bits = 9 + 3 * depth; /* tune2048's size: 2^bits, bits in 12..22 */
        if (bits < 12)
            bits = 12;
        if (bits > 22)
            bits = 22;
        tt = calloc((size_t)1 << bits, sizeof *tt);
        if (!tt)
            fail("out of memory");
        tt_mask = ((uint64_t)1 << bits) - 1;
    }
}

/* SplitMix64's finaliser: spreads a board over the table's slots. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline float leaf(board_t b, board_t t)
{
    float value = score(b, t);
    if (value < S.lowest)
        S.lowest = value;
    return value;
}

static float chance(board_t b, board_t t, float cprob, int depth);
static float last_chance(board_t b, board_t t, board_t empty);

/* Folds a leaf's value into *best and S.lowest without a branch on its
 * legality (an illegal move is folded in as -inf and +inf: no change), so
 * a max node's four moves are scored side by side. Returns `legal`. */
static inline int fold_leaf(float value, int legal, float *best)
{
    float high = legal ? value : -INFINITY, low = legal ? value : INFINITY;
    *best = high > *best ? high : *best;
    S.lowest = low < S.lowest ? low : S.lowest;
    return legal;
}

/* One move of a max node at the horizon, its child scored as a leaf and
 * folded in. Returns whether it is legal. */
static inline int horizon_move(board_t b, board_t t, int direction, float *best)
{
    board_t next_t, next = make_move(b, t, direction, &next_t);
    return fold_leaf(score(next, next_t), next != b, best);
}

/* A max node: the best of the legal moves (first to last, U D L R), or
 * S.lost when none is legal. */
static float max_node(board_t b, board_t t, float cprob, int depth)
{
    float best = -INFINITY;
    int legal = 0, d;

    if (depth + 1 >= S.limit || cprob < CUTOFF) {
        /* At the horizon each child chance node is a leaf. */
        legal = horizon_move(b, t, UP, &best);
        legal |= horizon_move(b, t, DOWN, &best);
        legal |= horizon_move(b, t, LEFT, &best);
        legal |= horizon_move(b, t, RIGHT, &best);
    } else {
        for (d = 0; d < 4; d++) {
            board_t next_t, next = make_move(b, t, d, &next_t);
            float value;
            if (next == b)
                continue;
            value = chance(next, next_t, cprob, depth + 1);
            if (value > best)
                best = value;
            legal = 1;
        }
    }
    if (!legal) {
        S.saw_lost = 1;
        return S.lost;
    }
    return best;
}

/* A chance node at `depth` (0 = just after the root's move), reached with
 * probability `cprob`. */
static float chance(board_t b, board_t t, float cprob, int depth)
{
    int n, remaining = S.limit - depth;
    float total = 0.0f, value;
    board_t empty;
    tt_entry *e = NULL;

    if (depth >= S.limit || cprob < CUTOFF)
        return leaf(b, t);
    if (tt) {
        e = &tt[mix64(b) & tt_mask];
        if (e->key == b && e->epoch == tt_epoch && e->remaining >= remaining)
            return e->value;
    }
    empty = empty_cells(b);
    /* Their number: the sum of the 16 nibbles lands in the top one (at most
     * 15 cells are empty after a move, so it cannot overflow). */
    n = (int)((empty * 0x1111111111111111ULL) >> 60);
    if (n == 0)
        return leaf(b, t);
    cprob /= (float)n;
    if (depth + 1 >= S.limit) {
        /* Every child is a max node over leaves. */
        value = last_chance(b, t, empty) / (float)n;
    } else {
        for (; empty; empty &= empty - 1) {
            /* A 2 in cell i (row i/4, column i%4), and in the transpose's
             * cell (i%4, i/4); a 4 is the tile shifted left by one. */
            int i = __builtin_ctzll(empty) >> 2;
            board_t tile = (board_t)1 << (4 * i);
            board_t tile_t = (board_t)1 << (4 * (4 * (i & 3) + (i >> 2)));
            total += S.p2 * max_node(b | tile, t | tile_t, cprob * S.p2, depth);
            if (S.p4 > 0.0f)
                total += S.p4 * max_node(b | tile << 1, t | tile_t << 1, cprob * S.p4, depth);
        }
        value = total / (float)n;
    }
    if (tt) {
        /* The children may have taken the slot over: store afresh. */
        e->key = b;
        e->value = value;
        e->epoch = tt_epoch;
        e->remaining = remaining;
    }
    return value;
}

/* The last chance layer, made cheap. A tile placed in cell (row, col)
 * changes one row of the board and one column. A row move (LEFT, RIGHT) of
 * the child therefore slides the same rows as that move of the chance
 * node's own board except row `row`; a column move, the same columns except
 * column `col`. So each of the four moves of the chance node's board is
 * made once, in both forms and with its lines' scores, and a child's move
 * is that move patched in one line: one slide instead of four and a
 * transpose, and five score lookups instead of eight. The child's score
 * sums the same eight table entries in the same order as score(), so every
 * value is the same, bit for bit. */

/* One move of a chance node's board: the moved board in the form whose
 * rows the move slides (the board for LEFT and RIGHT, its transpose for UP
 * and DOWN), in the other form, and the score of each line of the first. */
typedef struct {
    board_t lines, cross;
    float scores[4];
} base_move;

static inline board_t spread(unsigned line)
{
    return spread_low[line & 0xFF] | spread_high[line >> 8];
}

/* The leaf value of one move of a child, folded in by fold_leaf. `form` is
 * the child in the form the move slides, `at` the line of it the tile
 * changed, `rows_first` whether `cross` holds the moved board's rows (a
 * column move) or `lines` does. */
static inline int last_move(const base_move *m, board_t form, int at, const uint16_t *slide,
                            int rows_first, float *best)
{
    unsigned slid = slide[(form >> (16 * at)) & 0xFFFF];
    board_t lines = (m->lines & ~(0xFFFFULL << (16 * at))) | (board_t)slid << (16 * at);
    board_t cross = (m->cross & ~(0x000F000F000F000FULL << (4 * at))) | spread(slid) << (4 * at);
    float l[4] = {m->scores[0], m->scores[1], m->scores[2], m->scores[3]};
    float c0 = line_score[cross & 0xFFFF], c1 = line_score[(cross >> 16) & 0xFFFF];
    float c2 = line_score[(cross >> 32) & 0xFFFF], c3 = line_score[cross >> 48];
    float value;
    int legal = lines != form;
    l[at] = line_score[slid];
    if (rows_first)
        value = c0 + c1 + c2 + c3 + l[0] + l[1] + l[2] + l[3];
    else
        value = l[0] + l[1] + l[2] + l[3] + c0 + c1 + c2 + c3;
    return fold_leaf(value, legal, best);
}

/* A child of the last layer: board b with tile `rank` in (row, col),
 * scored as max_node scores a max node at the horizon. */
static inline float last_max(board_t b, board_t t, const base_move base[4], int row, int col,
                             board_t rank)
{
    board_t child = b | rank << (4 * (4 * row + col));
    board_t child_t = t | rank << (4 * (4 * col + row));
    float best = -INFINITY;
    int legal = last_move(&base[UP], child_t, col, slide_left, 1, &best);
    legal |= last_move(&base[DOWN], child_t, col, slide_right, 1, &best);
    legal |= last_move(&base[LEFT], child, row, slide_left, 0, &best);
    legal |= last_move(&base[RIGHT], child, row, slide_right, 0, &best);
    if (!legal) {
        S.saw_lost = 1;
        return S.lost;
    }
    return best;
}

/* The sum over the empty cells of a chance node whose children are all at
 * the horizon, in the order chance() sums them. */
static float last_chance(board_t b, board_t t, board_t empty)
{
    base_move base[4];
    float total = 0.0f;
    int d, i;

    for (d = 0; d < 4; d++) {
        board_t moved_t, moved = make_move(b, t, d, &moved_t);
        base_move *m = &base[d];
        m->lines = d < LEFT ? moved_t : moved;
        m->cross = d < LEFT ? moved : moved_t;
        for (i = 0; i < 4; i++)
            m->scores[i] = line_score[(m->lines >> (16 * i)) & 0xFFFF];
    }
    for (; empty; empty &= empty - 1) {
        i = __builtin_ctzll(empty) >> 2;
        total += S.p2 * last_max(b, t, base, i >> 2, i & 3, 1);
        if (S.p4 > 0.0f)
            total += S.p4 * last_max(b, t, base, i >> 2, i & 3, 2);
    }
    return total;
}

/* Searches every legal move of the root with lost boards worth `lost`,
 * into value[] (legal[d] = 0 for an illegal move). */
static void search_root(board_t b, float lost, float value[4], int legal[4])
{
    board_t t = transpose(b);
    int d;
    S.lost = lost;
    S.lowest = INFINITY;
    S.saw_lost = 0;
    if (tt && ++tt_epoch == 0) { /* every 2^32 searches: really forget */
        memset(tt, 0, (size_t)(tt_mask + 1) * sizeof *tt);
        tt_epoch = 1;
    }
    for (d = 0; d < 4; d++) {
        board_t next_t, next = make_move(b, t, d, &next_t);
        legal[d] = next != b;
        if (legal[d])
            value[d] = chance(next, next_t, 1.0f, 0);
    }
}

/* The move to play on `b` (UP..RIGHT), or -1 when no move is legal. */
static int decide(board_t b)
{
    float value[4];
    int legal[4], d, best = -1;

    S.p4 = p4;
    S.p2 = 1.0f - p4;

    /* A board with no legal move is worth 0, as in the reference: below
     * every live board as long as the lost penalty keeps every score
     * positive. If this search scored a board at or below 0 and also
     * reached a lost board, the lost board might have outranked a live
     * one: search again with a lost value below every score seen. */
    search_root(b, 0.0f, value, legal);
    if (S.saw_lost && !(S.lowest > 0.0f))
        search_root(b, 2.0f * S.lowest - 1.0f, value, legal);

    /* The first legal move, replaced only by a strictly better one. */
    for (d = 0; d < 4; d++)
        if (legal[d] && (best < 0 || value[d] > value[best]))
            best = d;
    return best;
}
