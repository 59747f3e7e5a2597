// Package agent runs a language model against pybox's tools: the loop that
// sends the conversation to an OpenAI-compatible Chat Completions endpoint
// (openai-go; vLLM serving Qwen or GPT-OSS, or OpenAI itself), streams the
// answer, runs the tool calls it asks for (package agent/tools) and sends the
// results back, until the model answers without calling a tool or MaxTurns
// is reached.
//
//	out, err := agent.Run(ctx, agent.Config{
//		BaseURL: "http://localhost:8000/v1", Model: "Qwen/Qwen3-8B",
//		Box: box, Approver: myApprover, Store: store,
//	}, "find my current IP and make an image of it")
//
// What it owns:
//
//   - Confirmation: an Approver decides, before execute_python,
//     copy_to_sandbox and write_file run, whether they may; a denial and its
//     reason are the tool's result for the model.
//   - Durability: every step is stored under (task id, step) in a Store
//     (NewFileStore, the default embedded one; NewPostgresStore for several
//     machines). Resume continues a task after a crash or kill -9 without
//     running a completed tool call again; see Resume for what happens to a
//     call that was cut off, and docs/RATIONALE.md for why.
//   - Images: Chat Completions tool messages carry text only, so images from
//     tool results (describe, files execute_python saved in /output) follow
//     the tool messages as one user message with data: URLs (unless
//     NoImages, for text-only models).
//
// What it must never do: run a tool call whose completion is stored, or
// decide anything about the sandbox: what the guest may touch is the Box's
// policy (package fsbridge), set by the operator, never by the model.
package agent
