package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ClickHouse/ch-go/proto"
)

// column is one result column of a ClickHouse type, with the fold the bench applies to
// a block of it: every value is read, the way a consumer iterating rows would, and
// folded into a checksum so the reads are not optimised away.
type column struct {
	data proto.ColResult
	fold func(rows int) int64
}

// typed is a column of Go values T and how one value folds into the checksum; the
// wrappers (Nullable, LowCardinality) are built from it.
type typed[T any] struct {
	data  proto.ColumnOf[T]
	value func(T) int64
}

func (c typed[T]) plain() column {
	if fold := directFold(c.data); fold != nil {
		return column{data: c.data, fold: fold}
	}
	return column{data: c.data, fold: func(rows int) int64 {
		var sum int64
		for i := 0; i < rows; i++ {
			sum += c.value(c.data.Row(i))
		}
		return sum
	}}
}

func (c typed[T]) nullable() column {
	data := proto.NewColNullable[T](c.data)
	return column{data: data, fold: func(rows int) int64 {
		var sum int64
		for i := 0; i < rows; i++ {
			if value := data.Row(i); value.Set {
				sum += c.value(value.Value)
			}
		}
		return sum
	}}
}

// kinds are the columns a base type gives: itself, Nullable and LowCardinality of it.
type kinds interface {
	plain() column
	nullable() column
	lowCardinality() (column, error)
}

// comparable values can also be LowCardinality (ch-go keeps a map of the dictionary).
type comparableTyped[T comparable] struct{ typed[T] }

func (c comparableTyped[T]) lowCardinality() (column, error) {
	data := proto.NewLowCardinality[T](c.data)
	return column{data: data, fold: func(rows int) int64 {
		var sum int64
		for i := 0; i < rows; i++ {
			sum += c.value(data.Row(i))
		}
		return sum
	}}, nil
}

// bytesTyped are FixedString values, []byte, which ch-go cannot keep in a LowCardinality.
type bytesTyped struct{ typed[[]byte] }

func (c bytesTyped) lowCardinality() (column, error) {
	return column{}, fmt.Errorf("ch-go has no LowCardinality(FixedString(%d)) column", c.data.(*proto.ColFixedStr).Size)
}

func of[T comparable](data proto.ColumnOf[T], value func(T) int64) kinds {
	return comparableTyped[T]{typed[T]{data: data, value: value}}
}

// directFold reads the common plain columns straight from their slices, without a call
// per value: the iteration scenarios time the reads, and a consumer of ch-go would
// write these loops.
func directFold(data proto.ColResult) func(rows int) int64 {
	switch data := data.(type) {
	case *proto.ColStr:
		return func(rows int) int64 {
			var sum int64
			for i := 0; i < rows; i++ {
				sum += int64(len(data.Row(i)))
			}
			return sum
		}
	case *proto.ColFixedStr:
		return func(rows int) int64 {
			var sum int64
			for i := 0; i < rows; i++ {
				sum += int64(data.Buf[i*data.Size])
			}
			return sum
		}
	case *proto.ColUInt8:
		return sliceFold((*[]uint8)(data))
	case *proto.ColUInt16:
		return sliceFold((*[]uint16)(data))
	case *proto.ColUInt32:
		return sliceFold((*[]uint32)(data))
	case *proto.ColUInt64:
		return sliceFold((*[]uint64)(data))
	case *proto.ColInt8:
		return sliceFold((*[]int8)(data))
	case *proto.ColInt16:
		return sliceFold((*[]int16)(data))
	case *proto.ColInt32:
		return sliceFold((*[]int32)(data))
	case *proto.ColInt64:
		return sliceFold((*[]int64)(data))
	case *proto.ColDate:
		return sliceFold((*[]proto.Date)(data))
	}
	return nil
}

func sliceFold[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | proto.Date](data *[]T) func(rows int) int64 {
	return func(rows int) int64 {
		var sum int64
		for _, value := range (*data)[:rows] {
			sum += int64(value)
		}
		return sum
	}
}

func integer[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64](v T) int64 {
	return int64(v)
}

