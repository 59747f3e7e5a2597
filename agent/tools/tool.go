package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Tool is one tool as the model sees it (Name, Description, Parameters) and
// the handler that serves it.
type Tool struct {
	// Name is what the model calls, e.g. "execute_python".
	Name string
	// Description tells the model what the tool does and when to use it.
	Description string
	// Parameters is the JSON schema of the arguments object.
	Parameters json.RawMessage
	// Handle runs the tool. args is the raw JSON arguments object from the
	// model. The error is reserved for pybox failing (the engine closed, a
	// host I/O error); what the model got wrong is a Result with IsError.
	Handle func(ctx context.Context, args json.RawMessage) (*Result, error)

	strict bool // Parameters are strict-mode (Strict)
}

// OpenAIFunction is a Tool in the shape of a Chat Completions "tools" entry:
// {"type":"function","function":{"name":...,"description":...,"parameters":...}}.
type OpenAIFunction struct {
	Type     string             `json:"type"`
	Function OpenAIFunctionBody `json:"function"`
}

// OpenAIFunctionBody is the "function" member of an OpenAIFunction.
type OpenAIFunctionBody struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	// Strict asks the server to hold the model to the schema (OpenAI's
	// structured outputs); set by Tool.Strict's schemas.
	Strict bool `json:"strict,omitempty"`
}

// OpenAI returns the tool as a Chat Completions function definition.
func (t Tool) OpenAI() OpenAIFunction {
	return OpenAIFunction{Type: "function", Function: OpenAIFunctionBody{
		Name: t.Name, Description: t.Description, Parameters: t.Parameters, Strict: t.strict,
	}}
}

// Strict returns the tool with a schema valid for OpenAI's strict mode:
// every property is listed as required, and the optional ones accept null
// as well as their type. The handlers treat null, and 0 for timeout_s,
// offset and limit, as "not given", so a strict caller that must send
// every argument gets the defaults.
func (t Tool) Strict() Tool {
	var s struct {
		Type                 string                     `json:"type"`
		Properties           map[string]json.RawMessage `json:"properties"`
		Required             []string                   `json:"required"`
		AdditionalProperties bool                       `json:"additionalProperties"`
	}
	if err := json.Unmarshal(t.Parameters, &s); err != nil {
		panic("tools: bad schema for " + t.Name + ": " + err.Error())
	}
	names := make([]string, 0, len(s.Properties))
	for name, raw := range s.Properties {
		names = append(names, name)
		if slices.Contains(s.Required, name) {
			continue
		}
		var p map[string]any
		if err := json.Unmarshal(raw, &p); err != nil {
			panic("tools: bad schema for " + t.Name + ": " + err.Error())
		}
		p["type"] = []any{p["type"], "null"}
		s.Properties[name], _ = json.Marshal(p)
	}
	sort.Strings(names)
	s.Required = names
	t.Parameters, _ = json.Marshal(s)
	t.strict = true
	return t
}

// WithPrefix returns the tool renamed prefix+Name, with the names of the
// other tools in its description renamed the same way, for clients that
// refuse two servers offering a tool of the same name (read_file and
// write_file are also the official filesystem MCP server's).
func (t Tool) WithPrefix(prefix string) Tool {
	if prefix == "" {
		return t
	}
	t.Name = prefix + t.Name
	t.Description = toolNameRef.ReplaceAllString(t.Description, prefix+"$1")
	return t
}

// toolNameRef matches the tool names that descriptions mention and that
// cannot be mistaken for ordinary words.
var toolNameRef = regexp.MustCompile(`\b(execute_python|copy_to_sandbox|read_file|write_file)\b`)

// ContentType says what a Content holds.
type ContentType string

// The kinds of content a Result carries. They map one to one onto MCP's
// text, image and resource_link content.
const (
	// ContentText is text for the model (Content.Text).
	ContentText ContentType = "text"
	// ContentImage is an image (Content.Data, Content.MIME), e.g. a PNG the
	// code saved in /output.
	ContentImage ContentType = "image"
	// ContentFile points at a file in the sandbox (Content.Path, MIME, Size)
	// without carrying its bytes.
	ContentFile ContentType = "file"
)

// Content is one piece of a tool's result.
type Content struct {
	Type ContentType `json:"type"`
	// Text is set for ContentText.
	Text string `json:"text,omitempty"`
	// Path is the guest path of an image or file, e.g. "/output/ip.png".
	Path string `json:"path,omitempty"`
	// MIME is the media type of an image or file.
	MIME string `json:"mime,omitempty"`
	// Size is the file's size in bytes.
	Size int64 `json:"size,omitempty"`
	// Data is the image's bytes (ContentImage only).
	Data []byte `json:"data,omitempty"`
}

