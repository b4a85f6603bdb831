package main

import (
	"fmt"

	"github.com/ClickHouse/ch-go/proto"
)

// typedResult is a query result whose columns are built from the first block's header
// with columnFor, where proto.Results.Auto() would use ch-go's own inference (which
// fails on FixedString(7)). Later blocks are decoded by proto.Results itself, which
// checks each block's names and types against the first.
type typedResult struct {
	results proto.Results
	columns []column
}

var _ proto.Result = (*typedResult)(nil)

// DecodeResult implements proto.Result.
func (t *typedResult) DecodeResult(r *proto.Reader, version int, b proto.Block) error {
	if t.columns != nil {
		return t.results.DecodeResult(r, version, b)
	}
	for i := 0; i < b.Columns; i++ {
		name, err := r.Str()
		if err != nil {
			return fmt.Errorf("column [%d] name: %w", i, err)
		}
		chType, err := r.Str()
		if err != nil {
			return fmt.Errorf("column [%d] type: %w", i, err)
		}
		if proto.FeatureCustomSerialization.In(version) {
			custom, err := r.Bool()
			if err != nil {
				return fmt.Errorf("column [%d] custom serialization: %w", i, err)
			}
			if custom {
				return fmt.Errorf("column %s has a custom (sparse) serialization, which ch-go cannot read", name)
			}
		}
		col, err := columnFor(chType)
		if err != nil {
			return fmt.Errorf("column %s: %w", name, err)
		}
		col.data.Reset()
		if b.Rows > 0 {
			if state, ok := col.data.(proto.StateDecoder); ok {
				if err := state.DecodeState(r); err != nil {
					return fmt.Errorf("column %s state: %w", name, err)
				}
			}
			if err := col.data.DecodeColumn(r, b.Rows); err != nil {
				return fmt.Errorf("column %s: %w", name, err)
			}
		}
		t.results = append(t.results, proto.ResultColumn{Name: name, Data: col.data})
		t.columns = append(t.columns, col)
	}
	if t.columns == nil {
		t.columns = []column{}
	}
	return nil
}

// Rows is the row count of the block decoded last.
func (t *typedResult) Rows() int {
	return t.results.Rows()
}

// Fold reads every value of the block decoded last into a checksum.
func (t *typedResult) Fold() int64 {
	rows := t.Rows()
	var sum int64
	for _, col := range t.columns {
		sum += col.fold(rows)
	}
	return sum
}
