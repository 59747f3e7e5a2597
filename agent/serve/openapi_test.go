package serve

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
)

// TestOpenAPIDescribesEveryRoute parses /openapi.json and checks it against
// the server's route table both ways, that every $ref resolves, and that
// each described operation is answered by its route (not the 404 fallback).
func TestOpenAPIDescribesEveryRoute(t *testing.T) {
	s := newServer(t, func(c *Config) { c.Token = "t" })
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	res, err := http.Get(ts.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.NewDecoder(res.Body).Decode(&doc); err != nil {
		t.Fatalf("openapi.json does not parse: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Fatalf("openapi version %q", doc.OpenAPI)
	}
	described := map[string]bool{}
	for p, ops := range doc.Paths {
		for m := range ops {
			if m == "parameters" {
				continue
			}
			described[strings.ToUpper(m)+" "+p] = true
		}
	}
	served := map[string]bool{}
	for _, r := range s.routeTable() {
		served[r.method+" "+strings.ReplaceAll(r.pattern, "...}", "}")] = true
	}
	for k := range served {
		if !described[k] {
			t.Errorf("route %s is not in openapi.json", k)
		}
	}
	var keys []string
	for k := range described {
		keys = append(keys, k)
		if !served[k] {
			t.Errorf("openapi.json describes %s, which the server does not have", k)
		}
	}
	sort.Strings(keys)
	// Each described operation reaches its handler: with the token and
	// placeholder values it gets any answer but the catch-all 404.
	for _, k := range keys {
		method, p, _ := strings.Cut(k, " ")
		p = strings.NewReplacer("{ws}", "default", "{sid}", "s", "{name}", "help", "{path}", "output/x").Replace(p)
		req, _ := http.NewRequest(method, ts.URL+p, strings.NewReader("{}"))
		req.Header.Set("Authorization", "Bearer t")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e apiError
		json.NewDecoder(res.Body).Decode(&e)
		res.Body.Close()
		if e.Error.Code == "not_found" && strings.HasPrefix(e.Error.Message, "no route") || res.StatusCode == 405 {
			t.Errorf("%s: no handler (%d %s)", k, res.StatusCode, e.Error.Message)
		}
	}

	// Every $ref points at something.
	var whole any
	json.Unmarshal(OpenAPI, &whole)
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if ref, ok := x.(string); k == "$ref" && ok {
					if !resolves(whole, ref) {
						t.Errorf("$ref %s does not resolve", ref)
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(whole)
}

func resolves(doc any, ref string) bool {
	if !strings.HasPrefix(ref, "#/") {
		return false
	}
	cur := doc
	for _, part := range strings.Split(ref[2:], "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return false
		}
		if cur, ok = m[part]; !ok {
			return false
		}
	}
	return true
}
