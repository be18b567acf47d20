/* Towers' random play in plain C: the limit that bench/c_limit.py compares boardlab with.

   The same rules as boardlab/games/towers/kernel.py and state.py for two players on the
   default layout (docs/rules/towers.md): builds and pushes in the same order (square a1..g7,
   the build, then pushes N, E, S, W), the push algorithm of rules 5.3, the castle win of
   rules 7.1-7.4 after a push, the opponent's lack of moves (7.5), threefold repetition (8.1)
   and the no-progress draw (8.2). A position's hash is a Zobrist hash of (square, level,
   token) and the seat to move; repetitions are counted over the positions since the last
   build or dropping push, as boardlab's ProgressTracker does.

   Usage:  towers_random perft DEPTH          leaf count from the start (finished games are leaves)
           towers_random play SECONDS SEED    random games for about SECONDS of CPU time

   "play" prints one line: plies, games finished, CPU seconds, plies per CPU-second and the
   mean plies of a finished game. It plays as boardlab's random play does: at each decision
   it lists the legal moves and picks one uniformly. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { SIZE = 7, SQUARES = 49, MAX_HEIGHT = 5, CASTLE = 4, PLAYERS = 2 };
enum { SUPPLY = 75, CASTLES_TO_WIN = 4, CROWNS_TO_WIN = 3, NO_PROGRESS_LIMIT = 100 };
enum { MAX_MOVES = SQUARES * 5, MAX_RUN = NO_PROGRESS_LIMIT + 2 };
/* the square "off the board": its height, OFF_HEIGHT, is taller than any stack */
enum { OFF = SQUARES, OFF_HEIGHT = 255 };

typedef struct {
    uint8_t height[SQUARES + 1]; /* and OFF's */
    uint8_t token[SQUARES][MAX_HEIGHT];
    uint64_t control[5]; /* per seat, and CASTLE for bare castles: squares whose top token it is */
    int reserves[PLAYERS];
    int to_move;
    int over;
    uint64_t hash;
    uint64_t run[MAX_RUN]; /* the hashes since the last progress move, the latest last */
    int run_length;
} Position;

static int step_to[4][SQUARES]; /* N, E, S, W; OFF off the board */
static const int castle_squares[5] = {1 * SIZE + 3, 3 * SIZE + 1, 3 * SIZE + 3, 3 * SIZE + 5, 5 * SIZE + 3};
static uint64_t token_keys[SQUARES][MAX_HEIGHT][5];
static uint64_t turn_keys[PLAYERS];

static uint64_t splitmix_state = 0x9E3779B97F4A7C15ULL;

