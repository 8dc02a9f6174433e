package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// maxJSONDepth bounds the nesting of a JSON document read from an agent.
const maxJSONDepth = 64

// checkStrictJSON refuses JSON that two readers could understand
// differently: an object with the same key twice (encoding/json keeps the
// last, other parsers the first, so the command checked might not be the
// command run), and nesting deeper than maxJSONDepth. It does not check
// that data is valid JSON beyond that; the decoder that follows does.
func checkStrictJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		object bool
		keys   map[string]bool
		expect bool // inside an object: the next token is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if top != nil && top.object {
					top.expect = true // the value is done once it closes
				}
				if len(stack) >= maxJSONDepth {
					return fmt.Errorf("the JSON nests deeper than %d levels", maxJSONDepth)
				}
				stack = append(stack, &frame{object: t == '{', keys: map[string]bool{}, expect: t == '{'})
			case '}', ']':
				stack = stack[:len(stack)-1]
			}
		case string:
			if top != nil && top.object && top.expect {
				if top.keys[t] {
					return fmt.Errorf("the JSON object has the key %q twice", t)
				}
				top.keys[t] = true
				top.expect = false
				continue
			}
			if top != nil && top.object {
				top.expect = true
			}
		default:
			if top != nil && top.object {
				top.expect = true
			}
		}
	}
}
