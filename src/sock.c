/* sock.c — loopback sockets (sock.h). */
#include "sock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static int fail_close(int fd)
{
    int e = errno;
    close(fd);
    errno = e;
    return -1;
}

/* A server in tabula writes to peers that may be gone: that must fail the
 * write (EPIPE), never kill the host (SIGPIPE is otherwise only ignored once
 * a child process has been started). */
static void ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

static int nonblocking(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static int inet_addr_of(const char *host, int port, struct sockaddr_in *a)
{
    memset(a, 0, sizeof *a);
    a->sin_family = AF_INET;
    a->sin_port = htons((unsigned short)port);
    if (port < 0 || port > 65535 || inet_pton(AF_INET, host, &a->sin_addr) != 1) { errno = EINVAL; return -1; }
    return 0;
}

static int unix_addr_of(const char *path, struct sockaddr_un *a)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    if (strlen(path) >= sizeof a->sun_path) { errno = ENAMETOOLONG; return -1; }
    strcpy(a->sun_path, path);
    return 0;
}

int sock_listen_tcp(const char *host, int port, int *bound)
{
    struct sockaddr_in a;
    if (inet_addr_of(host, port, &a)) return -1;
    ignore_sigpipe();
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 64)) return fail_close(fd);
    socklen_t len = sizeof a;
    if (getsockname(fd, (struct sockaddr *)&a, &len)) return fail_close(fd);
    if (bound) *bound = ntohs(a.sin_port);
    return fd;
}

int sock_listen_unix(const char *path)
{
    struct sockaddr_un a;
    if (unix_addr_of(path, &a)) return -1;
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode)) unlink(path);
    ignore_sigpipe();
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    mode_t old = umask(077);
    int r = bind(fd, (struct sockaddr *)&a, sizeof a);
    umask(old);
    if (r || listen(fd, 16)) return fail_close(fd);
    return fd;
}

int sock_accept(int fd)
{
    int c;
    do c = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); while (c < 0 && errno == EINTR);
    return c;
}

static int connect_blocking(int fd, const struct sockaddr *a, socklen_t len)
{
    int r;
    do r = connect(fd, a, len); while (r < 0 && errno == EINTR);
    if (r) return fail_close(fd);
    if (nonblocking(fd)) return fail_close(fd);
    return fd;
}

int sock_connect_unix(const char *path)
{
    struct sockaddr_un a;
    if (unix_addr_of(path, &a)) return -1;
    ignore_sigpipe();
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    return connect_blocking(fd, (struct sockaddr *)&a, sizeof a);
}

int sock_connect_tcp(const char *host, int port)
{
    struct sockaddr_in a;
    if (inet_addr_of(host, port, &a)) return -1;
    ignore_sigpipe();
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    return connect_blocking(fd, (struct sockaddr *)&a, sizeof a);
}

long sock_send(int fd, const char *data, unsigned long len)
{
    ssize_t w;
    do w = send(fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT); while (w < 0 && errno == EINTR);
    return (long)w;
}