static uint64_t splitmix(void) {
    uint64_t z = (splitmix_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void make_tables(void) {
    for (int sq = 0; sq < SQUARES; sq++) {
        int file = sq % SIZE, rank = sq / SIZE;
        step_to[0][sq] = rank + 1 < SIZE ? sq + SIZE : OFF;
        step_to[1][sq] = file + 1 < SIZE ? sq + 1 : OFF;
        step_to[2][sq] = rank > 0 ? sq - SIZE : OFF;
        step_to[3][sq] = file > 0 ? sq - 1 : OFF;
        for (int level = 0; level < MAX_HEIGHT; level++)
            for (int token = 0; token < 5; token++) token_keys[sq][level][token] = splitmix();
    }
    for (int seat = 0; seat < PLAYERS; seat++) turn_keys[seat] = splitmix();
}

static int square(const char *name) { return (name[1] - '1') * SIZE + (name[0] - 'a'); }

static void put(Position *p, int sq, int token) {
    p->token[sq][p->height[sq]] = (uint8_t)token;
    p->hash ^= token_keys[sq][p->height[sq]][token];
    p->height[sq]++;
}

/* The "diagram" layout of rules 2.2: White a6 b7 f1 g2, Black a2 b1 f7 g6, White to move. */
static void start(Position *p) {
    static const char *towers[PLAYERS][4] = {{"a6", "b7", "f1", "g2"}, {"a2", "b1", "f7", "g6"}};
    memset(p, 0, sizeof *p);
    p->height[OFF] = OFF_HEIGHT;
    for (int i = 0; i < 5; i++) put(p, castle_squares[i], CASTLE);
    for (int seat = 0; seat < PLAYERS; seat++) {
        p->reserves[seat] = SUPPLY - 8;
        for (int i = 0; i < 4; i++) {
            int sq = square(towers[seat][i]);
            put(p, sq, seat);
            put(p, sq, seat);
        }
    }
    for (int sq = 0; sq < SQUARES; sq++)
        if (p->height[sq]) p->control[p->token[sq][p->height[sq] - 1]] |= 1ULL << sq;
    p->hash ^= turn_keys[0];
    p->run[0] = p->hash;
    p->run_length = 1;
}

/* A move: the square times 5, plus 4 for a build or the direction 0..3 of a push. Written
   without branches on the board (each candidate is stored, and counted if legal): which moves
   are legal is what a random game cannot predict. */
static int legal_moves(const Position *p, int seat, int *moves) {
    int count = 0;
    int may_build = p->reserves[seat] > 0;
    for (uint64_t mask = p->control[seat]; mask; mask &= mask - 1) {
        int sq = __builtin_ctzll(mask);
        int height = p->height[sq];
        moves[count] = sq * 5 + 4;
        count += may_build & (height < MAX_HEIGHT) & (p->token[sq][0] != CASTLE);
        /* a tower of one piece cannot push (rules 5.1): no height is below 0 */
        int pushing = height >= 2 ? height : 0;
        for (int d = 0; d < 4; d++) {
            moves[count] = sq * 5 + d;
            count += p->height[step_to[d][sq]] < pushing;
        }
    }
    return count;
}

static int can_move(const Position *p, int seat) {
    int may_build = p->reserves[seat] > 0;
    for (uint64_t mask = p->control[seat]; mask; mask &= mask - 1) {
        int sq = __builtin_ctzll(mask);
        int height = p->height[sq];
        if (may_build && height < MAX_HEIGHT && p->token[sq][0] != CASTLE) return 1;
        if (height >= 2)
            for (int d = 0; d < 4; d++)
                if (p->height[step_to[d][sq]] < height) return 1;
    }
    return 0;
}

/* Move the pieces above ``keep`` on ``from`` onto ``to``, updating the hash and the control masks. */
static void move_pieces(Position *p, int from, int keep, int to) {
    int old_top_from = p->token[from][p->height[from] - 1];
    int old_top_to = p->height[to] ? p->token[to][p->height[to] - 1] : -1;
    for (int level = keep; level < p->height[from]; level++) {
        int token = p->token[from][level];
        p->hash ^= token_keys[from][level][token];
        put(p, to, token);
    }
    p->height[from] = (uint8_t)keep;
    int new_top_from = p->token[from][keep - 1];
    if (new_top_from != old_top_from) {
        p->control[old_top_from] ^= 1ULL << from;
        p->control[new_top_from] |= 1ULL << from;
    }
    int new_top_to = p->token[to][p->height[to] - 1];
    if (new_top_to != old_top_to) {
        if (old_top_to >= 0) p->control[old_top_to] ^= 1ULL << to;
        p->control[new_top_to] |= 1ULL << to;
    }
}

/* The push of rules 5.3; returns whether pieces dropped (rules 5.10). */
static int push(Position *p, int start_square, int direction) {
    int cur = start_square, count = p->height[start_square], base = 0, dropped = 0;
    for (;;) {
        int next = step_to[direction][cur];
        if (next == OFF) break;
        int target_height = p->height[next];
        int blocked = target_height - base;
        if (blocked < 1) blocked = 1;
        if (blocked >= count) break;
        if (target_height <= base) dropped = 1;
        move_pieces(p, cur, base + blocked, next);
        cur = next;
        base = target_height;
        count -= blocked;
    }
    return dropped;
}

static int castle_winner(const Position *p, int mover) {
    int controlled[5] = {0}, crowned[5] = {0};
    for (int i = 0; i < 5; i++) {
        int sq = castle_squares[i], height = p->height[sq];
        if (height > 1) {
            int owner = p->token[sq][height - 1];
            controlled[owner]++;
            if (height == MAX_HEIGHT) crowned[owner]++;
        }
    }
    for (int offset = 0; offset < PLAYERS; offset++) {
        int seat = (mover + offset) % PLAYERS;
        if (controlled[seat] >= CASTLES_TO_WIN || crowned[seat] >= CROWNS_TO_WIN) return seat;
    }
    return -1;
}

/* Rules 8.4: the move, the castle win, the next mover, then the draws. */
static void play(Position *p, int move) {
    int seat = p->to_move, sq = move / 5, kind = move % 5, progress;
    if (kind == 4) {
        put(p, sq, seat);
        p->reserves[seat]--;
        progress = 1;
    } else {
        progress = push(p, sq, kind);
        if (castle_winner(p, seat) >= 0) {
            p->over = 1;
            return;
        }
    }
    int next = 1 - seat;
    p->hash ^= turn_keys[seat] ^ turn_keys[next];
    p->to_move = next;
    if (!can_move(p, next)) {
        p->over = 1;
        return;
    }
    if (progress) {
        p->run[0] = p->hash;
        p->run_length = 1;
        return;
    }
    int occurrences = 1;
    for (int i = 0; i < p->run_length; i++) occurrences += p->run[i] == p->hash;
    p->run[p->run_length++] = p->hash;
    if (p->run_length - 1 >= NO_PROGRESS_LIMIT || occurrences >= 3) p->over = 1;
}

static long perft(const Position *p, int depth) {
    int moves[MAX_MOVES];
    int count = legal_moves(p, p->to_move, moves);
    long total = 0;
    for (int i = 0; i < count; i++) {
        Position child = *p;
        play(&child, moves[i]);
        total += depth == 1 || child.over ? 1 : perft(&child, depth - 1);
    }
    return total;
}

static double cpu_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return (double)now.tv_sec + now.tv_nsec * 1e-9;
}

static uint64_t rng_state;

static uint64_t next_random(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

int main(int argc, char **argv) {
    make_tables();
    if (argc == 3 && strcmp(argv[1], "perft") == 0) {
        Position p;
        start(&p);
        printf("%ld\n", perft(&p, atoi(argv[2])));
        return 0;
    }
    if (argc != 4 || strcmp(argv[1], "play") != 0) {
        fprintf(stderr, "usage: %s perft DEPTH | play SECONDS SEED\n", argv[0]);
        return 2;
    }
    double seconds = atof(argv[2]);
    rng_state = strtoull(argv[3], NULL, 10) * 2654435761ULL + 1;
    long plies = 0, games = 0, finished_plies = 0;
    int moves[MAX_MOVES];
    Position p;
    double began = cpu_seconds(), spent = 0.0;
    while (spent < seconds) {
        start(&p);
        long length = 0;
        while (!p.over) {
            int count = legal_moves(&p, p.to_move, moves);
            /* the top 53 bits as a fraction of the count, as boardlab's int(random() * n) */
            int pick = (int)((double)(next_random() >> 11) * (1.0 / 9007199254740992.0) * count);
            play(&p, moves[pick]);
            length++;
        }
        plies += length;
        games++;
        finished_plies += length;
        spent = cpu_seconds() - began;
    }
    printf("%ld %ld %.6f %.1f %.2f\n", plies, games, spent, plies / spent, (double)finished_plies / games);
    return 0;
}
