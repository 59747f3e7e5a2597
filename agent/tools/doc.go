// Package tools defines the tools pybox offers to a language model, once,
// for every front end: the openai-go agent loop (package agent), the MCP
// server and the JSON HTTP API (package agent/serve).
//
// A tool is a name, a description and a JSON schema written for the model,
// plus a Go handler. Handlers run against a Box: one workspace made of a
// sandbox filesystem (package fsbridge), an engine for fresh interpreters and
// a set of persistent interpreter sessions (package runtime).
//
//	execute_python(code, session_id?, timeout_s?)  run code, fresh or in a session
//	copy_to_sandbox(source, destination)           bring a host file in
//	ls(path?) / read_file(path, offset?, limit?) / write_file(path, content)
//	describe(path, question?)                      show an image in /output to the model
//	help(topic?)                                   manuals, also readable at /help
//
// What the model may never choose is not in any schema: mounts, limits,
// network fetchers and the longest timeout are the operator's (Config).
//
// Handlers never fail with a Go error for something the model did: bad
// arguments, a Python exception, a refused path all come back as a Result
// with IsError set and a message written for the model, saying what was wrong
// and what to do instead.
package tools
