/* proc.c — see proc.h. Uses fork+execvp so that a missing program is
 * reported to the parent through a close-on-exec status pipe. */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* the PROC_OWNED children not yet reaped (0: a free slot) */
#define MAX_OWNED 256
static volatile pid_t owned[MAX_OWNED];

static void own(pid_t pid)
{
    static int at_exit;
    if (!at_exit) { atexit(proc_kill_owned); at_exit = 1; }
    for (int i = 0; i < MAX_OWNED; i++)
        if (owned[i] == 0) { owned[i] = pid; return; }
}

static void disown(pid_t pid)
{
    for (int i = 0; i < MAX_OWNED; i++)
        if (owned[i] == pid) owned[i] = 0;
}

void proc_kill_owned(void)
{
    for (int i = 0; i < MAX_OWNED; i++)
        if (owned[i] > 0) { kill(-owned[i], SIGKILL); kill(owned[i], SIGKILL); }
}

int proc_state(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return 0;
    buf[n] = 0;
    char *end = strrchr(buf, ')');               /* the name in parentheses may hold anything */
    return end && end[1] == ' ' && end[2] ? end[2] : 0;
}

/* in the child of a PROC_PROTOCOL spawn: the pipes become fd 3 (read) and fd 4
 * (write), stdin is /dev/null and stdout joins stderr */
static void protocol_fds(int rd, int wr)
{
    int a = fcntl(rd, F_DUPFD_CLOEXEC, 10), b = fcntl(wr, F_DUPFD_CLOEXEC, 10);
    int dn = open("/dev/null", O_RDONLY);
    if (dn >= 0) dup2(dn, 0);
    dup2(2, 1);
    dup2(a, 3);                                  /* dup2 clears close-on-exec on 3 and 4 */
    dup2(b, 4);
}

int proc_spawn(proc_t *p, char *const argv[], int stderr_mode)
{
    return proc_spawn_ex(p, argv, stderr_mode, 0);
}

int proc_spawn_ex(proc_t *p, char *const argv[], int stderr_mode, int flags)
{
    return proc_spawn_in(p, argv, stderr_mode, flags, NULL);
}

int proc_spawn_in(proc_t *p, char *const argv[], int stderr_mode, int flags, const proc_place *where)
{
    int in[2], out[2], st[2];
    memset(p, 0, sizeof *p);
    p->in_fd = p->out_fd = -1;
    signal(SIGPIPE, SIG_IGN);                      /* a dead child must not kill the host */
    if (pipe2(in, O_CLOEXEC)) return -1;
    if (pipe2(out, O_CLOEXEC)) { close(in[0]); close(in[1]); return -1; }
    if (pipe2(st, O_CLOEXEC)) { close(in[0]); close(in[1]); close(out[0]); close(out[1]); return -1; }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(in[0]); close(in[1]); close(out[0]); close(out[1]); close(st[0]); close(st[1]);
        errno = e;
        return -1;
    }
    if (pid == 0) {
        if (flags & PROC_OWNED) {
            setpgid(0, 0);
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent) _exit(127);   /* the parent died before prctl */
        }
        if (!(flags & PROC_PROTOCOL)) {
            dup2(in[0], 0);
            dup2(out[1], 1);
        }
        if (stderr_mode == PROC_STDERR_STDOUT) dup2(out[1], 2);
        else if (stderr_mode == PROC_STDERR_NULL) {
            int dn = open("/dev/null", O_WRONLY);
            if (dn >= 0) dup2(dn, 2);
        }
        if (flags & PROC_PROTOCOL) protocol_fds(in[0], out[1]);
        signal(SIGPIPE, SIG_DFL);
        if (where && where->log) {               /* stdout and stderr to the log, stdin empty */
            int lf = open(where->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
            int dn = open("/dev/null", O_RDONLY | O_CLOEXEC);
            if (lf < 0 || dn < 0) goto failed;
            dup2(dn, 0);
            dup2(lf, 1);
            dup2(lf, 2);
        }
        if (where && where->cwd && chdir(where->cwd)) goto failed;
        if (where && where->envp) execvpe(argv[0], argv, where->envp);
        else execvp(argv[0], argv);
    failed:;
        int e = errno;
        ssize_t w = write(st[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    if (flags & PROC_OWNED) { setpgid(pid, pid); own(pid); }
    close(in[0]); close(out[1]); close(st[1]);
    int e = 0;
    ssize_t r;
    do r = read(st[0], &e, sizeof e); while (r < 0 && errno == EINTR);
    close(st[0]);
    if (r == (ssize_t)sizeof e) {                  /* exec failed */
        close(in[1]); close(out[0]);
        waitpid(pid, NULL, 0);
        disown(pid);
        errno = e;
        return -1;
    }
    fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
    p->pid = pid;
    p->in_fd = in[1];
    p->out_fd = out[0];
    return 0;
}

int proc_write(proc_t *p, const char *data, size_t len)
{
    if (p->in_fd < 0) { errno = EPIPE; return -1; }
    while (len) {
        ssize_t w = write(p->in_fd, data, len);
        if (w < 0) { if (errno == EINTR) continue; return -1; }
        data += w; len -= (size_t)w;
    }
    return 0;
}

ssize_t proc_read(proc_t *p, char *buf, size_t len)
{
    if (p->out_fd < 0) return 0;
    ssize_t r;
    do r = read(p->out_fd, buf, len); while (r < 0 && errno == EINTR);
    return r;
}

int proc_kill(proc_t *p, int sig)
{
    if (p->pid <= 0 || p->exited) return 0;
    return kill(p->pid, sig);
}

int proc_reap(proc_t *p, int wait)
{
    if (p->exited) return 1;
    if (p->pid <= 0) return 1;
    int status;
    pid_t r;
    do r = waitpid(p->pid, &status, wait ? 0 : WNOHANG); while (r < 0 && errno == EINTR);
    if (r == p->pid) {
        disown(p->pid);
        p->exited = 1;
        p->status = status;
        return 1;
    }
    return 0;
}

void proc_close_fds(proc_t *p)
{
    if (p->in_fd >= 0) close(p->in_fd);
    if (p->out_fd >= 0) close(p->out_fd);
    p->in_fd = p->out_fd = -1;
}
