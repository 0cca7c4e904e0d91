/* fs.h — crash-safe file operations for records. Every function returns 0 on
 * success or -1 with errno set; none prints. */
#ifndef TABULA_FS_H
#define TABULA_FS_H

#include <stddef.h>
#include <sys/types.h>

int fs_mkdir_p(const char *path);
/* Write data to a temporary file beside path, fsync it, rename over path, fsync the directory. */
int fs_write_atomic(const char *path, const void *data, size_t len);
/* Read a whole file into a malloc'd buffer (NUL-terminated; *len excludes the NUL). */
int fs_read_all(const char *path, char **data, size_t *len);

/* JSONL appender: one write(2) per record, then fsync. */
typedef struct { int fd; } fs_appender;
/* Open for appending. If the file ends in a torn line (no final newline), the
 * torn bytes are cut off first and their count stored in *torn. */
int fs_appender_open(fs_appender *a, const char *path, size_t *torn);
/* Append line + "\n" as one write, and fsync. line must not contain '\n'. */
int fs_appender_write(fs_appender *a, const char *line, size_t len);
int fs_appender_close(fs_appender *a);

int fs_sha256_file(const char *path, char hex[65]);

/* An advisory lock (flock) on path, created if needed, holding the locking
 * process's id. Returns the open fd (the lock lasts until it is closed or the
 * process ends), or -1 with errno; EWOULDBLOCK when another open file holds
 * it, with the holder's pid (as written in the file, 0 if unknown) in *holder. */
int fs_lock(const char *path, long *holder);

#endif
