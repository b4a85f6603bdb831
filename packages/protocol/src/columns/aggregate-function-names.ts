// Apart from aggregate-state-extent.ts, which loads on demand with the AggregateFunction
// codec, so that the list is exported without it.

/** Functions whose states clickwire can delimit. */
export const supportedAggregateFunctions: readonly string[] = [
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'any',
  'anyLast',
  'argMin',
  'argMax',
  'uniq',
  'uniqExact',
  'groupArray',
]
