/**
 * Common ClickHouse settings, typed and documented so editors offer them; {@link Settings}
 * accepts any other name as well. Values travel as the server's text of them: numbers,
 * booleans (as 0/1) and strings as ClickHouse spells them. A few hundred more exist; see
 * `SELECT name, description FROM system.settings`.
 */
export interface KnownSettings {
  // Limits of a query.
  /** Seconds a query may run before the server stops it (TIMEOUT_EXCEEDED); 0 for none. */
  readonly max_execution_time?: number | bigint | string | undefined
  /** What to do past a limit: `throw` (the default) or `break` (return what was read). */
  readonly timeout_overflow_mode?: 'throw' | 'break' | undefined
  /** Threads one query uses; default the number of cores. */
  readonly max_threads?: number | bigint | string | undefined
  /** Memory one query may use, in bytes; 0 for no limit. */
  readonly max_memory_usage?: number | bigint | string | undefined
  /** Rows one query may read; 0 for no limit. */
  readonly max_rows_to_read?: number | bigint | string | undefined
  /** Rows a result may have; 0 for no limit (see `result_overflow_mode`). */
  readonly max_result_rows?: number | bigint | string | undefined
  /** What to do past `max_result_rows`/`max_result_bytes`: `throw` or `break`. */
  readonly result_overflow_mode?: 'throw' | 'break' | undefined
  /** Length of a query's text the parser takes, in bytes (default 262144). */
  readonly max_query_size?: number | bigint | string | undefined
  /** Rows per block the server reads and sends (default 65409 on 26.x, 65536 before). */
  readonly max_block_size?: number | bigint | string | undefined
  /** Rows per block an INSERT forms on the server (default 1048449). */
  readonly max_insert_block_size?: number | bigint | string | undefined
  // Permissions.
  /** 0 (false): any query; 1 (true): reads only, settings cannot change; 2: reads and settings changes. */
  readonly readonly?: 0 | 1 | 2 | '0' | '1' | '2' | boolean | undefined
  // Inserts.
  /** Buffers small inserts on the server and writes them together (asynchronous inserts). */
  readonly async_insert?: boolean | 0 | 1 | '0' | '1' | undefined
  /** With `async_insert`: whether an insert returns only once its buffer is written (default 1). */
  readonly wait_for_async_insert?: boolean | 0 | 1 | '0' | '1' | undefined
  /** With `async_insert`: seconds an insert waits for its buffer to be written. */
  readonly wait_for_async_insert_timeout?: number | bigint | string | undefined
  /** Replicas that must confirm an insert into a Replicated table; `auto` for a majority. */
  readonly insert_quorum?: number | bigint | 'auto' | (string & {}) | undefined
  /** Milliseconds an insert waits for `insert_quorum` replicas. */
  readonly insert_quorum_timeout?: number | bigint | string | undefined
  /** Whether repeated insert blocks into Replicated tables are dropped as duplicates (default 1). */
  readonly insert_deduplicate?: boolean | 0 | 1 | '0' | '1' | undefined
  /** A token that makes a retried insert a duplicate of the first one. */
  readonly insert_deduplication_token?: string | undefined
  /** Text formats: fill a column's DEFAULT for a field the input leaves out. */
  readonly input_format_defaults_for_omitted_fields?: boolean | 0 | 1 | '0' | '1' | undefined
  /** Text formats: skip fields whose names are no column (JSONEachRow, TSKV, ...). */
  readonly input_format_skip_unknown_fields?: boolean | 0 | 1 | '0' | '1' | undefined
  // Queries.
  /** Whether an outer JOIN fills missing sides with NULL (1) rather than default values (0). */
  readonly join_use_nulls?: boolean | 0 | 1 | '0' | '1' | undefined
  /** JOIN algorithm: `default`, `hash`, `parallel_hash`, `partial_merge`, `grace_hash`, `auto`, ... */
  readonly join_algorithm?: string | undefined
  /** Whether `FINAL` is applied to every table of a query that supports it. */
  readonly final?: boolean | 0 | 1 | '0' | '1' | undefined
  /** Adds a row of minimums and maximums to results (the result's `extremes`). */
  readonly extremes?: boolean | 0 | 1 | '0' | '1' | undefined
  /** Rows a SELECT returns at most, as an outer LIMIT. */
  readonly limit?: number | bigint | string | undefined
  /** Rows a SELECT skips, as an outer OFFSET. */
  readonly offset?: number | bigint | string | undefined
  /** Waits for ALTER ... UPDATE/DELETE: 0 none, 1 this replica, 2 all replicas. */
  readonly mutations_sync?: 0 | 1 | 2 | '0' | '1' | '2' | undefined
  /** The time zone for DateTime values without one in this session/query. */
  readonly session_timezone?: string | undefined
  /** Log lines the server sends with a query's result: `none`, `error`, `warning`, `information`, `debug`, `trace`. */
  readonly send_logs_level?: string | undefined
  /** Whether to use the query cache (23.1+). */
  readonly use_query_cache?: boolean | 0 | 1 | '0' | '1' | undefined
  /** Whether distributed DDL waits, and how: `throw`, `none`, `null_status_on_timeout`, ... */
  readonly distributed_ddl_output_mode?: string | undefined
  // Output formats (queryRaw).
  /** JSON formats: 64-bit integers as quoted strings (default 1). */
  readonly output_format_json_quote_64bit_integers?: boolean | 0 | 1 | '0' | '1' | undefined
  /** JSON formats: Decimals as quoted strings. */
  readonly output_format_json_quote_decimals?: boolean | 0 | 1 | '0' | '1' | undefined
  /** JSON formats: `nan` and `inf` as such rather than null. */
  readonly output_format_json_quote_denormals?: boolean | 0 | 1 | '0' | '1' | undefined
  /** JSON formats: named tuples as objects. */
  readonly output_format_json_named_tuples_as_objects?: boolean | 0 | 1 | '0' | '1' | undefined
  /** Pretty formats: rows at most. */
  readonly output_format_pretty_max_rows?: number | bigint | string | undefined
  /** CSV: the field delimiter (one character). */
  readonly format_csv_delimiter?: string | undefined
  /** Parquet: the compression codec of written files: `lz4`, `snappy`, `zstd`, `gzip`, `none`. */
  readonly output_format_parquet_compression_method?: string | undefined
  /** Arrow: String columns as Arrow Binary (0) or Utf8 (1). */
  readonly output_format_arrow_string_as_string?: boolean | 0 | 1 | '0' | '1' | undefined
  /** Arrow: LowCardinality columns as Arrow dictionaries. */
  readonly output_format_arrow_low_cardinality_as_dictionary?: boolean | 0 | 1 | '0' | '1' | undefined
  // HTTP.
  /** HTTP: progress headers while a query runs (clickwire sets it when asked for progress). */
  readonly send_progress_in_http_headers?: boolean | 0 | 1 | '0' | '1' | undefined
  /** HTTP: bytes of the result the server holds back so an error can still be an HTTP status. */
  readonly http_response_buffer_size?: number | bigint | string | undefined
  /** HTTP: whether the server holds the whole result back until the query ends. */
  readonly wait_end_of_query?: boolean | 0 | 1 | '0' | '1' | undefined
}
