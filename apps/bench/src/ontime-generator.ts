import { type Airport, airports, type Carrier, carriers } from './ontime-places.js'
import { type Cutoff, type OntimeColumnName, ontimeColumns, referenceCutoffs } from './ontime-schema.js'
import { RandomSource, WeightedPicker } from './random-source.js'

/**
 * A deterministic generator of realistic US domestic flights for 2017-01-01..2017-02-17,
 * in the shape of the BTS on-time table. There is no internet here to fetch the real
 * monthly zips, so the benchmark runs on this instead: the same 109 columns, the same
 * kinds of values (short ASCII strings, mostly-empty Div* columns, small integers), and
 * daily counts that put each reference cutoff at exactly the row count of the real data.
 *
 * How it is built: one network schedule (carriers by market share, hub-and-spoke routes,
 * departure banks, block times from great-circle distance and winds) is flown every
 * day; each day keeps the top of the schedule that its planned count allows, and draws
 * that day's delays, cancellations and diversions from distributions scaled by the
 * day's weather (January 2017's storm days are worse).
 */

export const datasetFirstDay = '2017-01-01'
/** The last day generated (the fifth cutoff is the day after). */
export const datasetLastDay = '2017-02-17'
export const defaultSeed = 20170101

/** Values of one column for a day's rows. */
export type OntimeColumnValues = Int32Array | Uint8Array | Uint16Array | string[]

/** The flights of one day, columnar, in table column order. */
export interface OntimeDay {
  readonly date: string
  readonly rows: number
  readonly columns: Readonly<Record<OntimeColumnName, OntimeColumnValues>>
}

const dayMs = 86_400_000

function dayNumber(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / dayMs
}

function dateOf(day: number): string {
  return new Date(day * dayMs).toISOString().slice(0, 10)
}

/** Relative traffic by weekday (JS getUTCDay: 0 is Sunday); Saturdays are light. */
const weekdayWeight = [0.985, 1.02, 0.975, 0.985, 1.03, 1.03, 0.84]

/** Holidays fly lighter than their weekday says. */
const holidayWeight: Readonly<Record<string, number>> = { '2017-01-01': 0.86, '2017-01-16': 0.97 }

/**
 * The planned number of flights per day: each segment between two reference cutoffs gets
 * exactly the real data's rows, spread over its days by weekday weight (largest remainder
 * rounding keeps the sum exact).
 */
export function plannedDailyCounts(): { date: string; rows: number }[] {
  const plan: { date: string; rows: number }[] = []
  let from = dayNumber(datasetFirstDay)
  let before = 0
  for (const cutoff of referenceCutoffs) {
    const to = dayNumber(cutoff.date)
    const days: { date: string; weight: number }[] = []
    for (let day = from; day < to; day++) {
      const date = dateOf(day)
      const weekday = new Date(day * dayMs).getUTCDay()
      days.push({ date, weight: weekdayWeight[weekday]! * (holidayWeight[date] ?? 1) })
    }
    const total = cutoff.referenceRows - before
    const weights = days.reduce((sum, day) => sum + day.weight, 0)
    const shares = days.map((day) => (total * day.weight) / weights)
    const counts = shares.map(Math.floor)
    let missing = total - counts.reduce((sum, count) => sum + count, 0)
    const byRemainder = shares
      .map((share, index) => ({ index, remainder: share - Math.floor(share) }))
      .sort((a, b) => b.remainder - a.remainder || a.index - b.index)
    for (let i = 0; missing > 0; i++, missing--) counts[byRemainder[i % byRemainder.length]!.index]!++
    days.forEach((day, index) => {
      plan.push({ date: day.date, rows: counts[index]! })
    })
    before = cutoff.referenceRows
    from = to
  }
  return plan
}

/** Rows below a cutoff in the generated data (equal to the reference's by construction). */
export function generatedRowsBefore(cutoff: Cutoff | string): number {
  const date = typeof cutoff === 'string' ? cutoff : cutoff.date
  return plannedDailyCounts()
    .filter((day) => day.date < date)
    .reduce((sum, day) => sum + day.rows, 0)
}

