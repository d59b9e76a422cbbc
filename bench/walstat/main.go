// Command walstat finds where a running Mandelbot crawl's SQLite writes go (issue 26: the write
// amplification of the store). It follows the write-ahead log of each of the store's two
// files while the crawl runs, reading every frame's header as it is appended (page number,
// commit mark, salt), and maps each written page to the B-tree it belongs to with the dbstat
// virtual table, taken every -map interval on a read-only connection.
//
// It reports, per file and per B-tree: the WAL frames (the pages commits wrote), the pages its
// checkpoints copied back (each distinct page of a WAL generation once), the commits and
// checkpoints, and pages per commit. Bytes written are about frames × (page size + 24) plus
// checkpointed pages × page size.
//
// Usage, beside a crawl whose data directory is DIR or is made inside it (crawlbench
// -keep-data DIR):
//
//	walstat -dir DIR -pages 200000
//
// It stops when the crawl database's WAL is gone (the store's Close leaves none) or on SIGINT.
// Frames a restarted WAL overwrote between two polls would be missed; a checkpoint runs between
// a generation's last commit and the restart, so a poll every few milliseconds sees them. Check
// the frames against the write_bytes of the crawl (crawlbench reports it).
package main

import (
	"context"
	"database/sql"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite"
)

// files are the store's database files, by their name in a data directory.
var files = []string{"crawl.db", "crawl.index.db"}

const (
	walHeaderBytes   = 32
	frameHeaderBytes = 24
)

// frame is one WAL frame read: its page and the mapping epoch it was read in.
type frame struct {
	page  uint32
	epoch int
}

// follower reads one database's WAL as it grows.
type follower struct {
	db, wal      string
	salt         [8]byte
	pageSize     int
	offset       int64
	pending      []frame // frames after the last commit frame read
	frames       []frame // committed frames, all generations
	commits      int
	commitSizes  []int // frames per commit
	gens         int   // WAL generations seen (a generation ends with a checkpoint and a restart)
	genPages     map[uint32]int
	checkpointed []frame // each distinct page of each generation once, at its last frame's epoch
}

func newFollower(db string) *follower {
	return &follower{db: db, wal: db + "-wal", genPages: map[uint32]int{}}
}

// endGen closes the current generation: its distinct pages were copied back by its checkpoint.
func (f *follower) endGen() {
	for p, epoch := range f.genPages {
		f.checkpointed = append(f.checkpointed, frame{p, epoch})
	}
	f.genPages = map[uint32]int{}
	f.pending = f.pending[:0]
}

// poll reads the frames appended since the last poll, at mapping epoch epoch. It returns false
// when the WAL file does not exist.
func (f *follower) poll(epoch int) (bool, error) {
	fh, err := os.Open(f.wal)
	if os.IsNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer fh.Close()
	var hdr [walHeaderBytes]byte
	if _, err := fh.ReadAt(hdr[:], 0); err != nil {
		return true, nil // empty or being written
	}
	var salt [8]byte
	copy(salt[:], hdr[16:24])
	if salt != f.salt {
		if f.gens > 0 {
			f.endGen()
		}
		f.salt, f.offset, f.gens = salt, walHeaderBytes, f.gens+1
		f.pageSize = int(binary.BigEndian.Uint32(hdr[8:12]))
	}
	if f.pageSize == 0 {
		return true, nil
	}
	var fhdr [frameHeaderBytes]byte
	for {
		if _, err := fh.ReadAt(fhdr[:], f.offset); err != nil {
			if err == io.EOF {
				return true, nil
			}
			return true, err
		}
		if [8]byte(fhdr[8:16]) != f.salt {
			return true, nil // a stale frame of the previous generation: not written yet
		}
		page, commit := binary.BigEndian.Uint32(fhdr[0:4]), binary.BigEndian.Uint32(fhdr[4:8])
		f.pending = append(f.pending, frame{page, epoch})
		f.offset += int64(frameHeaderBytes + f.pageSize)
		if commit != 0 {
			f.frames = append(f.frames, f.pending...)
			for _, fr := range f.pending {
				f.genPages[fr.page] = fr.epoch
			}
			f.commits++
			f.commitSizes = append(f.commitSizes, len(f.pending))
			f.pending = f.pending[:0]
		}
	}
}

