package schema

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Props are kept as text and decoded on first use: the values must be
// those encoding/json (with UseNumber) gives, and String must write
// objects with their members sorted, as it writes the generic model.
func TestPropsKeptAsText(t *testing.T) {
	var many, manySorted strings.Builder
	want := map[string]any{}
	for i := 40; i > 0; i-- {
		if i < 40 {
			many.WriteByte(',')
		}
		fmt.Fprintf(&many, `"k%02d":%d`, i, i)
		want[fmt.Sprintf("k%02d", i)] = json.Number(fmt.Sprint(i))
	}
	for i := 1; i <= 40; i++ {
		if i > 1 {
			manySorted.WriteByte(',')
		}
		fmt.Fprintf(&manySorted, `"k%02d":%d`, i, i)
	}
	for _, c := range []struct {
		text, prop string
		value      any
		written    string
	}{
		{`{"b":{"y":[1.5e3,"\u00e9\t"],"x":{}},"a":false}`, "p",
			map[string]any{"b": map[string]any{"y": []any{json.Number("1.5e3"), "é\t"}, "x": map[string]any{}}, "a": false},
			`{"a":false,"b":{"x":{},"y":[1.5e3,"é\t"]}}`},
		{"{" + many.String() + "}", "p", want, "{" + manySorted.String() + "}"},
		{`[[],{"z":null,"y":"\ud83d\ude00"}]`, "p", []any{[]any{}, map[string]any{"y": "😀", "z": nil}}, `[[],{"y":"😀","z":null}]`},
	} {
		text := `{"type":"int","p":` + c.text + `}`
		s := mustParse(t, text)
		var wg sync.WaitGroup
		got := make([]any, 4)
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], _ = s.Prop(c.prop)
			}()
		}
		wg.Wait()
		for _, g := range got {
			if diff := cmp.Diff(c.value, g); diff != "" {
				t.Errorf("%s: Prop (-want +got):\n%s", text, diff)
			}
		}
		if want := `{"type":"int","p":` + c.written + `}`; s.String() != want {
			t.Errorf("String() = %s\nwant %s", s.String(), want)
		}
		if again := mustParse(t, s.String()); again.String() != s.String() {
			t.Errorf("String does not parse back to itself: %s", again.String())
		}
	}
}
