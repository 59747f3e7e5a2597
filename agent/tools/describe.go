package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif" // image.DecodeConfig for GIF
	_ "image/jpeg"
	_ "image/png"
	"strings"

	"github.com/pybox-dev/pybox/fsbridge"
)

func (b *Box) describeTool() Tool {
	return Tool{
		Name: "describe",
		Description: "Look at a file the code produced: an image (PNG, JPEG, GIF) in the sandbox is sent back to you as an image, " +
			"so you can check a chart or drawing before answering. Other files are summarised (type, size, first lines). " +
			"Put what you want to check in question.",
		Parameters: schema([]string{"path"},
			prop("path", "string", "Sandbox path of the file, e.g. /output/chart.png."),
			prop("question", "string", "Optional. What to look for, e.g. 'is the text readable?'."),
		),
		Handle: b.describe,
	}
}

func (b *Box) describe(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var a struct {
		Path     string `json:"path"`
		Question string `json:"question"`
	}
	if r := decodeArgs("describe", raw, &a, `{"path": "/output/chart.png", "question": "are the axes labelled?"}`); r != nil {
		return r, nil
	}
	if strings.TrimSpace(a.Path) == "" {
		return errorResult(`describe: "path" is required, e.g. {"path": "/output/chart.png"}.`), nil
	}
	p := guestPath(a.Path)
	if err := b.lock(); err != nil {
		return nil, err
	}
	defer b.mu.RUnlock()
	if err := b.sb.BeginRun(ctx); err != nil {
		return nil, fmt.Errorf("describe: %w", err)
	}
	data, cut, r := b.readGuestFile("describe", p, max(b.cfg.ImageLimit, maxReadBytes))
	if r != nil {
		return r, nil
	}
	mime := fsbridge.DetectMIME(p, data)
	var t strings.Builder
	if modelImage(mime) {
		if cut || int64(len(data)) > b.cfg.ImageLimit {
			return errorResult("describe: %s is larger than %s, too big to show. Save a smaller version with Pillow (img.thumbnail((1024, 1024))) and describe that.",
				p, humanSize(b.cfg.ImageLimit)), nil
		}
		fmt.Fprintf(&t, "%s: %s", p, mime)
		if cfg, format, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
			fmt.Fprintf(&t, " (%s), %dx%d pixels", format, cfg.Width, cfg.Height)
		}
		fmt.Fprintf(&t, ", %s. %s", humanSize(int64(len(data))), ImageFollows)
		if a.Question != "" {
			fmt.Fprintf(&t, "\nQuestion to answer from the image: %s", a.Question)
		}
		return &Result{
			Content: []Content{
				{Type: ContentText, Text: t.String()},
				{Type: ContentImage, Path: p, MIME: mime, Size: int64(len(data)), Data: data},
			},
			Structured: File{Path: p, Size: int64(len(data)), MIME: mime},
		}, nil
	}
	fmt.Fprintf(&t, "%s is not an image: %s, %s", p, mime, humanSize(int64(len(data))))
	if cut {
		t.WriteString(" or more")
	}
	if isBinary(data) {
		t.WriteString(". It is binary; inspect it with execute_python.")
	} else {
		text, total := numberLines(string(data), 1, 40)
		fmt.Fprintf(&t, ", %d lines. The first lines:\n%s", total, text)
		if total > 40 {
			t.WriteString("(use read_file for the rest)")
		}
	}
	if a.Question != "" {
		fmt.Fprintf(&t, "\nQuestion: %s", a.Question)
	}
	return &Result{Content: []Content{{Type: ContentText, Text: strings.TrimRight(t.String(), "\n")}},
		Structured: File{Path: p, Size: int64(len(data)), MIME: mime}}, nil
}

// ImageFollows ends describe's text when an image follows it. A front end
// that does not pass images to its model (pybox agent --no-images) replaces
// it, so the model is not told about an image it never gets.
const ImageFollows = "The image follows."
