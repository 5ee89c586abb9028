package schema_test

import (
	"fmt"

	"github.com/avrogo/avro/schema"
)

func ExampleParseProtocol() {
	p, err := schema.ParseProtocol(`{"protocol": "Mail", "namespace": "org.mail",
	  "types": [
	    {"type": "record", "name": "Message", "fields": [{"name": "to", "type": "string"}, {"name": "body", "type": "string"}]},
	    {"type": "error", "name": "Bounce", "fields": [{"name": "why", "type": "string"}]}],
	  "messages": {
	    "send": {"request": [{"name": "message", "type": "Message"}], "response": "long", "errors": ["Bounce"]},
	    "ping": {"request": [], "response": "null", "one-way": true}}}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range p.Types() {
		fmt.Println("type", t.FullName())
	}
	for _, m := range p.Messages() {
		fmt.Printf("message %s: %d params, response %s, %d errors, one-way %v\n",
			m.Name(), len(m.Params()), m.Response().Kind(), len(m.Errors()), m.OneWay())
	}
	// Output:
	// type org.mail.Message
	// type org.mail.Bounce
	// message send: 1 params, response long, 1 errors, one-way false
	// message ping: 0 params, response null, 0 errors, one-way true
}
