/**
 * Reference data for the ontime generator: US states with their FIPS and World Area
 * Codes, airports with the BTS identifiers' shapes (5-digit airport id, 7-digit sequence
 * id, 3xxxx city market id), positions for distances and January UTC offsets for local
 * times, and carriers of January 2017 with their DOT ids and rough market shares.
 * Identifiers follow the published lookup tables where we know them; they are realistic
 * values for a benchmark, not an authoritative copy.
 */

export interface State {
  readonly code: string
  readonly fips: string
  readonly name: string
  readonly wac: number
}

const stateRows: readonly [string, string, string, number][] = [
  ['AK', '02', 'Alaska', 1],
  ['HI', '15', 'Hawaii', 2],
  ['PR', '72', 'Puerto Rico', 3],
  ['CT', '09', 'Connecticut', 11],
  ['ME', '23', 'Maine', 12],
  ['MA', '25', 'Massachusetts', 13],
  ['NH', '33', 'New Hampshire', 14],
  ['RI', '44', 'Rhode Island', 15],
  ['VT', '50', 'Vermont', 16],
  ['NJ', '34', 'New Jersey', 21],
  ['NY', '36', 'New York', 22],
  ['PA', '42', 'Pennsylvania', 23],
  ['DE', '10', 'Delaware', 31],
  ['FL', '12', 'Florida', 33],
  ['GA', '13', 'Georgia', 34],
  ['MD', '24', 'Maryland', 35],
  ['NC', '37', 'North Carolina', 36],
  ['SC', '45', 'South Carolina', 37],
  ['VA', '51', 'Virginia', 38],
  ['WV', '54', 'West Virginia', 39],
  ['IL', '17', 'Illinois', 41],
  ['IN', '18', 'Indiana', 42],
  ['MI', '26', 'Michigan', 43],
  ['OH', '39', 'Ohio', 44],
  ['WI', '55', 'Wisconsin', 45],
  ['AL', '01', 'Alabama', 51],
  ['KY', '21', 'Kentucky', 52],
  ['MS', '28', 'Mississippi', 53],
  ['TN', '47', 'Tennessee', 54],
  ['IA', '19', 'Iowa', 61],
  ['KS', '20', 'Kansas', 62],
  ['MN', '27', 'Minnesota', 63],
  ['MO', '29', 'Missouri', 64],
  ['NE', '31', 'Nebraska', 65],
  ['ND', '38', 'North Dakota', 66],
  ['SD', '46', 'South Dakota', 67],
  ['AR', '05', 'Arkansas', 71],
  ['LA', '22', 'Louisiana', 72],
  ['OK', '40', 'Oklahoma', 73],
  ['TX', '48', 'Texas', 74],
  ['AZ', '04', 'Arizona', 81],
  ['CO', '08', 'Colorado', 82],
  ['ID', '16', 'Idaho', 83],
  ['MT', '30', 'Montana', 84],
  ['NV', '32', 'Nevada', 85],
  ['NM', '35', 'New Mexico', 86],
  ['UT', '49', 'Utah', 87],
  ['WY', '56', 'Wyoming', 88],
  ['CA', '06', 'California', 91],
  ['OR', '41', 'Oregon', 92],
  ['WA', '53', 'Washington', 93],
]

export const states: ReadonlyMap<string, State> = new Map(
  stateRows.map(([code, fips, name, wac]) => [code, { code, fips, name, wac }]),
)

export interface Airport {
  readonly code: string
  readonly id: number
  readonly seqId: number
  readonly cityMarketId: number
  readonly cityName: string
  readonly state: State
  readonly latitude: number
  readonly longitude: number
  /** Hours from UTC in January (standard time). */
  readonly utcOffset: number
  /** Relative number of departures. */
  readonly weight: number
}

/** code, id, seq suffix, market id, city, state, latitude, longitude, UTC offset, weight */
type AirportRow = [string, number, number, number, string, string, number, number, number, number]