interface ScheduledFlight {
  readonly carrier: Carrier
  readonly flightNum: string
  readonly origin: Airport
  readonly dest: Airport
  /** Scheduled departure, local minutes after midnight. */
  readonly crsDep: number
  readonly crsElapsed: number
  readonly distance: number
  /** Expected minutes in the air. */
  readonly expectedAir: number
  /** Weekdays (bit per getUTCDay) the flight does not operate. */
  readonly skipDays: number
  /** Index into the carrier's fleet for its first tail number of the day. */
  readonly tailSlot: number
}

interface Network {
  /** Ordered so that busier days fly a longer prefix of it. */
  readonly flights: readonly ScheduledFlight[]
  readonly fleets: ReadonlyMap<string, readonly string[]>
}

const earthRadiusMiles = 3958.8

export function distanceMiles(a: Airport, b: Airport): number {
  const toRadians = Math.PI / 180
  const dLat = (b.latitude - a.latitude) * toRadians
  const dLon = (b.longitude - a.longitude) * toRadians
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * toRadians) * Math.cos(b.latitude * toRadians) * Math.sin(dLon / 2) ** 2
  return Math.round(2 * earthRadiusMiles * Math.asin(Math.sqrt(h)))
}

const offshore = new Set(['HI', 'AK', 'PR'])
const westCoast = new Set(['CA', 'WA', 'OR', 'NV', 'AZ'])
const regionalCarriers = new Set(['OO', 'EV'])

/** Whether a carrier would plausibly fly this route. */
function plausibleRoute(carrier: Carrier, origin: Airport, dest: Airport, distance: number): boolean {
  if (origin === dest || origin.cityMarketId === dest.cityMarketId || distance < 70) return false
  if (regionalCarriers.has(carrier.code) && distance > 1300) return false
  if (carrier.code === 'WN' && (offshore.has(origin.state.code) || offshore.has(dest.state.code)))
    return false
  for (const [a, b] of [
    [origin, dest],
    [dest, origin],
  ] as const) {
    if (offshore.has(a.state.code) && a.state.code !== b.state.code) {
      // Flights to Hawaii, Alaska and Puerto Rico leave from big hubs or the West Coast.
      if (!(b.weight >= 250 || (a.state.code !== 'PR' && westCoast.has(b.state.code)))) return false
      if (a.state.code === 'PR' && westCoast.has(b.state.code)) return false
    }
  }
  return true
}

/** Departures by local hour: morning banks, a long day, few red-eyes. */
const departureHourWeights = [
  0.2, 0, 0, 0, 0, 2, 8, 9, 8, 7, 6.5, 6.5, 6.5, 6.5, 6.5, 6.5, 7, 7, 6.5, 5.5, 4, 3, 2, 1,
]

/** Expected minutes in the air: climb and descent plus cruise, with January's jet stream. */
function expectedAirMinutes(origin: Airport, dest: Airport, distance: number): number {
  const cruise = distance < 400 ? 6.6 : distance < 1200 ? 7.6 : 8.2
  const wind = dest.longitude > origin.longitude ? 0.93 : 1.07
  return Math.round((16 + distance / cruise) * wind)
}

const roundTo5 = (minutes: number) => Math.round(minutes / 5) * 5

