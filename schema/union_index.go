package schema

import "slices"

// unionIndex finds the branches of a reader union that may read a writer
// type without comparing the writer with every branch: resolving a union
// of n branches against one of m compared n times m pairs (two headers
// of 80,000 fixed types took 17 seconds).
type unionIndex struct {
	// exact maps a branch's kind and FullName to the branch (a valid
	// union has at most one of each).
	exact map[branchKey]int
	// named maps each unqualified name of a named branch, each of its
	// aliases and each alias's unqualified name to the branches that
	// carry it, in branch order.
	named map[string][]int
}

func newUnionIndex(r *Schema) *unionIndex {
	ix := &unionIndex{exact: make(map[branchKey]int, len(r.branches)), named: map[string][]int{}}
	for j, b := range r.branches {
		if _, dup := ix.exact[branchKey{b.kind, b.FullName()}]; !dup {
			ix.exact[branchKey{b.kind, b.FullName()}] = j
		}
		if !b.kind.IsNamed() {
			continue
		}
		ix.add(b.nm().name, j)
		for _, a := range b.nm().aliases {
			ix.add(a, j)
			_, short := splitFullName(a)
			ix.add(short, j)
		}
	}
	return ix
}

func (ix *unionIndex) add(name string, j int) {
	if list := ix.named[name]; len(list) == 0 || list[len(list)-1] != j {
		ix.named[name] = append(list, j)
	}
}

// candidates returns the branches that may read w, in the order the
// resolution tries them: the same type (and full name) first, so that an
// int is not read as the long of ["long","int"]; then named types of w's
// kind that match it by name or alias (namesMatch), in branch order; then
// the promotions of w's kind, in branch order.
func (ix *unionIndex) candidates(w *Schema, r *Schema) []int {
	var out []int
	if j, ok := ix.exact[branchKey{w.kind, w.FullName()}]; ok {
		out = append(out, j)
	}
	if w.kind.IsNamed() {
		var named []int
		for _, j := range append(ix.named[w.nm().name], ix.named[w.nm().fullName]...) {
			if b := r.branches[j]; b.kind == w.kind && b.nm().fullName != w.nm().fullName && namesMatch(w, b) {
				named = append(named, j)
			}
		}
		slices.Sort(named)
		out = append(out, slices.Compact(named)...)
	}
	var promoted []int
	for _, k := range []Kind{Long, Float, Double, String, Bytes} {
		if promotable(w.kind, k) {
			if j, ok := ix.exact[branchKey{k, k.String()}]; ok {
				promoted = append(promoted, j)
			}
		}
	}
	slices.Sort(promoted)
	return append(out, promoted...)
}
