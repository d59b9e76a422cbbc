package crawl

import "strings"

// ConfigError is what Check and Run report about a Config: the field at fault, what is wrong,
// and the fields that would fix it, so that a command line can name its own flags instead.
type ConfigError struct {
	Field string   // the Config field at fault: "Seeds", "Scope", "Resolve", ...
	Msg   string   // what is wrong, for people
	Fixes []string // Config fields that would make it right, if any
}

func (e *ConfigError) Error() string {
	s := "crawl: " + e.Field + ": " + e.Msg
	if len(e.Fixes) > 0 {
		s += " (set " + strings.Join(e.Fixes, " or ") + ")"
	}
	return s
}

func configErr(field, msg string, fixes ...string) error {
	return &ConfigError{Field: field, Msg: msg, Fixes: fixes}
}