// Result is what a tool call returns: content for the model and, for
// front ends that speak JSON (the HTTP API), a structured form.
type Result struct {
	// Content is what the model reads, in order.
	Content []Content `json:"content"`
	// IsError marks a failed call: a Python error, bad arguments, a refused
	// path. The model reads the reason in Content; it is not a protocol error.
	IsError bool `json:"is_error"`
	// Structured is a JSON-encodable form of the result (e.g. *ExecResult),
	// or nil.
	Structured any `json:"structured,omitempty"`
}

// Text returns the text contents joined by newlines: the whole result as a
// model that reads only text sees it.
func (r *Result) Text() string {
	var parts []string
	for _, c := range r.Content {
		switch c.Type {
		case ContentText:
			parts = append(parts, c.Text)
		case ContentImage:
			parts = append(parts, fmt.Sprintf("[image %s, %s, %d bytes]", c.Path, c.MIME, len(c.Data)))
		case ContentFile:
			parts = append(parts, fmt.Sprintf("[file %s, %s, %d bytes]", c.Path, c.MIME, c.Size))
		}
	}
	return strings.Join(parts, "\n")
}

// Images returns the image contents.
func (r *Result) Images() []Content {
	var out []Content
	for _, c := range r.Content {
		if c.Type == ContentImage {
			out = append(out, c)
		}
	}
	return out
}

// errorResult is a failed call explained to the model.
func errorResult(format string, a ...any) *Result {
	return &Result{IsError: true, Content: []Content{{Type: ContentText, Text: fmt.Sprintf(format, a...)}}}
}

// textResult is a successful call with one text content.
func textResult(text string) *Result {
	return &Result{Content: []Content{{Type: ContentText, Text: text}}}
}

// decodeArgs parses a tool's arguments into v. Models get this wrong in
// several ways, and each gets an answer the model can act on: empty
// arguments mean {}, arguments double-encoded as a JSON string are unwrapped
// (some servers emit them that way), and anything else that does not parse
// is reported with the schema's field names.
func decodeArgs(tool string, raw json.RawMessage, v any, example string) *Result {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	if raw[0] == '"' {
		var inner string
		if err := json.Unmarshal(raw, &inner); err == nil {
			raw = json.RawMessage(strings.TrimSpace(inner))
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return errorResult("%s: the arguments are not a valid JSON object (%v). Send an object like %s.",
			tool, simplifyJSONError(err), example)
	}
	// The schemas say additionalProperties: false. An argument the tool
	// does not know is most often a misspelt one ("timeout" for
	// "timeout_s"), and ignoring it silently would run something else than
	// the model meant.
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) == nil {
		known := argNames(v)
		var unknown []string
		for k := range fields {
			if !slices.Contains(known, k) {
				unknown = append(unknown, fmt.Sprintf("%q", k))
			}
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			what := "argument"
			if len(unknown) > 1 {
				what = "arguments"
			}
			return errorResult("%s: unknown %s %s. The arguments are: %s; e.g. %s.",
				tool, what, strings.Join(unknown, ", "), strings.Join(known, ", "), example)
		}
	}
	return nil
}

// argNames lists the JSON names of the fields of the struct v points to.
func argNames(v any) []string {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var names []string
	if t.Kind() != reflect.Struct {
		return nil
	}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}

// simplifyJSONError turns encoding/json's Go-flavoured messages into ones
// that speak of JSON fields.
func simplifyJSONError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("field %q must be a %s, not a JSON %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
	}
	return err.Error()
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "string"
	case "int", "int64", "float64":
		return "number"
	case "bool":
		return "boolean"
	case "slice":
		return "array"
	}
	return "value of another type"
}

// schema builds a JSON schema for an object with the given properties and
// required names. Properties are given as JSON fragments to keep them
// readable next to the tool's description.
func schema(required []string, props ...string) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	b.WriteString(strings.Join(props, ","))
	b.WriteString(`},"required":[`)
	for i, r := range required {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q", r)
	}
	b.WriteString(`],"additionalProperties":false}`)
	var check any
	if err := json.Unmarshal([]byte(b.String()), &check); err != nil {
		panic("tools: bad schema: " + err.Error() + ": " + b.String())
	}
	return json.RawMessage(b.String())
}

// prop is one property of a schema.
func prop(name, typ, description string) string {
	d, _ := json.Marshal(description)
	return fmt.Sprintf(`%q:{"type":%q,"description":%s}`, name, typ, d)
}