// mapping is one dbstat snapshot of a database: the B-tree of each page.
type mapping struct {
	tree []int16 // by page number; -1 unknown (free or beyond the file)
}

// names interns B-tree names.
type names struct {
	index map[string]int16
	list  []string
}

func (n *names) id(s string) int16 {
	if i, ok := n.index[s]; ok {
		return i
	}
	n.index[s] = int16(len(n.list))
	n.list = append(n.list, s)
	return n.index[s]
}

// snapshot maps db's pages to their B-trees through dbstat.
func snapshot(ctx context.Context, db string, nm *names) (mapping, error) {
	conn, err := sql.Open("sqlite", "file:"+db+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return mapping{}, err
	}
	defer conn.Close()
	rows, err := conn.QueryContext(ctx, `SELECT name, pageno FROM dbstat`)
	if err != nil {
		return mapping{}, err
	}
	defer rows.Close()
	var m mapping
	for rows.Next() {
		var name string
		var page int
		if err := rows.Scan(&name, &page); err != nil {
			return mapping{}, err
		}
		for len(m.tree) <= page {
			m.tree = append(m.tree, -1)
		}
		m.tree[page] = nm.id(name)
	}
	return m, rows.Err()
}

// treeOf is the B-tree of page read at epoch: the first snapshot taken after it that knows the
// page, else the latest before it that does.
func treeOf(snaps []mapping, page uint32, epoch int) int16 {
	for i := epoch; i < len(snaps); i++ {
		if int(page) < len(snaps[i].tree) && snaps[i].tree[page] >= 0 {
			return snaps[i].tree[page]
		}
	}
	for i := min(epoch, len(snaps)) - 1; i >= 0; i-- {
		if int(page) < len(snaps[i].tree) && snaps[i].tree[page] >= 0 {
			return snaps[i].tree[page]
		}
	}
	return -1
}

func main() {
	dir := flag.String("dir", "", "the data directory, or a directory a crawl makes it inside (crawlbench -keep-data)")
	pollEvery := flag.Duration("poll", 5*time.Millisecond, "how often each WAL is read")
	mapEvery := flag.Duration("map", 30*time.Second, "how often each database's pages are mapped to B-trees (dbstat)")
	pages := flag.Int("pages", 0, "pages the crawl fetches, for per-page figures (0: none)")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "walstat: -dir is required")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	data := waitForData(ctx, *dir)
	if data == "" {
		return
	}
	fmt.Println("walstat: following", data)
	fs := make([]*follower, len(files))
	nms := make([]*names, len(files))
	snaps := make([][]mapping, len(files))
	for i, f := range files {
		fs[i] = newFollower(filepath.Join(data, f))
		nms[i] = &names{index: map[string]int16{}}
	}
	var mu sync.Mutex
	takeSnapshots := func() {
		for i := range fs {
			m, err := snapshot(ctx, fs[i].db, nms[i])
			if err != nil {
				fmt.Fprintln(os.Stderr, "walstat: dbstat:", fs[i].db, err)
			}
			mu.Lock()
			snaps[i] = append(snaps[i], m)
			mu.Unlock()
		}
	}
	done := make(chan struct{})
	mapped := make(chan struct{})
	go func() { // the snapshots run beside the polls, which must not pause for them
		defer close(mapped)
		for {
			select {
			case <-done:
				return
			case <-time.After(*mapEvery):
				takeSnapshots()
			}
		}
	}()
	start, seen := time.Now(), false
	for ctx.Err() == nil {
		mu.Lock()
		epoch := len(snaps[len(snaps)-1]) // frames read now map to the next snapshot to complete
		mu.Unlock()
		alive := false
		for _, f := range fs {
			ok, err := f.poll(epoch)
			if err != nil {
				fmt.Fprintln(os.Stderr, "walstat:", err)
			}
			alive = alive || ok
		}
		if alive {
			seen = true
		} else if seen {
			break // the store closed
		}
		time.Sleep(*pollEvery)
	}
	close(done)
	<-mapped
	for _, f := range fs {
		f.endGen()
	}
	takeSnapshots()
	fmt.Printf("walstat: %s followed for %.1f s, %d dbstat snapshots\n", data, time.Since(start).Seconds(), len(snaps[0]))
	report(fs, nms, snaps, *pages)
}