function buildNetwork(seed: number, size: number): Network {
  const random = RandomSource.derive(seed, 1)
  const carrierPicker = new WeightedPicker(carriers.map((carrier) => carrier.share))
  const byCode = new Map(airports.map((airport) => [airport.code, airport]))
  const served = carriers.map((carrier) => {
    const list = airports.filter((airport) => !carrier.region || carrier.region.includes(airport.state.code))
    return { list, picker: new WeightedPicker(list.map((airport) => airport.weight)) }
  })
  const hubs = carriers.map((carrier) =>
    carrier.hubs.map((code) => byCode.get(code)).filter((airport) => airport !== undefined),
  )
  const hubPickers = hubs.map((list) => new WeightedPicker(list.map((_, index) => 1 / (index + 1))))
  const hourPicker = new WeightedPicker(departureHourWeights)
  const nextFlightNumber = carriers.map((carrier) => carrier.flightBase)
  const flightsPerCarrier = carriers.map(() => 0)
  const flights: ScheduledFlight[] = []
  while (flights.length < size) {
    const carrierIndex = carrierPicker.pick(random)
    const carrier = carriers[carrierIndex]!
    const { list, picker } = served[carrierIndex]!
    const carrierHubs = hubs[carrierIndex]!
    let origin: Airport | undefined
    let dest: Airport | undefined
    let distance = 0
    for (let attempt = 0; attempt < 60 && dest === undefined; attempt++) {
      const fromHub = random.chance(0.62)
      const candidateOrigin = fromHub
        ? carrierHubs[hubPickers[carrierIndex]!.pick(random)]!
        : list[picker.pick(random)]!
      const toHub = !carrierHubs.includes(candidateOrigin) && random.chance(0.75)
      const candidateDest = toHub
        ? carrierHubs[hubPickers[carrierIndex]!.pick(random)]!
        : list[picker.pick(random)]!
      const miles = distanceMiles(candidateOrigin, candidateDest)
      if (plausibleRoute(carrier, candidateOrigin, candidateDest, miles)) {
        origin = candidateOrigin
        dest = candidateDest
        distance = miles
      }
    }
    if (!origin || !dest) continue
    let hour = hourPicker.pick(random)
    const redEye =
      origin.utcOffset <= -7 && dest.utcOffset >= -6 && distance > 1400 && !offshore.has(dest.state.code)
    if (redEye && random.chance(0.14)) hour = 21 + random.int(3)
    const crsDep = hour * 60 + 5 * random.int(12)
    const expectedAir = expectedAirMinutes(origin, dest, distance)
    const crsElapsed = roundTo5(expectedAir + 15 + 7 + random.int(8))
    let skipDays = 0
    if (random.chance(0.11)) skipDays |= 1 << 6 // no Saturday
    if (random.chance(0.05)) skipDays |= 1 << random.int(6)
    nextFlightNumber[carrierIndex]! += 1 + (random.chance(0.3) ? random.int(4) : 0)
    flightsPerCarrier[carrierIndex]!++
    flights.push({
      carrier,
      flightNum: String(nextFlightNumber[carrierIndex]),
      origin,
      dest,
      crsDep,
      crsElapsed,
      distance,
      expectedAir,
      skipDays,
      tailSlot: random.nextUint32(),
    })
  }
  // Fleets: about five and a half legs a day per aircraft, registrations in each carrier's style.
  const fleets = new Map<string, string[]>()
  carriers.forEach((carrier, index) => {
    const size = Math.max(8, Math.round(flightsPerCarrier[index]! / 5.5))
    const tails = new Set<string>()
    while (tails.size < size) {
      const digits = 100 + random.int(900)
      const style = random.int(4)
      const tail =
        style === 0
          ? `N${digits}${carrier.tailSuffix}`
          : style === 1
            ? `N${digits}${carrier.tailSuffix[0]}`
            : `N${digits * 10 + random.int(10)}${carrier.tailSuffix[1]}`
      tails.add(tail)
    }
    fleets.set(carrier.code, [...tails])
  })
  return { flights, fleets }
}

const networks = new Map<number, Network>()

function networkFor(seed: number): Network {
  let network = networks.get(seed)
  if (!network) {
    const busiest = Math.max(...plannedDailyCounts().map((day) => day.rows))
    network = buildNetwork(seed, Math.ceil(busiest * 1.16))
    networks.set(seed, network)
  }
  return network
}

/** Weather by day: January 2017's storms (the South-East snow of Jan 6-7, the Jan 22-23 storms, the Feb 9 nor'easter). */
const storms: Readonly<Record<string, { factor: number; states: readonly string[] }>> = {
  '2017-01-06': { factor: 1.7, states: ['GA', 'NC', 'SC', 'TN', 'AL', 'VA'] },
  '2017-01-07': { factor: 2.3, states: ['GA', 'NC', 'SC', 'TN', 'VA', 'MD', 'DC'] },
  '2017-01-08': { factor: 1.5, states: ['GA', 'NC', 'VA', 'MA', 'NY', 'NJ'] },
  '2017-01-22': { factor: 1.8, states: ['GA', 'FL', 'AL', 'MS', 'LA', 'TX', 'CA'] },
  '2017-01-23': { factor: 1.9, states: ['NY', 'NJ', 'MA', 'PA', 'CT', 'VA', 'MD'] },
  '2017-02-09': { factor: 2.6, states: ['NY', 'NJ', 'MA', 'PA', 'CT', 'RI', 'NH', 'ME'] },
  '2017-02-10': { factor: 1.4, states: ['NY', 'NJ', 'MA', 'CT'] },
}

