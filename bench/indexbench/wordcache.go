package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// wordCounts is docFreq as a -words file keeps it: what the walk of the web counted.
type wordCounts struct {
	Words []string
	DF    []int32
	Docs  int32
}

// loadWords reads the counts a -words file kept into d; false when the file does not exist.
func loadWords(path string, d *docFreq) (bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("-words: %w", err)
	}
	var c wordCounts
	if err := json.Unmarshal(b, &c); err != nil || len(c.Words) != len(c.DF) {
		return false, fmt.Errorf("-words %s: not a word count file (%v)", path, err)
	}
	*d = docFreq{ids: make(map[string]int32, len(c.Words)), words: c.Words, df: c.DF, last: make([]int32, len(c.Words)), docs: c.Docs}
	for i, w := range c.Words {
		d.ids[w] = int32(i)
	}
	return true, nil
}

// saveWords writes d's counts to a new -words file.
func saveWords(path string, d *docFreq) error {
	b, err := json.Marshal(wordCounts{Words: d.words, DF: d.df, Docs: d.docs})
	if err != nil {
		return fmt.Errorf("-words: %w", err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("-words: %w", err)
	}
	return nil
}
