/* proc.h — child processes started from an argv (no shell), with pipes to
 * their stdin and stdout; the caller polls the non-blocking stdout fd. */
#ifndef TABULA_PROC_H
#define TABULA_PROC_H

#include <stddef.h>
#include <sys/types.h>

enum { PROC_STDERR_NULL = 0, PROC_STDERR_INHERIT = 1, PROC_STDERR_STDOUT = 2 };

/* proc_spawn_ex flags */
enum {
    PROC_PROTOCOL = 1,  /* the pipes are the child's fd 3 (its input) and fd 4 (its output);
                           its stdin is /dev/null and its stdout goes to our stderr */
    PROC_OWNED = 2,     /* the child dies with us: parent-death signal SIGKILL, its own
                           process group, killed (with its group) by proc_kill_owned */
};

typedef struct {
    pid_t pid;
    int in_fd;      /* write end of the child's stdin, or -1 */
    int out_fd;     /* read end of the child's stdout (non-blocking), or -1 */
    int exited, status;
} proc_t;

/* Start argv[0] (searched in PATH) with argv. Returns 0, or -1 with errno
 * (ENOENT when the program does not exist). */
int proc_spawn(proc_t *p, char *const argv[], int stderr_mode);
/* proc_spawn with PROC_* flags. */
int proc_spawn_ex(proc_t *p, char *const argv[], int stderr_mode, int flags);
/* Where and how a child runs (proc_spawn_in); a NULL field keeps ours. */
typedef struct {
    const char *cwd;          /* its working directory */
    char *const *envp;        /* its whole environment (NULL-terminated "NAME=value"); the
                                 program is still searched in our PATH */
    const char *log;          /* its stdout and stderr appended to this file, stdin /dev/null */
} proc_place;
/* proc_spawn_ex, run in a place of its own. */
int proc_spawn_in(proc_t *p, char *const argv[], int stderr_mode, int flags, const proc_place *where);
/* SIGKILL the process group of every PROC_OWNED child not yet reaped.
 * Async-signal-safe (a signal handler calls it); also run at exit(). */
void proc_kill_owned(void);
/* 'R', 'S', 'T' (stopped), 'Z', ... from /proc/PID/stat, or 0 if unknown. */
int proc_state(pid_t pid);
/* Write all of data to the child's stdin (blocking). -1 with errno (EPIPE if it died). */
int proc_write(proc_t *p, const char *data, size_t len);
/* Non-blocking read: >0 bytes, 0 at end of file, -1 with errno EAGAIN when nothing is ready. */
ssize_t proc_read(proc_t *p, char *buf, size_t len);
int proc_kill(proc_t *p, int sig);
/* Reap the child; block if wait is set. 1 if it has exited (status in p->status), else 0. */
int proc_reap(proc_t *p, int wait);
void proc_close_fds(proc_t *p);

#endif