const pad2 = (value: number) => (value < 10 ? `0${value}` : String(value))

/** Local minutes to BTS hhmm (midnight is 2400: 0 means "no time" in the table). */
export function hhmm(minutes: number): number {
  const m = ((minutes % 1440) + 1440) % 1440
  return m === 0 ? 2400 : Math.floor(m / 60) * 100 + (m % 60)
}

/** The BTS hour block of a local time: `0001-0559` for the night, else `HH00-HH59`. */
export function timeBlock(minutes: number): string {
  const hour = Math.floor((((minutes % 1440) + 1440) % 1440) / 60)
  return hour < 6 ? '0001-0559' : `${pad2(hour)}00-${pad2(hour)}59`
}

/** BTS delay groups: 15-minute buckets, -2 (early by 16+ minutes) to 12 (180+). */
export function delayGroup(delay: number): number {
  return Math.max(-2, Math.min(12, Math.floor(delay / 15)))
}

function newColumns(rows: number): Record<OntimeColumnName, OntimeColumnValues> {
  const columns = {} as Record<OntimeColumnName, OntimeColumnValues>
  for (const [name, type] of ontimeColumns) {
    columns[name] =
      type === 'Int32'
        ? new Int32Array(rows)
        : type === 'UInt8'
          ? new Uint8Array(rows)
          : type === 'UInt16' || type === 'Date'
            ? new Uint16Array(rows)
            : new Array<string>(rows).fill('')
  }
  return columns
}

/** The few airports nearest to one (diversion candidates). */
function nearestAirports(airport: Airport, count: number): Airport[] {
  return airports
    .filter((other) => other !== airport)
    .map((other) => ({ other, miles: distanceMiles(airport, other) }))
    .sort((a, b) => a.miles - b.miles)
    .slice(0, count)
    .map((entry) => entry.other)
}

const diversionCandidates = new Map<Airport, Airport[]>()

