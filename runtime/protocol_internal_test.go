package runtime

import (
	"testing"
)

// FuzzJobFields: whatever the code, file name and arguments hold, a job
// decodes to exactly those values, in their own fields, and the mode is the
// host's.
func FuzzJobFields(f *testing.F) {
	f.Add("print(1)\x00mode\x00once", "f\x00mode\x00once", "a\x00argv\x00b", false, "")
	f.Add("", "", "", true, "/output")
	f.Add("\x04\x00\x00\x00mode\x04\x00\x00\x00once", "\xff\xfe", "\x00", false, "\x07\x00\x00\x00figures")
	f.Fuzz(func(t *testing.T, code, filename, arg string, once bool, figures string) {
		req := &Request{Code: code, Filename: filename, Args: []string{arg, code}, Figures: figures}
		fs, err := parseFields(encodeJob(req, once))
		if err != nil {
			t.Fatalf("parse: %v", err)
		}
		want := []field{{"code", code}, {"mode", "session"}, {"filename", req.filename()}, {"argv", arg}, {"argv", code}}
		if once {
			want[1].value = "once"
		}
		if figures != "" {
			want = append(want, field{"figures", figures})
		}
		if len(fs) != len(want) {
			t.Fatalf("fields %q, want %q", fs, want)
		}
		for i := range want {
			if fs[i] != want[i] {
				t.Fatalf("field %d: %q, want %q", i, fs[i], want[i])
			}
		}
	})
}

// FuzzParseOutcome: any bytes from the guest either decode or are refused
// with an error; never a panic.
func FuzzParseOutcome(f *testing.F) {
	f.Add(appendField(appendField(nil, "kind", "exit"), "exit", "0"))
	f.Add([]byte("kind\x00exit"))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		o, err := parseOutcome(b)
		if err == nil && o.kind == "" {
			t.Fatalf("accepted an outcome with no kind: %q", b)
		}
	})
}

func TestParseOutcome(t *testing.T) {
	enc := func(kv ...string) []byte {
		var b []byte
		for i := 0; i < len(kv); i += 2 {
			b = appendField(b, kv[i], kv[i+1])
		}
		return b
	}
	tests := []struct {
		name string
		in   []byte
		ok   bool
		want outcome
	}{
		{"error", enc("kind", "error", "exit", "1", "type", "ValueError", "message", "a\x00b", "traceback", "tb", "value", ""), true,
			outcome{kind: "error", exitCode: 1, excType: "ValueError", excMsg: "a\x00b", traceback: "tb"}},
		{"exit", enc("kind", "exit", "exit", "3"), true, outcome{kind: "exit", exitCode: 3}},
		{"no kind", enc("exit", "0"), false, outcome{}},
		{"bad kind", enc("kind", "ok"), false, outcome{}},
		{"bad exit", enc("kind", "exit", "exit", "x"), false, outcome{}},
		{"field twice", enc("kind", "exit", "kind", "error"), false, outcome{}},
		{"unknown field", enc("kind", "exit", "mode", "once"), false, outcome{}},
		{"truncated", enc("kind", "exit")[:7], false, outcome{}},
		{"NUL separated", []byte("exit\x000\x00\x00\x00\x00"), false, outcome{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, err := parseOutcome(tc.in)
			if (err == nil) != tc.ok || o != tc.want {
				t.Fatalf("parseOutcome: %+v, %v; want %+v ok=%v", o, err, tc.want, tc.ok)
			}
		})
	}
}