const airportRows: readonly AirportRow[] = [
  ['ATL', 10397, 5, 30397, 'Atlanta, GA', 'GA', 33.64, -84.43, -5, 1000],
  ['ORD', 13930, 5, 30977, 'Chicago, IL', 'IL', 41.98, -87.9, -6, 760],
  ['DEN', 11292, 2, 30325, 'Denver, CO', 'CO', 39.86, -104.67, -7, 620],
  ['LAX', 12892, 5, 32575, 'Los Angeles, CA', 'CA', 33.94, -118.41, -8, 600],
  ['DFW', 11298, 3, 30194, 'Dallas/Fort Worth, TX', 'TX', 32.9, -97.04, -6, 580],
  ['SFO', 14771, 4, 32457, 'San Francisco, CA', 'CA', 37.62, -122.38, -8, 440],
  ['PHX', 14107, 3, 30466, 'Phoenix, AZ', 'AZ', 33.43, -112.01, -7, 420],
  ['LAS', 12889, 4, 32211, 'Las Vegas, NV', 'NV', 36.08, -115.15, -8, 400],
  ['SEA', 14747, 3, 30559, 'Seattle, WA', 'WA', 47.45, -122.31, -8, 390],
  ['MSP', 13487, 3, 31650, 'Minneapolis, MN', 'MN', 44.88, -93.22, -6, 360],
  ['MCO', 13204, 3, 31454, 'Orlando, FL', 'FL', 28.43, -81.31, -5, 360],
  ['DTW', 11433, 3, 31295, 'Detroit, MI', 'MI', 42.21, -83.35, -5, 350],
  ['BOS', 10721, 2, 30721, 'Boston, MA', 'MA', 42.36, -71.01, -5, 340],
  ['EWR', 11618, 3, 31703, 'Newark, NJ', 'NJ', 40.69, -74.17, -5, 300],
  ['CLT', 11057, 3, 31057, 'Charlotte, NC', 'NC', 35.21, -80.94, -5, 380],
  ['LGA', 12953, 3, 31703, 'New York, NY', 'NY', 40.78, -73.87, -5, 300],
  ['JFK', 12478, 5, 31703, 'New York, NY', 'NY', 40.64, -73.78, -5, 260],
  ['SLC', 14869, 5, 34614, 'Salt Lake City, UT', 'UT', 40.79, -111.98, -7, 290],
  ['BWI', 10821, 4, 30852, 'Baltimore, MD', 'MD', 39.18, -76.67, -5, 230],
  ['MDW', 13232, 3, 30977, 'Chicago, IL', 'IL', 41.79, -87.75, -6, 200],
  ['IAH', 12266, 4, 31453, 'Houston, TX', 'TX', 29.98, -95.34, -6, 260],
  ['DCA', 11278, 5, 30852, 'Washington, DC', 'VA', 38.85, -77.04, -5, 230],
  ['IAD', 12264, 2, 30852, 'Washington, DC', 'VA', 38.95, -77.46, -5, 150],
  ['SAN', 14679, 3, 33570, 'San Diego, CA', 'CA', 32.73, -117.19, -8, 200],
  ['FLL', 11697, 3, 32467, 'Fort Lauderdale, FL', 'FL', 26.07, -80.15, -5, 200],
  ['MIA', 13303, 3, 32467, 'Miami, FL', 'FL', 25.79, -80.29, -5, 170],
  ['TPA', 15304, 3, 33195, 'Tampa, FL', 'FL', 27.98, -82.53, -5, 170],
  ['PDX', 14057, 2, 34057, 'Portland, OR', 'OR', 45.59, -122.6, -8, 160],
  ['PHL', 14100, 3, 34100, 'Philadelphia, PA', 'PA', 39.87, -75.24, -5, 190],
  ['DAL', 11259, 4, 30194, 'Dallas, TX', 'TX', 32.85, -96.85, -6, 150],
  ['HOU', 12191, 3, 31453, 'Houston, TX', 'TX', 29.65, -95.28, -6, 140],
  ['BNA', 10693, 3, 30693, 'Nashville, TN', 'TN', 36.12, -86.68, -6, 150],
  ['AUS', 10423, 3, 30423, 'Austin, TX', 'TX', 30.19, -97.67, -6, 130],
  ['OAK', 13796, 3, 32457, 'Oakland, CA', 'CA', 37.72, -122.22, -8, 120],
  ['STL', 15016, 3, 31123, 'St. Louis, MO', 'MO', 38.75, -90.37, -6, 120],
  ['MSY', 13495, 3, 33495, 'New Orleans, LA', 'LA', 29.99, -90.26, -6, 110],
  ['SJC', 14831, 3, 32457, 'San Jose, CA', 'CA', 37.36, -121.93, -8, 100],
  ['RDU', 14492, 3, 34492, 'Raleigh/Durham, NC', 'NC', 35.88, -78.79, -5, 100],
  ['MCI', 13198, 2, 33198, 'Kansas City, MO', 'MO', 39.3, -94.71, -6, 100],
  ['SMF', 14893, 2, 33192, 'Sacramento, CA', 'CA', 38.7, -121.59, -8, 90],
  ['SNA', 14908, 3, 32575, 'Santa Ana, CA', 'CA', 33.68, -117.87, -8, 90],
  ['SAT', 14683, 3, 33214, 'San Antonio, TX', 'TX', 29.53, -98.47, -6, 90],
  ['HNL', 12173, 2, 32134, 'Honolulu, HI', 'HI', 21.32, -157.92, -10, 110],
  ['IND', 12339, 4, 32337, 'Indianapolis, IN', 'IN', 39.72, -86.29, -5, 80],
  ['CLE', 11042, 3, 30647, 'Cleveland, OH', 'OH', 41.41, -81.85, -5, 80],
  ['PIT', 14122, 2, 30198, 'Pittsburgh, PA', 'PA', 40.49, -80.23, -5, 70],
  ['CMH', 11066, 3, 31066, 'Columbus, OH', 'OH', 40, -82.89, -5, 70],
  ['CVG', 11193, 2, 33105, 'Cincinnati, OH', 'KY', 39.05, -84.67, -5, 60],
  ['MKE', 13342, 3, 33342, 'Milwaukee, WI', 'WI', 42.95, -87.9, -6, 60],
  ['RSW', 14635, 2, 31714, 'Fort Myers, FL', 'FL', 26.54, -81.76, -5, 70],
  ['SJU', 14843, 4, 34819, 'San Juan, PR', 'PR', 18.44, -66, -4, 60],
  ['ANC', 10299, 3, 30299, 'Anchorage, AK', 'AK', 61.17, -150, -9, 50],
  ['OGG', 13830, 2, 33830, 'Kahului, HI', 'HI', 20.9, -156.43, -10, 50],
  ['ABQ', 10140, 3, 30140, 'Albuquerque, NM', 'NM', 35.04, -106.61, -7, 50],
  ['ELP', 11540, 2, 31540, 'El Paso, TX', 'TX', 31.81, -106.38, -7, 35],
  ['OKC', 13851, 2, 33851, 'Oklahoma City, OK', 'OK', 35.39, -97.6, -6, 40],
  ['TUL', 15370, 2, 35370, 'Tulsa, OK', 'OK', 36.2, -95.89, -6, 35],
  ['MEM', 13244, 2, 33244, 'Memphis, TN', 'TN', 35.04, -89.98, -6, 40],
  ['JAX', 12451, 2, 31136, 'Jacksonville, FL', 'FL', 30.49, -81.69, -5, 55],
  ['BDL', 10529, 4, 30529, 'Hartford, CT', 'CT', 41.94, -72.68, -5, 50],
  ['BUF', 10792, 2, 30792, 'Buffalo, NY', 'NY', 42.94, -78.73, -5, 40],
  ['OMA', 13871, 2, 33316, 'Omaha, NE', 'NE', 41.3, -95.89, -6, 40],
  ['RIC', 14524, 2, 34524, 'Richmond, VA', 'VA', 37.51, -77.32, -5, 35],
  ['SDF', 14730, 2, 33044, 'Louisville, KY', 'KY', 38.17, -85.74, -5, 35],
  ['BHM', 10599, 2, 30599, 'Birmingham, AL', 'AL', 33.56, -86.75, -6, 30],
  ['PBI', 14027, 3, 32467, 'West Palm Beach/Palm Beach, FL', 'FL', 26.68, -80.1, -5, 45],
  ['BOI', 10713, 2, 30713, 'Boise, ID', 'ID', 43.56, -116.22, -7, 30],
  ['LGB', 12954, 2, 32575, 'Long Beach, CA', 'CA', 33.82, -118.15, -8, 30],
  ['ONT', 13891, 2, 32575, 'Ontario, CA', 'CA', 34.06, -117.6, -8, 35],
  ['BUR', 10800, 2, 32575, 'Burbank, CA', 'CA', 34.2, -118.36, -8, 40],
  ['RNO', 14570, 2, 34570, 'Reno, NV', 'NV', 39.5, -119.77, -8, 30],
  ['TUS', 15376, 2, 30436, 'Tucson, AZ', 'AZ', 32.12, -110.94, -7, 30],
  ['CHS', 10994, 2, 30994, 'Charleston, SC', 'SC', 32.9, -80.04, -5, 30],
  ['ALB', 10257, 2, 30257, 'Albany, NY', 'NY', 42.75, -73.8, -5, 20],
  ['PVD', 14307, 2, 30721, 'Providence, RI', 'RI', 41.73, -71.43, -5, 25],
  ['PWM', 14252, 2, 34252, 'Portland, ME', 'ME', 43.65, -70.31, -5, 15],
  ['MHT', 13296, 2, 30721, 'Manchester, NH', 'NH', 42.93, -71.44, -5, 15],
  ['BTV', 10785, 2, 30785, 'Burlington, VT', 'VT', 44.47, -73.15, -5, 10],
  ['DSM', 11423, 2, 31423, 'Des Moines, IA', 'IA', 41.53, -93.66, -6, 20],
  ['ICT', 12278, 2, 32278, 'Wichita, KS', 'KS', 37.65, -97.43, -6, 15],
  ['LIT', 12992, 2, 32992, 'Little Rock, AR', 'AR', 34.73, -92.22, -6, 18],
  ['JAN', 12448, 2, 32448, 'Jackson/Vicksburg, MS', 'MS', 32.31, -90.08, -6, 12],
  ['FAR', 11637, 2, 31637, 'Fargo, ND', 'ND', 46.92, -96.82, -6, 8],
  ['FSD', 11775, 2, 31775, 'Sioux Falls, SD', 'SD', 43.58, -96.74, -6, 8],
  ['BZN', 10849, 2, 30849, 'Bozeman, MT', 'MT', 45.78, -111.15, -7, 8],
  ['JAC', 12441, 2, 32441, 'Jackson, WY', 'WY', 43.61, -110.74, -7, 6],
  ['CRW', 10868, 2, 30868, 'Charleston/Dunbar, WV', 'WV', 38.37, -81.59, -5, 5],
  ['ILG', 12280, 2, 32280, 'Wilmington, DE', 'DE', 39.68, -75.61, -5, 3],
  ['KOA', 12758, 2, 32758, 'Kona, HI', 'HI', 19.74, -156.05, -10, 25],
  ['LIH', 12982, 2, 32982, 'Lihue, HI', 'HI', 21.98, -159.34, -10, 20],
  ['FAI', 11630, 2, 31630, 'Fairbanks, AK', 'AK', 64.82, -147.86, -9, 6],
  ['JNU', 12523, 2, 32523, 'Juneau, AK', 'AK', 58.35, -134.58, -9, 6],
  ['STT', 14986, 2, 34986, 'Charlotte Amalie, VI', 'PR', 18.34, -64.97, -4, 6],
]

