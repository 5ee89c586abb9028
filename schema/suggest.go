package schema

import (
	"fmt"
	"strings"
)

// unknownTypeMsg is the message for a reference to name, in namespace ns,
// that names no type: it suggests the nearest primitive or named type
// defined so far (in the text, or by earlier texts of a Parser) when one
// is close enough to be a likely typo.
func (st *parseState) unknownTypeMsg(name, ns string) string {
	if s := st.suggest(name, ns); s != "" {
		return fmt.Sprintf("unknown type %q (did you mean %q?)", name, s)
	}
	return fmt.Sprintf("unknown type %q", name)
}

// suggest returns the spelling of the type nearest to name, or "". An
// undotted name is compared with the primitive names and with the short
// names of the named types; the suggestion is the short name when it
// resolves from ns (the type is in ns or in the null namespace), else the
// full name (a short name is often right but in the wrong namespace,
// which is distance 0). A dotted name is compared with the full names.
// Only a distance of at most a third of the name's length (at least 1,
// at most 2) counts: beyond that a "suggestion" is mostly noise.
func (st *parseState) suggest(name, ns string) string {
	dotted := strings.IndexByte(name, '.') >= 0
	limit := min(2, max(1, len(name)/3))
	best, bestDist, bestRank := "", limit+1, 0
	// consider keeps the nearest candidate; ties go to the lower rank
	// (0 primitive, 1 reachable by its short name, 2 by its full name
	// only), then to the alphabetically first, so that the message does
	// not depend on map order.
	consider := func(cand, compared string, rank int) {
		d := editDistance(name, compared, limit)
		if d < bestDist || d == bestDist && (rank < bestRank || rank == bestRank && cand < best) {
			best, bestDist, bestRank = cand, d, rank
		}
	}
	if !dotted {
		for p := range primitiveKinds {
			consider(p, p, 0)
		}
	}
	named := func(m map[string]*Schema) {
		for full := range m {
			if !dotted {
				short, space := full, ""
				if i := strings.LastIndexByte(full, '.'); i >= 0 {
					short, space = full[i+1:], full[:i]
				}
				if space == ns || space == "" {
					consider(short, short, 1)
				} else {
					consider(full, short, 2)
				}
				continue
			}
			consider(full, full, 1)
		}
	}
	named(st.local)
	named(st.global)
	return best
}

// editDistance returns the optimal string alignment distance between a
// and b (insertions, deletions, substitutions and transpositions of
// adjacent bytes, each costing 1), or limit+1 when it exceeds limit. Only
// the band of cells within limit of the diagonal is computed, so a long
// name costs time linear in its length.
func editDistance(a, b string, limit int) int {
	if len(a)-len(b) > limit || len(b)-len(a) > limit {
		return limit + 1
	}
	over := limit + 1
	// Rows i-2, i-1 and i of the table, indexed by j in [0, len(b)].
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = min(j, over)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-limit), min(len(b), i+limit)
		for j := range cur {
			cur[j] = over
		}
		if i <= limit {
			cur[0] = i
		}
		rowMin := cur[0]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = min(d, over)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return over
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
