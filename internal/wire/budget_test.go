package wire

import (
	"math"
	"testing"
)

func TestCredit(t *testing.T) {
	var c Credit
	if got := c.Budget(1000); got != 1000 {
		t.Fatalf("fresh budget %d, want 1000", got)
	}
	c.Spend(900)
	if got := c.Budget(1000); got != 100 {
		t.Fatalf("after spending 900: %d, want 100", got)
	}
	c.Earn(1000, 2, ZeroItemsRate(1000)) // 64 a byte
	if got := c.Budget(1000); got != 228 {
		t.Fatalf("after 2 bytes: %d, want 228", got)
	}
	c.Spend(1000) // more than left: the budget is 0, never negative
	if got := c.Budget(1000); got != 0 {
		t.Fatalf("overspent: %d, want 0", got)
	}
	// A larger per-datum limit earns more a byte.
	var big Credit
	big.Spend(big.Budget(1 << 30))
	big.Earn(1<<30, 1, ZeroItemsRate(1<<30))
	if got := big.Budget(1 << 30); got != 1<<16 {
		t.Fatalf("rate for 2^30: budget %d", got)
	}
	// Earning saturates.
	var s Credit
	s.Earn(math.MaxInt64, math.MaxInt64, 64)
	s.Earn(math.MaxInt64, math.MaxInt64, 64)
	if got := s.Budget(math.MaxInt64); got != math.MaxInt64/2 {
		t.Fatalf("saturated budget %d", got)
	}
}