/** Generates the flights of one day (deterministic for a seed and a date). */
export function generateDay(date: string, rows: number, seed = defaultSeed): OntimeDay {
  const network = networkFor(seed)
  const day = dayNumber(date)
  const weekday = new Date(day * dayMs).getUTCDay()
  const random = RandomSource.derive(seed, 2, day)
  const storm = storms[date]
  const calm = 0.8 + 0.4 * random.next()
  const weatherAt = (airport: Airport) =>
    storm ? (storm.states.includes(airport.state.code) ? storm.factor : 1 + (storm.factor - 1) * 0.2) : calm

  // The day flies the first `rows` scheduled flights that operate on its weekday.
  const chosen: ScheduledFlight[] = []
  const skipped: ScheduledFlight[] = []
  for (const flight of network.flights) {
    if (chosen.length === rows) break
    if (flight.skipDays & (1 << weekday)) skipped.push(flight)
    else chosen.push(flight)
  }
  for (let i = 0; chosen.length < rows && i < skipped.length; i++) chosen.push(skipped[i]!)
  if (chosen.length < rows) throw new Error(`the schedule has fewer than ${rows} flights for ${date}`)

  const c = newColumns(rows)
  const int = (name: OntimeColumnName) => c[name] as unknown as Int32Array
  const u8 = (name: OntimeColumnName) => c[name] as unknown as Uint8Array
  const u16 = (name: OntimeColumnName) => c[name] as unknown as Uint16Array
  const str = (name: OntimeColumnName) => c[name] as unknown as string[]
  const [year, month, dayOfMonth] = date.split('-').map(Number) as [number, number, number]
  u16('Year').fill(year)
  u8('Quarter').fill(Math.floor((month - 1) / 3) + 1)
  u8('Month').fill(month)
  u8('DayofMonth').fill(dayOfMonth)
  u8('DayOfWeek').fill(weekday === 0 ? 7 : weekday)
  u16('FlightDate').fill(day)
  int('Flights').fill(1)

  // Column arrays hoisted out of the row loop: a name lookup per value would dominate.
  const cActualElapsedTime = int('ActualElapsedTime')
  const cAirTime = int('AirTime')
  const cAirlineID = int('AirlineID')
  const cArrDel15 = int('ArrDel15')
  const cArrDelay = int('ArrDelay')
  const cArrDelayMinutes = int('ArrDelayMinutes')
  const cArrTime = int('ArrTime')
  const cArrivalDelayGroups = int('ArrivalDelayGroups')
  const cCRSArrTime = int('CRSArrTime')
  const cCRSDepTime = int('CRSDepTime')
  const cCRSElapsedTime = int('CRSElapsedTime')
  const cDepDel15 = int('DepDel15')
  const cDepDelay = int('DepDelay')
  const cDepDelayMinutes = int('DepDelayMinutes')
  const cDepTime = int('DepTime')
  const cDestAirportID = int('DestAirportID')
  const cDestAirportSeqID = int('DestAirportSeqID')
  const cDestCityMarketID = int('DestCityMarketID')
  const cDestWac = int('DestWac')
  const cDistance = int('Distance')
  const cDiv1AirportID = int('Div1AirportID')
  const cDiv1AirportSeqID = int('Div1AirportSeqID')
  const cDiv2AirportID = int('Div2AirportID')
  const cDiv2AirportSeqID = int('Div2AirportSeqID')
  const cOriginAirportID = int('OriginAirportID')
  const cOriginAirportSeqID = int('OriginAirportSeqID')
  const cOriginCityMarketID = int('OriginCityMarketID')
  const cOriginWac = int('OriginWac')
  const cTaxiIn = int('TaxiIn')
  const cTaxiOut = int('TaxiOut')
  const cWheelsOff = int('WheelsOff')
  const cWheelsOn = int('WheelsOn')
  const cArrTimeBlk = str('ArrTimeBlk')
  const cCancellationCode = str('CancellationCode')
  const cCarrier = str('Carrier')
  const cDepTimeBlk = str('DepTimeBlk')
  const cDepartureDelayGroups = str('DepartureDelayGroups')
  const cDest = str('Dest')
  const cDestCityName = str('DestCityName')
  const cDestState = str('DestState')
  const cDestStateFips = str('DestStateFips')
  const cDestStateName = str('DestStateName')
  const cDiv1Airport = str('Div1Airport')
  const cDiv1LongestGTime = str('Div1LongestGTime')
  const cDiv1TailNum = str('Div1TailNum')
  const cDiv1TotalGTime = str('Div1TotalGTime')
  const cDiv1WheelsOff = str('Div1WheelsOff')
  const cDiv1WheelsOn = str('Div1WheelsOn')
  const cDiv2Airport = str('Div2Airport')
  const cDiv2LongestGTime = str('Div2LongestGTime')
  const cDiv2TailNum = str('Div2TailNum')
  const cDiv2TotalGTime = str('Div2TotalGTime')
  const cDiv2WheelsOn = str('Div2WheelsOn')
  const cDivActualElapsedTime = str('DivActualElapsedTime')
  const cDivAirportLandings = str('DivAirportLandings')
  const cDivArrDelay = str('DivArrDelay')
  const cDivDistance = str('DivDistance')
  const cDivReachedDest = str('DivReachedDest')
  const cFirstDepTime = str('FirstDepTime')
  const cFlightNum = str('FlightNum')
  const cLongestAddGTime = str('LongestAddGTime')
  const cOrigin = str('Origin')
  const cOriginCityName = str('OriginCityName')
  const cOriginState = str('OriginState')
  const cOriginStateFips = str('OriginStateFips')
  const cOriginStateName = str('OriginStateName')
  const cTailNum = str('TailNum')
  const cTotalAddGTime = str('TotalAddGTime')
  const cUniqueCarrier = str('UniqueCarrier')
  const cCancelled = u8('Cancelled')
  const cDistanceGroup = u8('DistanceGroup')
  const cDiverted = u8('Diverted')

  for (let row = 0; row < rows; row++) {
    const flight = chosen[row]!
    const { carrier, origin, dest } = flight
    const fleet = network.fleets.get(carrier.code)!
    const tail = fleet[(flight.tailSlot + day * 7) % fleet.length]!
    cUniqueCarrier[row] = carrier.code
    cAirlineID[row] = carrier.airlineId
    cCarrier[row] = carrier.code
    cTailNum[row] = tail
    cFlightNum[row] = flight.flightNum
    cOriginAirportID[row] = origin.id
    cOriginAirportSeqID[row] = origin.seqId
    cOriginCityMarketID[row] = origin.cityMarketId
    cOrigin[row] = origin.code
    cOriginCityName[row] = origin.cityName
    cOriginState[row] = origin.state.code
    cOriginStateFips[row] = origin.state.fips
    cOriginStateName[row] = origin.state.name
    cOriginWac[row] = origin.state.wac
    cDestAirportID[row] = dest.id
    cDestAirportSeqID[row] = dest.seqId
    cDestCityMarketID[row] = dest.cityMarketId
    cDest[row] = dest.code
    cDestCityName[row] = dest.cityName
    cDestState[row] = dest.state.code
    cDestStateFips[row] = dest.state.fips
    cDestStateName[row] = dest.state.name
    cDestWac[row] = dest.state.wac
    const zoneShift = (dest.utcOffset - origin.utcOffset) * 60
    const crsArr = flight.crsDep + flight.crsElapsed + zoneShift
    cCRSDepTime[row] = hhmm(flight.crsDep)
    cDepTimeBlk[row] = timeBlock(flight.crsDep)
    cCRSArrTime[row] = hhmm(crsArr)
    cArrTimeBlk[row] = timeBlock(crsArr)
    cCRSElapsedTime[row] = flight.crsElapsed
    cDistance[row] = flight.distance
    cDistanceGroup[row] = Math.min(11, Math.floor(flight.distance / 250) + 1)
    cDivAirportLandings[row] = '0'

    const weather = Math.max(weatherAt(origin), weatherAt(dest))
    if (random.chance(0.01 * weather ** 2.6)) {
      cCancelled[row] = 1
      const cause = random.next()
      cCancellationCode[row] =
        cause < 0.5 * Math.min(1.6, weather) ? 'B' : cause < 0.8 ? 'A' : cause < 0.9995 ? 'C' : 'D'
      continue
    }

    // Departure: most flights leave on time or a little early; the late ones have a long tail,
    // and more of them late in the day and in bad weather.
    const lateness = 0.3 + 0.12 * Math.max(0, (flight.crsDep - 360) / 1020)
    const depDelay = random.chance(Math.min(0.85, lateness * weather ** 0.8))
      ? Math.min(1400, Math.max(1, Math.round(random.logNormal(17 * weather ** 0.6, 1.05))))
      : -Math.min(25, Math.round(random.exponential(4)))
    const depMinute = flight.crsDep + depDelay
    cDepTime[row] = hhmm(depMinute)
    cDepDelay[row] = depDelay
    cDepDelayMinutes[row] = Math.max(0, depDelay)
    cDepDel15[row] = depDelay >= 15 ? 1 : 0
    cDepartureDelayGroups[row] = String(delayGroup(depDelay))
    const hubFactor = origin.weight >= 300 ? 1.2 : 1
    const taxiOut = Math.min(
      180,
      Math.max(1, Math.round(random.logNormal(13 * hubFactor * weather ** 0.3, 0.36))),
    )
    const wheelsOff = depMinute + taxiOut
    cTaxiOut[row] = taxiOut
    cWheelsOff[row] = hhmm(wheelsOff)
    if (random.chance(0.003)) {
      // A return to the gate before the final departure.
      const addGTime = 8 + random.int(50)
      cFirstDepTime[row] = String(hhmm(depMinute - addGTime - 5))
      cTotalAddGTime[row] = String(addGTime)
      cLongestAddGTime[row] = String(addGTime)
    }

    const airTime = Math.max(15, Math.round(flight.expectedAir * (1 + 0.045 * random.normal())))
    if (random.chance(0.0021 * weather)) {
      cDiverted[row] = 1
      let candidates = diversionCandidates.get(dest)
      if (!candidates) diversionCandidates.set(dest, (candidates = nearestAirports(dest, 4)))
      const options = candidates.filter((airport) => airport !== origin)
      const divert = options[random.int(options.length)]!
      const landings = random.chance(0.06) ? 2 : 1
      const div1On = wheelsOff + Math.round(airTime * (0.8 + 0.3 * random.next())) + zoneShift
      const groundTime = 25 + random.int(110)
      const reached = random.chance(0.78)
      cDivAirportLandings[row] = String(landings)
      cDivReachedDest[row] = reached ? '1' : '0'
      cDiv1Airport[row] = divert.code
      cDiv1AirportID[row] = divert.id
      cDiv1AirportSeqID[row] = divert.seqId
      cDiv1WheelsOn[row] = String(hhmm(div1On))
      cDiv1TotalGTime[row] = String(groundTime)
      cDiv1LongestGTime[row] = String(groundTime)
      cDiv1TailNum[row] = tail
      if (reached) {
        const legMinutes = 15 + Math.round(distanceMiles(divert, dest) / 6.5)
        const arrival = div1On + groundTime + legMinutes + 6
        cDiv1WheelsOff[row] = String(hhmm(div1On + groundTime))
        cDivActualElapsedTime[row] = String(arrival - zoneShift - depMinute)
        cDivArrDelay[row] = String(arrival - crsArr)
        cDivDistance[row] = '0'
      } else {
        cDivDistance[row] = String(distanceMiles(divert, dest))
      }
      if (landings === 2) {
        const second = candidates.find((airport) => airport !== divert && airport !== origin) ?? divert
        cDiv2Airport[row] = second.code
        cDiv2AirportID[row] = second.id
        cDiv2AirportSeqID[row] = second.seqId
        cDiv2WheelsOn[row] = String(hhmm(div1On + groundTime + 45))
        cDiv2TotalGTime[row] = String(20 + random.int(40))
        cDiv2LongestGTime[row] = cDiv2TotalGTime[row]!
        cDiv2TailNum[row] = tail
      }
      continue
    }

    const taxiIn = Math.min(120, Math.max(1, Math.round(random.logNormal(6.5, 0.5))))
    const wheelsOn = wheelsOff + airTime + zoneShift
    const arrMinute = wheelsOn + taxiIn
    const elapsed = taxiOut + airTime + taxiIn
    const arrDelay = depDelay + elapsed - flight.crsElapsed
    cWheelsOn[row] = hhmm(wheelsOn)
    cTaxiIn[row] = taxiIn
    cArrTime[row] = hhmm(arrMinute)
    cArrDelay[row] = arrDelay
    cArrDelayMinutes[row] = Math.max(0, arrDelay)
    cArrDel15[row] = arrDelay >= 15 ? 1 : 0
    cArrivalDelayGroups[row] = delayGroup(arrDelay)
    cActualElapsedTime[row] = elapsed
    cAirTime[row] = airTime
    if (arrDelay >= 15) splitDelayCauses(random, arrDelay, depDelay, weather, row, int)
  }
  return { date, rows, columns: c }
}

