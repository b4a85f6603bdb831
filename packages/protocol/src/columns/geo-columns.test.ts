import { describe, expect, it } from 'vitest'
import { checkCodec } from '../../test/support/codec-checks.js'

const one = '000000000000f03f'
const two = '0000000000000040'

describe('geo types', () => {
  it('Point is Tuple(Float64, Float64) and the rest are Arrays of it (bytes from ClickHouse)', () => {
    // chdb: SELECT (1.5, 2.5)::Point p, [(1.0,2.0)]::Ring r, [[(1.0,2.0)]]::Polygon pg, ...
    checkCodec({ type: 'Point', values: [[1.5, 2.5]], bytes: '000000000000f83f 0000000000000440' })
    const point = [1, 2]
    for (const type of ['Ring', 'LineString'])
      checkCodec({ type, values: [[point]], bytes: `0100000000000000 ${one} ${two}` })
    for (const type of ['Polygon', 'MultiLineString'])
      checkCodec({ type, values: [[[point]]], bytes: `0100000000000000 0100000000000000 ${one} ${two}` })
    checkCodec({
      type: 'MultiPolygon',
      values: [[[[point]]]],
      bytes: `0100000000000000 0100000000000000 0100000000000000 ${one} ${two}`,
    })
  })

  it('keeps the geo type name on the column and reads empty shapes', () => {
    const column = checkCodec({
      type: 'Polygon',
      values: [
        [],
        [[]],
        [
          [
            [0, 0],
            [1, 0],
            [1, 1],
          ],
        ],
      ],
    })
    expect(column.type.name).toBe('Polygon')
  })
})
