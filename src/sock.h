/* sock.h — loopback sockets for servers inside tabula (the metering proxy of
 * agent programs, the seats' MCP bridge): TCP on a loopback address and Unix
 * domain sockets. Every descriptor is non-blocking and close-on-exec; the
 * caller watches it with the event loop (loop.h). */
#ifndef TABULA_SOCK_H
#define TABULA_SOCK_H

/* Listen on host:port (port 0: a free port, reported in *bound). -1 with errno. */
int sock_listen_tcp(const char *host, int port, int *bound);
/* Listen on a Unix socket at path (a stale socket file there is removed; mode 0600).
 * -1 with errno (ENAMETOOLONG when path does not fit sun_path). */
int sock_listen_unix(const char *path);
/* Accept one connection: the new fd, or -1 with errno (EAGAIN: none waiting). */
int sock_accept(int fd);
/* Connect to a Unix socket (blocking connect, then non-blocking). -1 with errno. */
int sock_connect_unix(const char *path);
/* Connect to host:port over TCP (blocking connect, then non-blocking). -1 with errno. */
int sock_connect_tcp(const char *host, int port);
/* Send what fits of data without blocking and without SIGPIPE (a peer that is
 * gone gives EPIPE): the bytes sent, or -1 with errno (EAGAIN: none fit now). */
long sock_send(int fd, const char *data, unsigned long len);

#endif