// waitForData returns dir if it holds crawl.db, or the newest data directory made inside it
// once one holds crawl.db.
func waitForData(ctx context.Context, dir string) string {
	for ctx.Err() == nil {
		if _, err := os.Stat(filepath.Join(dir, files[0])); err == nil {
			return dir
		}
		matches, _ := filepath.Glob(filepath.Join(dir, "*", files[0]))
		var newest string
		var at time.Time
		for _, m := range matches {
			if fi, err := os.Stat(m); err == nil && fi.ModTime().After(at) && time.Since(fi.ModTime()) < time.Minute {
				newest, at = filepath.Dir(m), fi.ModTime()
			}
		}
		if newest != "" {
			return newest
		}
		time.Sleep(50 * time.Millisecond)
	}
	return ""
}

// row is one B-tree's tally.
type row struct {
	file, tree         string
	frames, checkpoint int
}

func report(fs []*follower, nms []*names, snaps [][]mapping, pages int) {
	var rows []row
	var totalFrames, totalCkpt int
	per := func(n int) string {
		if pages == 0 {
			return ""
		}
		return fmt.Sprintf("%.2f", float64(n)/float64(pages))
	}
	fmt.Printf("\n| file | commits | checkpoints | WAL frames | frames/commit p50, p90, p99, max | checkpointed pages | page size |\n|---|--:|--:|--:|--:|--:|--:|\n")
	for i, f := range fs {
		tally := map[int16]*row{}
		get := func(t int16) *row {
			if r, ok := tally[t]; ok {
				return r
			}
			name := "(unmapped)"
			if t >= 0 {
				name = nms[i].list[t]
			}
			tally[t] = &row{file: files[i], tree: name}
			return tally[t]
		}
		for _, fr := range f.frames {
			get(treeOf(snaps[i], fr.page, fr.epoch)).frames++
		}
		for _, fr := range f.checkpointed {
			get(treeOf(snaps[i], fr.page, fr.epoch)).checkpoint++
		}
		for _, r := range tally {
			rows = append(rows, *r)
		}
		sizes := append([]int(nil), f.commitSizes...)
		sort.Ints(sizes)
		q := func(p float64) int {
			if len(sizes) == 0 {
				return 0
			}
			return sizes[min(len(sizes)-1, int(p*float64(len(sizes))))]
		}
		fmt.Printf("| %s | %d | %d | %d | %d, %d, %d, %d | %d | %d |\n", files[i], f.commits, f.gens, len(f.frames),
			q(0.5), q(0.9), q(0.99), q(1), len(f.checkpointed), f.pageSize)
		totalFrames += len(f.frames)
		totalCkpt += len(f.checkpointed)
	}
	sort.Slice(rows, func(a, b int) bool {
		return rows[a].frames+rows[a].checkpoint > rows[b].frames+rows[b].checkpoint
	})
	fmt.Printf("\n| file | B-tree | WAL frames | share | per page | checkpointed pages | share | per page |\n|---|---|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range rows {
		fmt.Printf("| %s | %s | %d | %.1f%% | %s | %d | %.1f%% | %s |\n", strings.TrimPrefix(r.file, "crawl."), r.tree,
			r.frames, 100*float64(r.frames)/float64(max(totalFrames, 1)), per(r.frames),
			r.checkpoint, 100*float64(r.checkpoint)/float64(max(totalCkpt, 1)), per(r.checkpoint))
	}
	fmt.Printf("| all | | %d | | %s | %d | | %s |\n", totalFrames, per(totalFrames), totalCkpt, per(totalCkpt))
}
