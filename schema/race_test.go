//go:build race

package schema

// allocSlack widens the bounds on allocation under the race detector,
// whose runtime allocates beside the code it checks.
const allocSlack = 1.5
