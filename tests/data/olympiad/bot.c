/* A small Computer Olympiad protocol bot for tw16's tests (docs/olympiad.md): keeps its own tiles from
 * the referee's messages, wins whenever asked, pongs honours, never chows or kongs, and discards the
 * tile with the fewest neighbours. Flags make it misbehave for the host's fault tests:
 *   --crash-after N    exit(3) at the N-th request          --hang-after N     stop answering at the N-th
 *   --garbage-after N  answer garbage from the N-th         --huge-after N     answer a 300-character line
 *   --illegal-after N  throw a tile it does not hold        --no-ready         ignore /ready (unknown to it)
 * Build: cc -O2 -o bot bot.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int hand[64], n_hand, me, last_discard = -1, requests;
static long crash_after, hang_after, garbage_after, huge_after, illegal_after;
static int no_ready;

static int kind(int id) { return (id / 100 - 1) * 9 + id / 10 % 10 - 1; }
static void add(int id) { if (n_hand < 64) hand[n_hand++] = id; }
static void drop(int id) {
    for (int i = 0; i < n_hand; i++)
        if (hand[i] == id) { hand[i] = hand[--n_hand]; return; }
}
static int count_kind(int k) {
    int c = 0;
    for (int i = 0; i < n_hand; i++) c += kind(hand[i]) == k;
    return c;
}
static void say(const char *s) { printf("%s\n", s); fflush(stdout); }

static int usefulness(int id) {
    int k = kind(id), u = 3 * (count_kind(k) - 1);
    if (k < 27)
        for (int d = -2; d <= 2; d++) {
            int j = k + d;
            if (d == 0 || j < 0 || j / 9 != k / 9) continue;
            u += (d == 1 || d == -1 ? 2 : 1) * (count_kind(j) > 0);
        }
    return u;
}

static void answer(const char *what) {
    char out[512];
    requests++;
    if (crash_after && requests >= crash_after) exit(3);
    if (hang_after && requests >= hang_after) for (;;) pause();
    if (garbage_after && requests >= garbage_after) { say("/throw banana"); return; }
    if (huge_after && requests >= huge_after) {
        memset(out, 'x', 300); out[300] = 0; say(out); return;
    }
    if (!strcmp(what, "hu")) { say("/hu"); return; }
    if (!strcmp(what, "throw")) {
        int best = 0;
        for (int i = 1; i < n_hand; i++) {
            int a = usefulness(hand[i]), b = usefulness(hand[best]);
            if (a < b || (a == b && hand[i] > hand[best])) best = i;
        }
        if (illegal_after && requests >= illegal_after) {  /* a real tile it does not hold */
            int id = 110;
            for (int held = 1; held; id++) {
                held = 0;
                for (int i = 0; i < n_hand; i++) held |= hand[i] == id;
                if (!held) break;
            }
            sprintf(out, "/throw %d", id);
            say(out);
            return;
        }
        sprintf(out, "/throw %d", n_hand ? hand[best] : 110);
        say(out);
        return;
    }
    if (!strcmp(what, "pong") && last_discard >= 0 && kind(last_discard) >= 27) {
        int got[2], n = 0;
        for (int i = 0; i < n_hand && n < 2; i++)
            if (kind(hand[i]) == kind(last_discard)) got[n++] = hand[i];
        if (n == 2) { sprintf(out, "/pong %d %d", got[0], got[1]); say(out); return; }
    }
    say("/pass");
}

int main(int argc, char **argv) {
    char line[4096];
    for (int i = 1; i + 1 < argc || (i < argc && !strcmp(argv[i], "--no-ready")); i++) {
        if (!strcmp(argv[i], "--no-ready")) { no_ready = 1; continue; }
        long v = atol(argv[i + 1]);
        if (!strcmp(argv[i], "--crash-after")) crash_after = v;
        else if (!strcmp(argv[i], "--hang-after")) hang_after = v;
        else if (!strcmp(argv[i], "--garbage-after")) garbage_after = v;
        else if (!strcmp(argv[i], "--huge-after")) huge_after = v;
        else if (!strcmp(argv[i], "--illegal-after")) illegal_after = v;
        i++;
    }
    while (fgets(line, sizeof line, stdin)) {
        char *tok[32];
        int n = 0;
        for (char *t = strtok(line, " \r\n"); t && n < 32; t = strtok(NULL, " \r\n")) tok[n++] = t;
        if (!n) continue;
        if (!strcmp(tok[0], "/exit") || !strcmp(tok[0], "/close")) return 0;
        if (!strcmp(tok[0], "/ready")) { if (!no_ready) say("/ready"); continue; }
        if (!strcmp(tok[0], "/ask") && n == 2) { answer(tok[1]); continue; }
        if (!strcmp(tok[0], "/start") && n >= 3) me = atoi(tok[2]);
        else if (!strcmp(tok[0], "/initGame")) { n_hand = 0; last_discard = -1; }
        else if (!strcmp(tok[0], "/initCard")) for (int i = 1; i < n; i++) add(atoi(tok[i]));
        else if (!strcmp(tok[0], "/mo") && n == 2) add(atoi(tok[1]));
        else if (!strcmp(tok[0], "/throw") && n == 3) {
            last_discard = atoi(tok[2]);
            if (atoi(tok[1]) == me) drop(last_discard);
        } else if ((!strcmp(tok[0], "/eat") || !strcmp(tok[0], "/pong") || !strcmp(tok[0], "/gong")) && n >= 3 &&
                   atoi(tok[1]) == me) {
            for (int i = 2; i < n; i++) drop(atoi(tok[i]));  /* (the kind token 0/1/4 and the claimed tile: not held) */
        }
    }
    return 0;
}
