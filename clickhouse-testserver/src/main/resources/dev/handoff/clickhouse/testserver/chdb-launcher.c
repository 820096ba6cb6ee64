/* chdb-launcher: serves SQL queries on ONE libchdb connection (a ClickHouse engine in process),
   over stdin and stdout, so that a test runs many queries without loading the library again.
   Built by dev.handoff.clickhouse.testserver.Chdb at first use:
     gcc -O1 chdb-launcher.c -o chdb-launcher -L"$LIB" -lchdb -Wl,-rpath,"$LIB"

   usage: chdb-launcher SESSION_DIR     (the engine keeps its data in SESSION_DIR/data)

   Protocol (integers big-endian, text UTF-8):
     request:  u32 format length, format, u32 sql length, sql
     response: u8 status (0: result, 1: engine error), u64 length, that many bytes (the result in
               the requested format, or the engine's error text)
   Once connected it sends one response, before any request: status 0 with "ready", or status 1
   with the reason it could not connect (and then exits 2). End of input (the parent closed the
   pipe or died) closes the connection, deletes SESSION_DIR and exits 0, so a session's files go even
   when the JVM is killed. The library's own output to stdout goes to stderr, so it cannot corrupt
   the protocol. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct { void *internal_data; } chdb_connection_;
typedef chdb_connection_ *chdb_connection;
typedef struct chdb_result_ chdb_result;
extern chdb_connection *chdb_connect(int argc, char **argv);
extern void chdb_close_conn(chdb_connection *conn);
extern chdb_result *chdb_query(chdb_connection conn, const char *query, const char *format);
extern char *chdb_result_buffer(chdb_result *r);
extern size_t chdb_result_length(chdb_result *r);
extern const char *chdb_result_error(chdb_result *r);
extern void chdb_destroy_query_result(chdb_result *r);

static int in_fd, out_fd;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st; (void)flag; (void)ftw;
  if (remove(path) != 0) perror(path);
  return 0;
}

/* Closes the connection and deletes the session directory (the whole tree, links not followed). */
static void finish(chdb_connection *conn, const char *session_dir) {
  chdb_close_conn(conn);
  nftw(session_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Reads exactly n bytes; returns 0 on success, 1 on a clean end of input before the first byte,
   -1 on a short read or an error. */
static int read_fully(void *buf, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t r = read(in_fd, (char *)buf + done, n - done);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return (r == 0 && done == 0) ? 1 : -1;
    done += (size_t)r;
  }
  return 0;
}

static void write_fully(const void *buf, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t w = write(out_fd, (const char *)buf + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) { perror("chdb-launcher: write"); exit(3); }
    done += (size_t)w;
  }
}

static void respond(int status, const char *data, uint64_t len) {
  unsigned char head[9];
  head[0] = (unsigned char)status;
  for (int i = 0; i < 8; i++) head[1 + i] = (unsigned char)(len >> (56 - 8 * i));
  write_fully(head, sizeof head);
  if (len > 0) write_fully(data, (size_t)len);
}

/* Reads a u32-prefixed string into a fresh NUL-terminated buffer; returns as read_fully. */
static int read_string(char **out) {
  unsigned char b[4];
  int r = read_fully(b, 4);
  if (r != 0) return r;
  uint32_t n = ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
  char *s = malloc((size_t)n + 1);
  if (!s) { fprintf(stderr, "chdb-launcher: out of memory for %u bytes\n", n); exit(3); }
  if (n > 0 && read_fully(s, n) != 0) { free(s); return -1; }
  s[n] = 0;
  *out = s;
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: chdb-launcher SESSION_DIR\n"); return 1; }
  /* Keep the protocol's pipes private: fd 1 becomes stderr, fd 0 becomes /dev/null. */
  in_fd = dup(0);
  out_fd = dup(1);
  if (in_fd < 0 || out_fd < 0 || dup2(2, 1) < 0) { perror("chdb-launcher: dup"); return 3; }
  if (!freopen("/dev/null", "r", stdin)) { perror("chdb-launcher: /dev/null"); return 3; }

  size_t plen = strlen(argv[1]) + 16;
  char *patharg = malloc(plen);
  snprintf(patharg, plen, "--path=%s/data", argv[1]);
  char *args[] = {"clickhouse", patharg};
  chdb_connection *conn = chdb_connect(2, args);
  if (!conn || !*conn) {
    const char *why = "chdb_connect returned no connection (see stderr)";
    respond(1, why, strlen(why));
    return 2;
  }
  respond(0, "ready", 5);

  for (;;) {
    char *format = NULL, *sql = NULL;
    int r = read_string(&format);
    if (r == 1) break;
    if (r != 0 || read_string(&sql) != 0) {
      fprintf(stderr, "chdb-launcher: truncated request\n");
      free(format);
      finish(conn, argv[1]);
      return 4;
    }
    chdb_result *result = chdb_query(*conn, sql, format);
    if (!result) {
      const char *why = "chdb_query returned no result";
      respond(1, why, strlen(why));
    } else {
      const char *error = chdb_result_error(result);
      if (error) {
        respond(1, error, strlen(error));
      } else {
        const char *buf = chdb_result_buffer(result);
        size_t len = chdb_result_length(result);
        respond(0, buf, buf ? len : 0);
      }
      chdb_destroy_query_result(result);
    }
    free(format);
    free(sql);
  }
  finish(conn, argv[1]);
  return 0;
}
