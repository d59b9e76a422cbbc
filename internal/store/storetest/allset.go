package storetest

import (
	"reflect"
	"testing"
)

// requireAllSet fails the test when a field of the struct v (recursively, through nested
// structs) holds its zero value. A round-trip test calls it on its fixture so that a field added
// to store.URL or store.Origin later cannot escape the suite: the fixture must set it first.
func requireAllSet(t *testing.T, v any) {
	t.Helper()
	for _, name := range zeroFields(reflect.ValueOf(v), reflect.TypeOf(v).Name()) {
		t.Fatalf("fixture leaves %s zero: set every field so the round trip covers it", name)
	}
}

// zeroFields returns the dotted names of v's zero fields. Structs that define Equal (time.Time)
// count as values, not as structs to descend into.
func zeroFields(v reflect.Value, path string) []string {
	if v.Kind() != reflect.Struct || v.MethodByName("Equal").IsValid() {
		if v.IsZero() {
			return []string{path}
		}
		return nil
	}
	var out []string
	for i := range v.NumField() {
		out = append(out, zeroFields(v.Field(i), path+"."+v.Type().Field(i).Name)...)
	}
	return out
}
