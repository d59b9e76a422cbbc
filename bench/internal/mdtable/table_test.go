package mdtable

import (
	"strings"
	"testing"
	"time"
)

func TestTable(t *testing.T) {
	tb := Table{Header: []string{"what", "n"}, Right: []bool{false, true}}
	tb.Add("a longer name", "7")
	var b strings.Builder
	if err := tb.Write(&b); err != nil {
		t.Fatal(err)
	}
	want := "| what          |   n |\n" +
		"| ------------- | --: |\n" +
		"| a longer name |   7 |\n"
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestFormats(t *testing.T) {
	if MiB(3<<19) != "1.5" || MiB(-1) != "-" || Secs(1500*time.Millisecond) != "1.50" || Secs(-1) != "-" {
		t.Errorf("MiB/Secs: %s %s %s %s", MiB(3<<19), MiB(-1), Secs(1500*time.Millisecond), Secs(-1))
	}
}
