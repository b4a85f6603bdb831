import { describe, expect, it } from 'vitest'
import { createOntimeTable, intColumns, ontimeColumns, stringColumns } from './ontime-schema.js'

// The column lists of the reference scripts (8)-(13) and (21)-(24), in their order.
const referenceStrings =
  'UniqueCarrier Carrier TailNum FlightNum Origin OriginCityName OriginState OriginStateFips OriginStateName Dest ' +
  'DestCityName DestState DestStateFips DestStateName DepartureDelayGroups DepTimeBlk ArrTimeBlk CancellationCode ' +
  'FirstDepTime TotalAddGTime LongestAddGTime DivAirportLandings DivReachedDest DivActualElapsedTime DivArrDelay ' +
  'DivDistance Div1Airport Div1WheelsOn Div1TotalGTime Div1LongestGTime Div1WheelsOff Div1TailNum Div2Airport ' +
  'Div2WheelsOn Div2TotalGTime Div2LongestGTime Div2WheelsOff Div2TailNum Div3Airport Div3WheelsOn Div3TotalGTime ' +
  'Div3LongestGTime Div3WheelsOff Div3TailNum Div4Airport Div4WheelsOn Div4TotalGTime Div4LongestGTime ' +
  'Div4WheelsOff Div4TailNum Div5Airport Div5WheelsOn Div5TotalGTime Div5LongestGTime Div5WheelsOff Div5TailNum'
const referenceInts =
  'Year Quarter Month DayofMonth DayOfWeek AirlineID OriginAirportID OriginAirportSeqID OriginCityMarketID ' +
  'OriginWac DestAirportID DestAirportSeqID DestCityMarketID DestWac CRSDepTime DepTime DepDelay DepDelayMinutes ' +
  'DepDel15 TaxiOut WheelsOff WheelsOn TaxiIn CRSArrTime ArrTime ArrDelay ArrDelayMinutes ArrDel15 ' +
  'ArrivalDelayGroups Cancelled Diverted CRSElapsedTime ActualElapsedTime AirTime Flights Distance DistanceGroup ' +
  'CarrierDelay WeatherDelay NASDelay SecurityDelay LateAircraftDelay Div1AirportID Div1AirportSeqID ' +
  'Div2AirportID Div2AirportSeqID Div3AirportID Div3AirportSeqID Div4AirportID Div4AirportSeqID Div5AirportID ' +
  'Div5AirportSeqID'

describe('the ontime schema', () => {
  it('has the reference table: 109 columns, its types, its engine', () => {
    expect(ontimeColumns).toHaveLength(109)
    const ddl = createOntimeTable()
    expect(ddl.startsWith('CREATE TABLE perftest.ontime (\n  Year UInt16,\n  Quarter UInt8,')).toBe(true)
    expect(ddl).toContain('  FlightDate Date,\n  UniqueCarrier FixedString(7),\n  AirlineID Int32,')
    expect(ddl).toContain('  CancellationCode FixedString(1),')
    expect(ddl).toContain('  Div5WheelsOff String,\n  Div5TailNum String\n)')
    expect(
      ddl.endsWith(
        ') ENGINE = MergeTree\nPARTITION BY Year\nORDER BY (Carrier, FlightDate)\nSETTINGS index_granularity = 8192',
      ),
    ).toBe(true)
  })

  it('selects the same string and int columns as the reference scripts', () => {
    expect(stringColumns.join(' ')).toBe(referenceStrings)
    expect(intColumns.join(' ')).toBe(referenceInts)
  })
})
