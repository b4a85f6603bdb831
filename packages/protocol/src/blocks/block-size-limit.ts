/**
 * The default limit on the decoded size of one block (the `maxBlockBytes` option): the
 * bytes its Native form takes uncompressed. Servers cut blocks at `max_block_size` rows
 * (65,536) and `preferred_block_size_bytes` (1 MB), so a real block stays far below it;
 * without a bound, a hostile server's 10 MB of LZ4 frames would ask for gigabytes.
 */
export const defaultMaxBlockBytes = 256 << 20
