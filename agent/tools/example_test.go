package tools_test

import (
	"context"
	"fmt"
	"log"

	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/runtime"
)

// A Box is a workspace for one model: the tools' schemas go to the model,
// and its tool calls come back to Box.Call.
func ExampleBox_Call() {
	ctx := context.Background()
	eng, err := runtime.NewEngine(ctx, runtime.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	box, err := tools.New(tools.Config{Engine: eng})
	if err != nil {
		log.Fatal(err)
	}
	defer box.Close()

	// What a model would send: arguments as JSON.
	res, err := box.Call(ctx, "execute_python", []byte(`{"code": "total = sum(range(10))\ntotal * 2", "session_id": "main"}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.IsError, res.Structured.(*tools.ExecResult).Value)
	res, _ = box.Call(ctx, "execute_python", []byte(`{"code": "total", "session_id": "main"}`))
	fmt.Println(res.Structured.(*tools.ExecResult).Value)
	// Output:
	// false 90
	// 45
}