// inner returns the argument of a wrapper type: `Nullable(String)` with `Nullable` gives
// `String`.
func inner(chType, wrapper string) (string, bool) {
	if strings.HasPrefix(chType, wrapper+"(") && strings.HasSuffix(chType, ")") {
		return chType[len(wrapper)+1 : len(chType)-1], true
	}
	return "", false
}

// columnFor builds the ch-go column for a ClickHouse type as the server names it in a
// block header. ch-go's own inference (proto.ColAuto) only knows the FixedString sizes
// it has generated types for (8, 16, ... 512), so the ontime table's FixedString(7),
// (5), (2) and (1) columns fail there; this covers every type of the ontime schema and
// the Nullable and LowCardinality wrappers a schema may put around them.
func columnFor(chType string) (column, error) {
	chType = strings.TrimSpace(chType)
	if of, ok := inner(chType, "LowCardinality"); ok {
		if _, nullable := inner(of, "Nullable"); nullable {
			// Its dictionary is the non-nullable type with NULL at index 0: not in ch-go.
			return column{}, fmt.Errorf("ch-go has no %s column", chType)
		}
		base, err := baseFor(of)
		if err != nil {
			return column{}, err
		}
		return base.lowCardinality()
	}
	if of, ok := inner(chType, "Nullable"); ok {
		base, err := baseFor(of)
		if err != nil {
			return column{}, err
		}
		return base.nullable(), nil
	}
	base, err := baseFor(chType)
	if err != nil {
		return column{}, err
	}
	return base.plain(), nil
}

func yearDay(v time.Time) int64 { return int64(v.YearDay()) }

// baseFor is the column of a type without wrappers.
func baseFor(chType string) (kinds, error) {
	if of, ok := inner(chType, "FixedString"); ok {
		size, err := strconv.Atoi(strings.TrimSpace(of))
		if err != nil || size <= 0 {
			return nil, fmt.Errorf("bad FixedString size in %s", chType)
		}
		// The first byte of each value is folded (its length is the column's).
		return bytesTyped{typed[[]byte]{data: &proto.ColFixedStr{Size: size}, value: func(v []byte) int64 { return int64(v[0]) }}}, nil
	}
	switch {
	case chType == "String":
		return of[string](new(proto.ColStr), func(v string) int64 { return int64(len(v)) }), nil
	case chType == "UInt8":
		return of[uint8](new(proto.ColUInt8), integer[uint8]), nil
	case chType == "UInt16":
		return of[uint16](new(proto.ColUInt16), integer[uint16]), nil
	case chType == "UInt32":
		return of[uint32](new(proto.ColUInt32), integer[uint32]), nil
	case chType == "UInt64":
		return of[uint64](new(proto.ColUInt64), integer[uint64]), nil
	case chType == "Int8":
		return of[int8](new(proto.ColInt8), integer[int8]), nil
	case chType == "Int16":
		return of[int16](new(proto.ColInt16), integer[int16]), nil
	case chType == "Int32":
		return of[int32](new(proto.ColInt32), integer[int32]), nil
	case chType == "Int64":
		return of[int64](new(proto.ColInt64), integer[int64]), nil
	case chType == "Float32":
		return of[float32](new(proto.ColFloat32), func(v float32) int64 { return int64(v) }), nil
	case chType == "Float64":
		return of[float64](new(proto.ColFloat64), func(v float64) int64 { return int64(v) }), nil
	case chType == "Bool":
		return of[bool](new(proto.ColBool), func(v bool) int64 {
			if v {
				return 1
			}
			return 0
		}), nil
	case chType == "Date":
		return of[time.Time](new(proto.ColDate), yearDay), nil
	case chType == "Date32":
		return of[time.Time](new(proto.ColDate32), yearDay), nil
	case chType == "DateTime" || strings.HasPrefix(chType, "DateTime("):
		data := new(proto.ColDateTime)
		if err := data.Infer(proto.ColumnType(chType)); err != nil {
			return nil, err
		}
		return of[time.Time](data, func(v time.Time) int64 { return v.Unix() }), nil
	}
	return nil, fmt.Errorf("no ch-go column for type %s", chType)
}
