package policy

import (
	"encoding/binary"
	"math"
	"testing"
)

// TestReadUvarint: ReadUvarint answers as binary.Uvarint on encoded
// values, truncated ones, overflowing ones and stray bytes.
func TestReadUvarint(t *testing.T) {
	inputs := [][]byte{nil, {0x80}, {0xff, 0xff}, {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02},
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}}
	for _, v := range []uint64{0, 1, 127, 128, 300, 1 << 35, math.MaxUint64} {
		inputs = append(inputs, binary.AppendUvarint(nil, v), append(binary.AppendUvarint(nil, v), 'x', 0x80))
	}
	for _, in := range inputs {
		want, n := binary.Uvarint(in)
		got, rest, ok := ReadUvarint(string(in))
		if ok != (n > 0) || ok && (got != want || rest != string(in[n:])) {
			t.Errorf("ReadUvarint(%x) = %d, %q, %v; binary.Uvarint = %d, %d", in, got, rest, ok, want, n)
		}
	}
}