/** Reports a delay of 15+ minutes by cause, the way carriers do: the parts add up to the delay. */
function splitDelayCauses(
  random: RandomSource,
  arrDelay: number,
  depDelay: number,
  weather: number,
  row: number,
  int: (name: OntimeColumnName) => Int32Array,
): void {
  const weatherWeight = 0.04 * weather ** 2
  let draw = random.next() * (0.952 + weatherWeight)
  const primary: OntimeColumnName =
    (draw -= 0.39) < 0
      ? 'LateAircraftDelay'
      : (draw -= 0.32) < 0
        ? 'CarrierDelay'
        : (draw -= 0.24) < 0
          ? 'NASDelay'
          : (draw -= weatherWeight) < 0
            ? 'WeatherDelay'
            : 'SecurityDelay'
  // Time lost after push-back (taxi, holding) is the airspace's (NAS) share.
  const enRoute = Math.max(0, Math.min(arrDelay, arrDelay - Math.max(0, depDelay)))
  if (enRoute > 0 && primary !== 'NASDelay') {
    int('NASDelay')[row] = enRoute
    int(primary)[row] = arrDelay - enRoute
  } else {
    int(primary)[row] = arrDelay
  }
}

/**
 * Every generated day from the first through `lastDay`, in date order, generated lazily
 * so that only one day's columns are alive at a time.
 */
export function* generateOntime(
  options: { lastDay?: string; seed?: number; before?: string } = {},
): Generator<OntimeDay> {
  const last = options.lastDay ?? datasetLastDay
  for (const { date, rows } of plannedDailyCounts()) {
    if (date > last || (options.before !== undefined && date >= options.before)) break
    yield generateDay(date, rows, options.seed ?? defaultSeed)
  }
}
