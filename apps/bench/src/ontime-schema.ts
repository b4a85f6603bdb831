/**
 * The `perftest.ontime` table of the reference benchmark: the column list and types
 * exactly as the reference creates them, and the column projections its scripts select.
 */

/** ClickHouse types used by the table. */
export type OntimeType =
  | 'UInt8'
  | 'UInt16'
  | 'Int32'
  | 'Date'
  | 'String'
  | 'FixedString(1)'
  | 'FixedString(2)'
  | 'FixedString(5)'
  | 'FixedString(7)'

/** Column names and types in table order. */
export const ontimeColumns = [
  ['Year', 'UInt16'],
  ['Quarter', 'UInt8'],
  ['Month', 'UInt8'],
  ['DayofMonth', 'UInt8'],
  ['DayOfWeek', 'UInt8'],
  ['FlightDate', 'Date'],
  ['UniqueCarrier', 'FixedString(7)'],
  ['AirlineID', 'Int32'],
  ['Carrier', 'FixedString(2)'],
  ['TailNum', 'String'],
  ['FlightNum', 'String'],
  ['OriginAirportID', 'Int32'],
  ['OriginAirportSeqID', 'Int32'],
  ['OriginCityMarketID', 'Int32'],
  ['Origin', 'FixedString(5)'],
  ['OriginCityName', 'String'],
  ['OriginState', 'FixedString(2)'],
  ['OriginStateFips', 'String'],
  ['OriginStateName', 'String'],
  ['OriginWac', 'Int32'],
  ['DestAirportID', 'Int32'],
  ['DestAirportSeqID', 'Int32'],
  ['DestCityMarketID', 'Int32'],
  ['Dest', 'FixedString(5)'],
  ['DestCityName', 'String'],
  ['DestState', 'FixedString(2)'],
  ['DestStateFips', 'String'],
  ['DestStateName', 'String'],
  ['DestWac', 'Int32'],
  ['CRSDepTime', 'Int32'],
  ['DepTime', 'Int32'],
  ['DepDelay', 'Int32'],
  ['DepDelayMinutes', 'Int32'],
  ['DepDel15', 'Int32'],
  ['DepartureDelayGroups', 'String'],
  ['DepTimeBlk', 'String'],
  ['TaxiOut', 'Int32'],
  ['WheelsOff', 'Int32'],
  ['WheelsOn', 'Int32'],
  ['TaxiIn', 'Int32'],
  ['CRSArrTime', 'Int32'],
  ['ArrTime', 'Int32'],
  ['ArrDelay', 'Int32'],
  ['ArrDelayMinutes', 'Int32'],
  ['ArrDel15', 'Int32'],
  ['ArrivalDelayGroups', 'Int32'],
  ['ArrTimeBlk', 'String'],
  ['Cancelled', 'UInt8'],
  ['CancellationCode', 'FixedString(1)'],
  ['Diverted', 'UInt8'],
  ['CRSElapsedTime', 'Int32'],
  ['ActualElapsedTime', 'Int32'],
  ['AirTime', 'Int32'],
  ['Flights', 'Int32'],
  ['Distance', 'Int32'],
  ['DistanceGroup', 'UInt8'],
  ['CarrierDelay', 'Int32'],
  ['WeatherDelay', 'Int32'],
  ['NASDelay', 'Int32'],
  ['SecurityDelay', 'Int32'],
  ['LateAircraftDelay', 'Int32'],
  ['FirstDepTime', 'String'],
  ['TotalAddGTime', 'String'],
  ['LongestAddGTime', 'String'],
  ['DivAirportLandings', 'String'],
  ['DivReachedDest', 'String'],
  ['DivActualElapsedTime', 'String'],
  ['DivArrDelay', 'String'],
  ['DivDistance', 'String'],
  ...[1, 2, 3, 4, 5].flatMap(
    (n) =>
      [
        [`Div${n}Airport`, 'String'],
        [`Div${n}AirportID`, 'Int32'],
        [`Div${n}AirportSeqID`, 'Int32'],
        [`Div${n}WheelsOn`, 'String'],
        [`Div${n}TotalGTime`, 'String'],
        [`Div${n}LongestGTime`, 'String'],
        [`Div${n}WheelsOff`, 'String'],
        [`Div${n}TailNum`, 'String'],
      ] as const,
  ),
] as const satisfies readonly (readonly [string, OntimeType])[]

export type OntimeColumnName = (typeof ontimeColumns)[number][0]

/** `CREATE TABLE` of the reference, for the database given. */
export function createOntimeTable(database = 'perftest', table = 'ontime'): string {
  const columns = ontimeColumns.map(([name, type]) => `  ${name} ${type}`).join(',\n')
  return `CREATE TABLE ${database}.${table} (\n${columns}\n) ENGINE = MergeTree\nPARTITION BY Year\nORDER BY (Carrier, FlightDate)\nSETTINGS index_granularity = 8192`
}

/**
 * String columns the reference's "string rows" scripts select: every String and
 * FixedString column except the Date.
 */
export const stringColumns: readonly OntimeColumnName[] = ontimeColumns
  .filter(([, type]) => type === 'String' || type.startsWith('FixedString'))
  .map(([name]) => name)

/** Integer columns the reference's "int rows" scripts select: every integer column. */
export const intColumns: readonly OntimeColumnName[] = ontimeColumns
  .filter(([, type]) => type === 'Int32' || type.startsWith('UInt'))
  .map(([name]) => name)

/** The reference's row cutoffs: `FlightDate < cutoff` and the rows the real 2017 data has below it. */
export const referenceCutoffs = [
  { date: '2017-01-04', label: '45k', referenceRows: 45202 },
  { date: '2017-01-10', label: '131k', referenceRows: 131848 },
  { date: '2017-01-16', label: '217k', referenceRows: 217015 },
  { date: '2017-02-01', label: '450k', referenceRows: 450017 },
  { date: '2017-02-18', label: '697k', referenceRows: 697813 },
] as const

export type Cutoff = (typeof referenceCutoffs)[number]
