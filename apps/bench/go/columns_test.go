package main

import (
	"bytes"
	"testing"

	"github.com/ClickHouse/ch-go/proto"
)

// The types of perftest.ontime (src/ontime-schema.ts) and the wrappers around them.
func TestColumnForOntimeTypes(t *testing.T) {
	for _, chType := range []string{
		"UInt8", "UInt16", "Int32", "Date", "String",
		"FixedString(1)", "FixedString(2)", "FixedString(5)", "FixedString(7)",
		"Nullable(String)", "Nullable(FixedString(7))", "Nullable(Int32)", "Nullable(Date)",
		"LowCardinality(String)", "LowCardinality(UInt16)",
		"UInt32", "UInt64", "Int8", "Int16", "Int64", "Float32", "Float64", "Bool", "Date32",
		"DateTime", "DateTime('UTC')",
	} {
		col, err := columnFor(chType)
		if err != nil {
			t.Errorf("%s: %v", chType, err)
			continue
		}
		if got := string(col.data.Type()); got != chType {
			t.Errorf("%s: the column says it is %s", chType, got)
		}
	}
}

func TestColumnForRefuses(t *testing.T) {
	for _, chType := range []string{
		"Decimal(9, 2)", "FixedString(0)", "FixedString(x)", "LowCardinality(Nullable(String))",
		"LowCardinality(FixedString(2))", "Array(String)",
	} {
		if _, err := columnFor(chType); err == nil {
			t.Errorf("%s: expected an error", chType)
		}
	}
}

// Each fold reads the values it is given: a FixedString folds its first bytes, a
// String its lengths, a Nullable skips its NULLs.
func TestColumnFolds(t *testing.T) {
	fixed, _ := columnFor("FixedString(7)")
	fixed.data.(*proto.ColFixedStr).AppendArr([][]byte{[]byte("AA\x00\x00\x00\x00\x00"), []byte("B\x00\x00\x00\x00\x00\x00")})
	if got := fixed.fold(2); got != 'A'+'B' {
		t.Errorf("FixedString(7) fold: %d", got)
	}
	str, _ := columnFor("String")
	str.data.(*proto.ColStr).AppendArr([]string{"abc", "", "de"})
	if got := str.fold(3); got != 5 {
		t.Errorf("String fold: %d", got)
	}
	ints, _ := columnFor("Int32")
	ints.data.(*proto.ColInt32).AppendArr([]int32{-1, 5, 7})
	if got := ints.fold(3); got != 11 {
		t.Errorf("Int32 fold: %d", got)
	}
	nullable, _ := columnFor("Nullable(Int32)")
	nullable.data.(*proto.ColNullable[int32]).AppendArr([]proto.Nullable[int32]{proto.NewNullable[int32](4), proto.Null[int32]()})
	if got := nullable.fold(2); got != 4 {
		t.Errorf("Nullable(Int32) fold: %d", got)
	}
}

// A block in the wire layout (names, types, then the values) decodes into the columns.
func TestTypedResultDecodesABlock(t *testing.T) {
	var buf proto.Buffer
	buf.PutString("Carrier")
	buf.PutString("FixedString(2)")
	buf.PutRaw([]byte("AAUA"))
	buf.PutString("Flights")
	buf.PutString("Int32")
	(&proto.ColInt32{1, 2}).EncodeColumn(&buf)
	result := new(typedResult)
	// 54412 (18.16) is below the custom-serialization flag of 54454.
	err := result.DecodeResult(proto.NewReader(bytes.NewReader(buf.Buf)), 54412, proto.Block{Columns: 2, Rows: 2})
	if err != nil {
		t.Fatal(err)
	}
	if result.Rows() != 2 || result.Fold() != int64('A'+'U')+3 {
		t.Errorf("rows %d, fold %d", result.Rows(), result.Fold())
	}
}
