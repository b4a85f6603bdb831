// Command chgo-bench runs the bench scenarios with ch-go, the Go peer: each run is one
// process, timed from after start-up to exit like the other peers, and prints one
// `@@bench {json}` line with the wall time, the peak RSS and the rows it read.
//
//	chgo-bench ontime <work> <cutoff>   work: iterate | iterate-strings | iterate-ints
//	chgo-bench numbers <rows>
//	chgo-bench numbers-strings <rows>   the same over toString(number)
//
// The server comes from BENCH_HOST, BENCH_NATIVE_PORT, BENCH_USER, BENCH_PASSWORD;
// BENCH_COMPRESSION=lz4 turns on LZ4 (ch-go's default is none).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ClickHouse/ch-go"
	"github.com/ClickHouse/ch-go/proto"
)

var start = time.Now()

type report struct {
	ElapsedMs   float64 `json:"elapsedMs"`
	MaxRssBytes int64   `json:"maxRssBytes"`
	Rows        int     `json:"rows"`
	Check       int64   `json:"check"`
}

func finish(rows int, check int64) {
	var usage syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
	line, _ := json.Marshal(report{
		ElapsedMs:   float64(time.Since(start).Nanoseconds()) / 1e6,
		MaxRssBytes: usage.Maxrss * 1024, // Linux reports kilobytes.
		Rows:        rows,
		Check:       check,
	})
	fmt.Println("@@bench " + string(line))
}

func env(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "chgo-bench:", err)
	os.Exit(1)
}

func main() {
	if len(os.Args) < 3 {
		fail(fmt.Errorf("usage: chgo-bench ontime <work> <cutoff> | numbers <rows>"))
	}
	ctx := context.Background()
	options := ch.Options{
		Address:  env("BENCH_HOST", "127.0.0.1") + ":" + env("BENCH_NATIVE_PORT", "9000"),
		User:     env("BENCH_USER", "default"),
		Password: os.Getenv("BENCH_PASSWORD"),
	}
	if os.Getenv("BENCH_COMPRESSION") == "lz4" {
		options.Compression = ch.CompressionLZ4
	}
	client, err := ch.Dial(ctx, options)
	if err != nil {
		fail(err)
	}
	defer client.Close()

	rows := 0
	var check int64
	switch os.Args[1] {
	case "numbers":
		limit, err := strconv.ParseInt(os.Args[2], 10, 64)
		if err != nil {
			fail(err)
		}
		var numbers proto.ColUInt64
		err = client.Do(ctx, ch.Query{
			Body:   fmt.Sprintf("SELECT number FROM system.numbers_mt LIMIT %d", limit),
			Result: proto.Results{{Name: "number", Data: &numbers}},
			OnResult: func(ctx context.Context, block proto.Block) error {
				rows += len(numbers)
				return nil
			},
		})
		if err != nil {
			fail(err)
		}
	case "numbers-strings":
		limit, err := strconv.ParseInt(os.Args[2], 10, 64)
		if err != nil {
			fail(err)
		}
		var values proto.ColStr
		err = client.Do(ctx, ch.Query{
			Body:   fmt.Sprintf("SELECT toString(number) AS value FROM system.numbers_mt LIMIT %d", limit),
			Result: proto.Results{{Name: "value", Data: &values}},
			OnResult: func(ctx context.Context, block proto.Block) error {
				rows += values.Rows()
				return nil
			},
		})
		if err != nil {
			fail(err)
		}
	case "ontime":
		if len(os.Args) < 4 {
			fail(fmt.Errorf("usage: chgo-bench ontime <work> <cutoff>"))
		}
		columns := "*"
		switch os.Args[2] {
		case "iterate":
		case "iterate-strings":
			columns = os.Getenv("BENCH_STRING_COLUMNS")
		case "iterate-ints":
			columns = os.Getenv("BENCH_INT_COLUMNS")
		default:
			fail(fmt.Errorf("unknown work %q", os.Args[2]))
		}
		if columns == "" {
			fail(fmt.Errorf("the column list for %s is missing", os.Args[2]))
		}
		results := new(typedResult)
		query := fmt.Sprintf("SELECT %s FROM perftest.ontime WHERE FlightDate < '%s'",
			columns, strings.ReplaceAll(os.Args[3], "'", ""))
		err := client.Do(ctx, ch.Query{
			Body:   query,
			Result: results,
			OnResult: func(ctx context.Context, block proto.Block) error {
				check += results.Fold()
				rows += results.Rows()
				return nil
			},
		})
		if err != nil {
			fail(err)
		}
	default:
		fail(fmt.Errorf("unknown command %q", os.Args[1]))
	}
	finish(rows, check)
}
