import { describe, expect, it } from 'vitest'
import { checkCodec, decodeColumn, fromHex } from '../../test/support/codec-checks.js'
import { typedValue } from './typed-value.js'

describe('Geometry', () => {
  it('is a Variant of the six shapes in name order (bytes from ClickHouse 26.7)', () => {
    // CREATE TABLE t (g Geometry); INSERT INTO t VALUES ((1, 2)), (NULL); SELECT g FROM t
    checkCodec({
      type: 'Geometry',
      values: [typedValue('Point', [1, 2]), null],
      decoded: [[1, 2], null],
      bytes: '0000000000000000 03ff 000000000000f03f 0000000000000040',
    })
  })

  it('reads each shape by its discriminator', () => {
    // Rows: a Ring, a Point; the data of Point (3) comes before Ring's (5).
    // Discriminators: LineString 0, MultiLineString 1, MultiPolygon 2, Point 3, Polygon 4, Ring 5.
    const column = decodeColumn(
      'Geometry',
      fromHex(
        '0000000000000000 0503 000000000000f03f 0000000000000040 0100000000000000 0000000000000840 0000000000001040',
      ),
      2,
    )
    expect(column.values()).toEqual([[[3, 4]], [1, 2]])
  })
})
