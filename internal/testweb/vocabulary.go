package testweb

import "math/rand/v2"

// DefaultVocabulary is the number of distinct words Generate writes with: the common
// English words below, then made-up words built from syllables.
const DefaultVocabulary = 4000

// commonWords returns the most frequent words of English prose, roughly in frequency
// order, so that the head of the Zipf distribution reads like text and stop-word
// handling has something to do. (A function, not a package variable: no global state.)
func commonWords() []string {
	return []string{
		"the", "of", "and", "to", "a", "in", "is", "it", "that", "was", "for", "on", "are", "with",
		"as", "his", "they", "be", "at", "one", "have", "this", "from", "or", "had", "by", "not",
		"word", "but", "what", "some", "we", "can", "out", "other", "were", "all", "there", "when",
		"up", "use", "your", "how", "said", "an", "each", "she", "which", "do", "their", "time",
		"if", "will", "way", "about", "many", "then", "them", "write", "would", "like", "so",
		"these", "her", "long", "make", "thing", "see", "him", "two", "has", "look", "more", "day",
		"could", "go", "come", "did", "number", "sound", "no", "most", "people", "my", "over",
		"know", "water", "than", "call", "first", "who", "may", "down", "side", "been", "now",
		"find", "any", "new", "work", "part", "take", "get", "place", "made", "live", "where",
		"after", "back", "little", "only", "round", "man", "year", "came", "show", "every", "good",
		"me", "give", "our", "under", "name", "very", "through", "just", "form", "sentence",
		"great", "think", "say", "help", "low", "line", "differ", "turn", "cause", "much", "mean",
		"before", "move", "right", "boy", "old", "too", "same", "tell", "does", "set", "three",
		"want", "air", "well", "also", "play", "small", "end", "put", "home", "read", "hand",
		"port", "large", "spell", "add", "even", "land", "here", "must", "big", "high", "such",
		"follow", "act", "why", "ask", "men", "change", "went", "light", "kind", "off", "need",
		"house", "picture", "try", "us", "again", "animal", "point", "mother", "world", "near",
		"build", "self", "earth", "father", "head", "stand", "own", "page", "should", "country",
		"found", "answer", "school", "grow", "study", "still", "learn", "plant", "cover", "food",
		"sun", "four", "between", "state", "keep", "eye", "never", "last", "let", "thought",
		"city", "tree", "cross", "farm", "hard", "start", "might", "story", "saw", "far", "sea",
		"draw", "left", "late", "run", "while", "press", "close", "night", "real", "life", "few",
		"north", "open", "seem", "together", "next", "white", "children", "begin", "got", "walk",
		"example", "ease", "paper", "group", "always", "music", "those", "both", "mark", "often",
		"letter", "until", "mile", "river", "car", "feet", "care", "second", "book", "carry",
		"took", "science", "eat", "room", "friend", "began", "idea", "fish", "mountain", "stop",
		"once", "base", "hear", "horse", "cut", "sure", "watch", "colour", "face", "wood", "main",
		"enough", "plain", "girl", "usual", "young", "ready", "above", "ever", "red", "list",
		"though", "feel", "talk", "bird", "soon", "body", "dog", "family", "direct", "pose",
		"leave", "song", "measure", "door", "product", "black", "short", "numeral", "class",
		"wind", "question", "happen", "complete", "ship", "area", "half", "rock", "order", "fire",
		"south", "problem", "piece", "told", "knew", "pass", "since", "top", "whole", "king",
		"space", "heard", "best", "hour", "better", "true", "during", "hundred", "five",
		"remember", "step", "early", "hold", "west", "ground", "interest", "reach", "fast",
		"verb", "sing", "listen", "six", "table", "travel", "less", "morning", "ten", "simple",
		"several", "vowel", "toward", "war", "lay", "against", "pattern", "slow", "centre",
		"love", "person", "money", "serve", "appear", "road", "map", "rain", "rule", "govern",
		"pull", "cold", "notice", "voice", "unit", "power", "town", "fine", "certain", "fly",
		"fall", "lead", "cry", "dark", "machine", "note", "wait", "plan", "figure", "star", "box",
		"noun", "field", "rest", "correct", "able", "pound", "done", "beauty", "drive", "stood",
		"contain", "front", "teach", "week", "final", "gave", "green", "oh", "quick", "develop",
		"ocean", "warm", "free", "minute", "strong", "special", "mind", "behind", "clear", "tail",
		"produce", "fact", "street", "inch", "multiply", "nothing", "course", "stay", "wheel",
		"full", "force", "blue", "object", "decide", "surface", "deep", "moon", "island", "foot",
		"system", "busy", "test", "record", "boat", "common", "gold", "possible", "plane",
		"stead", "dry", "wonder", "laugh", "thousand", "ago", "ran", "check", "game", "shape",
		"equate", "hot", "miss", "brought", "heat", "snow", "tire", "bring", "yes", "distant",
		"fill", "east", "paint", "language", "among", "bread", "fractal", "library", "bakery",
		"trail", "gallery", "coast", "ridge", "harbour", "lantern", "orchard", "meadow",
	}
}

// vocabulary returns n distinct lower-case words: commonWords first, then made-up
// words from a fixed sequence, so every call gives the same list.
func vocabulary(n int) []string {
	onsets := [...]string{"b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z",
		"br", "ch", "cl", "dr", "fl", "gr", "pl", "sh", "st", "th", "tr", "qu"}
	nuclei := [...]string{"a", "e", "i", "o", "u", "ai", "ea", "oo", "ou", "y"}
	codas := [...]string{"", "", "", "n", "r", "l", "s", "m", "t", "nd", "st", "rk", "ck"}

	words := make([]string, 0, n)
	seen := make(map[string]bool, n)
	for _, w := range commonWords() {
		if len(words) == n {
			return words
		}
		if !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	r := rand.New(rand.NewPCG(0x6d616e64, 0x656c626f)) // fixed: the vocabulary never changes
	for len(words) < n {
		var b []byte
		for range 2 + r.IntN(2) {
			b = append(b, onsets[r.IntN(len(onsets))]...)
			b = append(b, nuclei[r.IntN(len(nuclei))]...)
			b = append(b, codas[r.IntN(len(codas))]...)
		}
		if w := string(b); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	return words
}