export const airports: readonly Airport[] = airportRows.map(
  ([code, id, seq, cityMarketId, cityName, state, latitude, longitude, utcOffset, weight]) => {
    const known = states.get(state)
    if (!known) throw new Error(`no state ${state} for airport ${code}`)
    return {
      code,
      id,
      seqId: id * 100 + seq,
      cityMarketId,
      cityName,
      state: known,
      latitude,
      longitude,
      utcOffset,
      weight,
    }
  },
)

export interface Carrier {
  readonly code: string
  readonly airlineId: number
  /** Share of January 2017 flights, roughly. */
  readonly share: number
  /** Airports the carrier serves most, first the busiest hub. */
  readonly hubs: readonly string[]
  /** Two-letter suffix or pattern of its tail numbers. */
  readonly tailSuffix: string
  /** Flight numbers start here. */
  readonly flightBase: number
  /** Only these regions (e.g. Hawaiian: Hawaii and the West Coast), when set. */
  readonly region?: readonly string[]
}

export const carriers: readonly Carrier[] = [
  {
    code: 'WN',
    airlineId: 19393,
    share: 0.205,
    hubs: [
      'MDW',
      'LAS',
      'BWI',
      'DAL',
      'HOU',
      'PHX',
      'DEN',
      'OAK',
      'MCO',
      'ATL',
      'STL',
      'LAX',
      'SAN',
      'BNA',
      'AUS',
    ],
    tailSuffix: 'WN',
    flightBase: 1,
  },
  {
    code: 'DL',
    airlineId: 19790,
    share: 0.153,
    hubs: ['ATL', 'MSP', 'DTW', 'SLC', 'LGA', 'JFK', 'BOS', 'SEA', 'LAX'],
    tailSuffix: 'DL',
    flightBase: 100,
  },
  {
    code: 'AA',
    airlineId: 19805,
    share: 0.149,
    hubs: ['DFW', 'CLT', 'ORD', 'MIA', 'PHL', 'PHX', 'DCA', 'LAX', 'JFK', 'LGA'],
    tailSuffix: 'AA',
    flightBase: 1,
  },
  {
    code: 'OO',
    airlineId: 20304,
    share: 0.12,
    hubs: ['DEN', 'ORD', 'SFO', 'LAX', 'SLC', 'MSP', 'DTW', 'SEA', 'PHX', 'IAH'],
    tailSuffix: 'SK',
    flightBase: 2800,
  },
  {
    code: 'UA',
    airlineId: 19977,
    share: 0.1,
    hubs: ['ORD', 'IAH', 'DEN', 'EWR', 'SFO', 'IAD', 'LAX'],
    tailSuffix: 'UA',
    flightBase: 200,
  },
  {
    code: 'EV',
    airlineId: 20366,
    share: 0.078,
    hubs: ['ATL', 'IAH', 'EWR', 'ORD', 'DTW', 'CLE'],
    tailSuffix: 'EV',
    flightBase: 3900,
  },
  {
    code: 'B6',
    airlineId: 20409,
    share: 0.055,
    hubs: ['JFK', 'BOS', 'FLL', 'MCO', 'LGB', 'SJU'],
    tailSuffix: 'JB',
    flightBase: 1,
  },
  {
    code: 'AS',
    airlineId: 19930,
    share: 0.035,
    hubs: ['SEA', 'PDX', 'ANC', 'SFO', 'LAX', 'SAN'],
    tailSuffix: 'AS',
    flightBase: 1,
    region: ['WA', 'OR', 'CA', 'AK', 'NV', 'AZ', 'HI', 'ID', 'UT'],
  },
  {
    code: 'NK',
    airlineId: 20416,
    share: 0.026,
    hubs: ['FLL', 'LAS', 'DTW', 'ORD', 'DFW', 'MCO'],
    tailSuffix: 'NK',
    flightBase: 100,
  },
  {
    code: 'F9',
    airlineId: 20436,
    share: 0.017,
    hubs: ['DEN', 'MCO', 'LAS', 'PHL', 'ORD'],
    tailSuffix: 'FR',
    flightBase: 1000,
  },
  {
    code: 'HA',
    airlineId: 19690,
    share: 0.014,
    hubs: ['HNL', 'OGG', 'KOA', 'LIH'],
    tailSuffix: 'HA',
    flightBase: 1,
    region: ['HI', 'CA', 'WA', 'OR', 'NV', 'AZ'],
  },
  { code: 'VX', airlineId: 21171, share: 0.012, hubs: ['SFO', 'LAX'], tailSuffix: 'VA', flightBase: 700 },
]
