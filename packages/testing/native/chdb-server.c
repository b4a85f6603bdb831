/*
 * Runs the ClickHouse engine inside chDB's libchdb.so as a server process for tests.
 *
 * libchdb.so holds clickhouse-local together with the real TCP and HTTP handlers, and
 * exports chdb_query_cmdline(argc, argv), which runs clickhouse-local's command line. The
 * harness passes a --query that opens the listeners (SYSTEM START LISTEN) and then keeps
 * running; this program only loads the library and hands it the rest of its arguments:
 *
 *   chdb-server /path/to/libchdb.so --config-file=... --path=... --query "..."
 *
 * It is a program of its own rather than a call through an FFI module in Node so that the
 * server is one plain process: the keeper signals it directly, and its RSS is the engine's.
 */
#include <dlfcn.h>
#include <stdio.h>

typedef void *(*query_cmdline)(int argc, char **argv);

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s LIBCHDB [clickhouse-local arguments...]\n", argv[0]);
    return 2;
  }
  void *library = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
  if (library == NULL) {
    fprintf(stderr, "chdb-server: cannot load %s: %s\n", argv[1], dlerror());
    return 2;
  }
  query_cmdline run = (query_cmdline)dlsym(library, "chdb_query_cmdline");
  if (run == NULL) {
    fprintf(stderr, "chdb-server: %s has no chdb_query_cmdline: %s\n", argv[1], dlerror());
    return 2;
  }
  /* clickhouse-local reads argv[0] as its program name. */
  argv[1] = "clickhouse";
  run(argc - 1, argv + 1);
  /* The keeper query only ends when the engine shuts down, for whatever reason. */
  fprintf(stderr, "chdb-server: the engine returned\n");
  return 1;
}
