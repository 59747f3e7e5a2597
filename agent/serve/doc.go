// Package serve puts the model's tools (package agent/tools) on the wire, so
// that any agent stack can use the sandbox with no glue code:
//
//   - MCP, with the official Go SDK (github.com/modelcontextprotocol/go-sdk):
//     over stdio (Server.ServeStdio, `pybox mcp`) and streamable HTTP at /mcp
//     (Server.Handler, `pybox serve`);
//   - a JSON HTTP API under /v1 (POST /v1/execute, POST /v1/tools/{name},
//     workspaces, sessions, file download), described by /openapi.json.
//
// Every front end calls the same tools.Box handlers; this package only maps
// requests and results. A workspace is one tools.Box (a sandbox filesystem
// with its /output, fresh runs and named interpreter sessions): one per MCP
// session, one per stdio connection, and for the HTTP API one per workspace
// id the client names. Idle workspaces are closed after Config.IdleTimeout.
//
// What it owns: authentication (a bearer token), request size limits, the
// concurrency limit ("busy" answers), and graceful shutdown (running code
// finishes, or is interrupted after a grace period). What it must never do:
// decide what the guest may touch (fsbridge does, from the operator's
// Policy) or describe tools differently from package tools.
//
// # Errors
//
// The line between "the user's Python raised" and "pybox failed" is kept on
// every wire: a Python exception, bad arguments or a refused path is a tool
// result with isError (MCP) or a 200 result with is_error / status (HTTP);
// only pybox failing is a protocol error (JSON-RPC error, HTTP 5xx). Being
// busy is a tool error over MCP (the model can wait and retry) and 429 with
// Retry-After over HTTP.
package serve
