/* fs.c — see fs.h. */
#include "fs.h"
#include "sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int fs_mkdir_p(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) { errno = ENAMETOOLONG; return -1; }
    memcpy(buf, path, n + 1);
    for (char *p = buf + 1; ; p++) {
        if (*p == '/' || *p == 0) {
            char c = *p;
            *p = 0;
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
            struct stat st;
            if (stat(buf, &st) != 0) return -1;
            if (!S_ISDIR(st.st_mode)) { errno = ENOTDIR; return -1; }
            *p = c;
            if (c == 0) break;
        }
    }
    return 0;
}

static int write_full(int fd, const char *p, size_t len)
{
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0) { if (errno == EINTR) continue; return -1; }
        p += w; len -= (size_t)w;
    }
    return 0;
}

static int fsync_dir_of(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0) return -1;
    int r = fsync(fd);
    close(fd);
    return r;
}

int fs_write_atomic(const char *path, const void *data, size_t len)
{
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) return -1;
    if (write_full(fd, data, len) || fsync(fd)) {
        int e = errno;
        close(fd); unlink(tmp);
        errno = e;
        return -1;
    }
    if (close(fd) || rename(tmp, path)) {
        int e = errno;
        unlink(tmp);
        errno = e;
        return -1;
    }
    return fsync_dir_of(path);
}

int fs_read_all(const char *path, char **data, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0) { int e = errno; close(fd); errno = e; return -1; }
    if (S_ISDIR(st.st_mode)) { close(fd); errno = EISDIR; return -1; }
    size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096, n = 0;
    char *buf = malloc(cap);
    if (!buf) { close(fd); errno = ENOMEM; return -1; }
    for (;;) {
        if (n + 1 >= cap) {
            char *b2 = realloc(buf, cap *= 2);
            if (!b2) { free(buf); close(fd); errno = ENOMEM; return -1; }
            buf = b2;
        }
        ssize_t r = read(fd, buf + n, cap - n - 1);
        if (r < 0) { if (errno == EINTR) continue; int e = errno; free(buf); close(fd); errno = e; return -1; }
        if (r == 0) break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = 0;
    *data = buf;
    *len = n;
    return 0;
}

int fs_appender_open(fs_appender *a, const char *path, size_t *torn)
{
    *torn = 0;
    a->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    if (a->fd < 0) return -1;
    off_t size = lseek(a->fd, 0, SEEK_END);
    if (size < 0) goto fail;
    /* walk back from the end to the last newline */
    off_t keep = size;
    char buf[4096];
    while (keep > 0) {
        off_t from = keep > (off_t)sizeof buf ? keep - (off_t)sizeof buf : 0;
        ssize_t r = pread(a->fd, buf, (size_t)(keep - from), from);
        if (r < 0) goto fail;
        ssize_t i = r - 1;
        while (i >= 0 && buf[i] != '\n') i--;
        if (i >= 0) { keep = from + i + 1; break; }
        keep = from;
    }
    if (keep < size) {
        if (ftruncate(a->fd, keep) || fsync(a->fd)) goto fail;
        *torn = (size_t)(size - keep);
    }
    return 0;
fail:;
    int e = errno;
    close(a->fd);
    a->fd = -1;
    errno = e;
    return -1;
}

int fs_appender_write(fs_appender *a, const char *line, size_t len)
{
    if (a->fd < 0) { errno = EBADF; return -1; }
    char *buf = malloc(len + 1);
    if (!buf) { errno = ENOMEM; return -1; }
    memcpy(buf, line, len);
    buf[len] = '\n';
    int r = write_full(a->fd, buf, len + 1);
    free(buf);
    if (r == 0) r = fdatasync(a->fd);
    return r;
}

int fs_appender_close(fs_appender *a)
{
    if (a->fd < 0) return 0;
    int r = close(a->fd);
    a->fd = -1;
    return r;
}

int fs_sha256_file(const char *path, char hex[65])
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    sha256_ctx c;
    sha256_init(&c);
    char buf[65536];
    for (;;) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r < 0) { if (errno == EINTR) continue; int e = errno; close(fd); errno = e; return -1; }
        if (r == 0) break;
        sha256_update(&c, buf, (size_t)r);
    }
    close(fd);
    unsigned char d[32];
    sha256_final(&c, d);
    sha256_hex(d, hex);
    return 0;
}

int fs_lock(const char *path, long *holder)
{
    *holder = 0;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        char buf[32] = "";
        ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
        if (n > 0) { buf[n] = 0; *holder = strtol(buf, NULL, 10); }
        close(fd);
        errno = e;
        return -1;
    }
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, buf, (size_t)n, 0) != n) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}
