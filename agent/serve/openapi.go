package serve

import (
	_ "embed"
	"net/http"
)

// OpenAPI is the OpenAPI 3 description of the HTTP API, served at
// /openapi.json. It is written by hand; a test checks that it names every
// route the server has and nothing else.
//
//go:embed openapi.json
var OpenAPI []byte

func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(OpenAPI)
}
