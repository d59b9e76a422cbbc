package index

// osaRows computes the optimal string alignment distance (insert, delete, replace, swap two
// neighbours, each substring edited once) between a fixed string and one that grows a rune at a
// time, a row of the table per rune: spellDistance reads the last row's end, viableRunes stops at
// the first prefix whose row is all above its limit. The zero value is not usable (newOSARows);
// it is not safe for concurrent use.
type osaRows struct {
	fixed            []rune
	prev2, prev, cur []int
	last             rune // the rune added before the newest, for swaps
	added            int  // runes added so far
}

// newOSARows starts the table of fixed against the empty string.
func newOSARows(fixed []rune) *osaRows {
	o := &osaRows{
		fixed: fixed,
		prev2: make([]int, len(fixed)+1),
		prev:  make([]int, len(fixed)+1),
		cur:   make([]int, len(fixed)+1),
	}
	for j := range o.prev {
		o.prev[j] = j
	}
	return o
}

// add appends r to the growing string and returns the least value of its row: the fewest edits
// between the string so far and some prefix of fixed, which no extension of it goes below.
func (o *osaRows) add(r rune) int {
	o.added++
	i, rb := o.added, o.fixed
	o.cur[0] = i
	rowMin := i
	for j := 1; j <= len(rb); j++ {
		cost := 1
		if r == rb[j-1] {
			cost = 0
		}
		c := min(o.prev[j]+1, o.cur[j-1]+1, o.prev[j-1]+cost)
		if i > 1 && j > 1 && r == rb[j-2] && o.last == rb[j-1] {
			c = min(c, o.prev2[j-2]+1)
		}
		o.cur[j] = c
		rowMin = min(rowMin, c)
	}
	o.last = r
	o.prev2, o.prev, o.cur = o.prev, o.cur, o.prev2
	return rowMin
}

// distance is the distance between the string so far and fixed.
func (o *osaRows) distance() int { return o.prev[len(o.fixed)] }
