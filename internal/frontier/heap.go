package frontier

// originHeap orders origins by readyAt, earliest first (container/heap interface).
type originHeap []*origin

func (h originHeap) Len() int           { return len(h) }
func (h originHeap) Less(i, j int) bool { return h[i].readyAt.Before(h[j].readyAt) }
func (h originHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}
func (h *originHeap) Push(x any) {
	o := x.(*origin)
	o.index = len(*h)
	*h = append(*h, o)
}
func (h *originHeap) Pop() any {
	old := *h
	o := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	o.index = -1
	return o
}
