package fetch

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzReadBody feeds arbitrary bytes to every decoder. Whatever the input,
// the body stays within the decoded limit, the raw count within the raw
// limit, a limit is reported only when it was reached, and the only
// possible error for an in-memory body is ErrDecode.
func FuzzReadBody(f *testing.F) {
	plain := text(4 << 10)
	for _, c := range []coding{codingGzip, codingBrotli, codingZstd, codingDeflate} {
		f.Add(uint8(c), encode(f, c, plain), uint16(1<<10), uint16(2<<10))
	}
	f.Add(uint8(codingDeflate), encode(f, rawDeflate, plain), uint16(100), uint16(100))
	f.Add(uint8(codingIdentity), plain, uint16(10), uint16(20))
	f.Fuzz(func(t *testing.T, c uint8, data []byte, rawLimit, decodedLimit uint16) {
		cod := coding(c % uint8(codingUnknown+1))
		lim := limits{raw: int64(rawLimit) + 1, decoded: int64(decodedLimit) + 1}
		b, err := bodyReader{}.readBody(bytes.NewReader(data), cod, lim, -1, true)
		if err != nil && !errors.Is(err, ErrDecode) {
			t.Fatalf("%v: error %v does not wrap ErrDecode", cod, err)
		}
		if int64(len(b.decoded)) > lim.decoded || b.rawBytes > lim.raw {
			t.Fatalf("%v: decoded %d (limit %d), raw %d (limit %d)", cod, len(b.decoded), lim.decoded, b.rawBytes, lim.raw)
		}
		if !bytes.Equal(b.raw, data[:b.rawBytes]) {
			t.Fatalf("%v: kept raw bytes are not the first %d input bytes", cod, b.rawBytes)
		}
		switch b.truncatedBy {
		case LimitRaw:
			if int64(len(data)) <= lim.raw {
				t.Fatalf("%v: raw limit reported for %d bytes under limit %d", cod, len(data), lim.raw)
			}
		case LimitDecoded:
			if int64(len(b.decoded)) != lim.decoded {
				t.Fatalf("%v: decoded limit reported at %d bytes, limit %d", cod, len(b.decoded), lim.decoded)
			}
		}
		if cod == codingIdentity || cod == codingUnknown {
			if !bytes.Equal(b.decoded, data[:len(b.decoded)]) {
				t.Fatalf("%v: body is not a prefix of the input", cod)
			}
		}
	})
}
