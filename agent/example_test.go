package agent_test

import (
	"context"
	"fmt"
	"log"

	"github.com/pybox-dev/pybox/agent"
	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/runtime"
)

// An embedding application runs a task with its own approval dialog and the
// embedded store, and resumes it by id after a crash.
func ExampleRun() {
	ctx := context.Background()
	eng, err := runtime.NewEngine(ctx, runtime.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	box, err := tools.New(tools.Config{Engine: eng, Policy: fsbridge.Policy{
		Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount("/srv/data", "/data")},
		Output: "/srv/results",
	}})
	if err != nil {
		log.Fatal(err)
	}
	defer box.Close()
	store, err := agent.OpenStore(ctx, "") // the embedded store in the user's state folder
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	cfg := agent.Config{
		BaseURL: "http://localhost:8000/v1", Model: "Qwen/Qwen3-8B",
		Box: box, Store: store,
		Approver: agent.ApproverFunc(func(ctx context.Context, req agent.ApprovalRequest) (agent.Decision, error) {
			return agent.Decision{Approved: true}, nil // show req.Code to the user here
		}),
		OnEvent: func(e agent.Event) {
			if e.Kind == agent.EventText {
				fmt.Print(e.Text)
			}
		},
	}
	out, err := agent.Run(ctx, cfg, "Use /data/traffic_accidents.csv: what factors contribute most to accident frequency?")
	if err != nil {
		// After a crash, the same task continues where it stopped:
		//   out, err = agent.Resume(ctx, cfg, taskID)
		log.Fatal(err)
	}
	for _, f := range out.Files {
		fmt.Println(f.Path, f.HostPath)
	}
}
