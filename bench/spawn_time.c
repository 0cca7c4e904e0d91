/* bench/spawn_time.c — start-up time of two commands, for bench/startup.sh:
 * runs A and B alternately N times each (so a busy machine slows both alike),
 * output to /dev/null, and prints the minimum and median wall time of each in
 * milliseconds and the ratios A/B.
 *   cc -O2 -o spawn_time bench/spawn_time.c && ./spawn_time N A... -- B... */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double run_once(char **argv)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        dup2(fd, 1);
        dup2(fd, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    clock_gettime(CLOCK_MONOTONIC, &b);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "spawn_time: %s failed\n", argv[0]);
        exit(1);
    }
    return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

int main(int argc, char **argv)
{
    int sep = 0;
    for (int i = 2; i < argc; i++) if (strcmp(argv[i], "--") == 0) sep = i;
    if (argc < 5 || sep < 3 || sep == argc - 1) {
        fprintf(stderr, "usage: spawn_time N A... -- B...\n");
        return 2;
    }
    int n = atoi(argv[1]);
    if (n < 1) n = 1;
    argv[sep] = NULL;
    char **a = argv + 2, **b = argv + sep + 1;
    double *ta = malloc(sizeof *ta * (size_t)n), *tb = malloc(sizeof *tb * (size_t)n);
    if (!ta || !tb) return 1;
    run_once(a);                        /* warm the page cache */
    run_once(b);
    for (int i = 0; i < n; i++) {
        ta[i] = run_once(a);
        tb[i] = run_once(b);
    }
    qsort(ta, (size_t)n, sizeof *ta, cmp);
    qsort(tb, (size_t)n, sizeof *tb, cmp);
    printf("%s: min %.3f ms, median %.3f ms\n", a[0], ta[0], ta[n / 2]);
    printf("%s: min %.3f ms, median %.3f ms\n", b[0], tb[0], tb[n / 2]);
    printf("ratio min %.2fx, median %.2fx\n", ta[0] / tb[0], ta[n / 2] / tb[n / 2]);
    free(ta);
    free(tb);
    return 0;
}
