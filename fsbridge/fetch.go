package fsbridge

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"
)

// Fetcher produces the files of a virtual mount. Fetch is called
// synchronously when the guest opens (or stats) a file there, on the
// guest's goroutine: the guest waits for it.
//
// name is the clean path below the mount, without a leading slash, e.g.
// "current-ip" for /network/current-ip.
//
// # Errors
//
// Return an error wrapping fs.ErrNotExist for a name that does not exist
// (the guest gets FileNotFoundError), fs.ErrPermission for a name the guest
// may not read (PermissionError), or context.DeadlineExceeded for a timeout;
// anything else reaches the guest as EIO (OSError). The error's message is
// recorded as a Denial and becomes the guest's exception message, so make
// it say what failed, and keep out of it what the guest must not learn
// (URLs, hosts, keys). A *FetchError does all of this.
type Fetcher interface {
	Fetch(ctx context.Context, name string) ([]byte, error)
}

// Putter is implemented by fetchers that accept writes. Put is called when
// the guest closes a file it wrote in a VirtualMount marked Writable, with
// everything it wrote. Errors are reported like Fetch's, from the guest's
// close().
type Putter interface {
	Put(ctx context.Context, name string, data []byte) error
}

// ReaderPutter is implemented by Putters that can stream an upload: the
// guest's bytes are then handed over as a reader of exactly size bytes
// instead of one slice, and the host never holds a second copy of them.
type ReaderPutter interface {
	Putter
	PutReader(ctx context.Context, name string, r io.Reader, size int64) error
}

// Lister is implemented by fetchers that can say which names they serve,
// so that the guest can list the virtual folder. Names may contain "/" to
// describe subfolders ("geo/city" makes "geo" a folder). Without a Lister,
// the mount lists as empty and every name is tried as a file.
type Lister interface {
	List(ctx context.Context) ([]string, error)
}

// FetcherFunc adapts a function to a Fetcher.
type FetcherFunc func(ctx context.Context, name string) ([]byte, error)

// Fetch calls f(ctx, name).
func (f FetcherFunc) Fetch(ctx context.Context, name string) ([]byte, error) { return f(ctx, name) }

// FetchError is a failed fetch or upload with what the guest needs to know.
//
// Its message (Error) is what the guest and the model read, so it never
// names the URL, the host or the query: they are the operator's (a query
// may hold an API key). It says the route, the HTTP status or a generic
// network reason, e.g. `route "files/{path}": 404 Not Found` or
// `route "current-ip": connection refused`. Detail has the whole story,
// URL included, for the operator's log.
type FetchError struct {
	// Name is the file name below the mount.
	Name string
	// Route is the Routes key that allowed Name ("current-ip",
	// "files/{path}"); empty if none did.
	Route string
	// Method and URL are set by HTTPFetcher. They are the operator's:
	// Error leaves them out.
	Method, URL string
	// Status is the HTTP status code, or 0 if there was no response.
	Status int
	// Reason is the guest-safe account of a failure without a status (or
	// after one), e.g. "timed out after 10s"; empty to use Status alone.
	Reason string
	// Err is the underlying error (fs.ErrNotExist for a 404, ...). Its
	// message may name the URL; only Detail shows it.
	Err error
}

// Error describes the failure without the URL, e.g.
// `route "ip": 404 Not Found`.
func (e *FetchError) Error() string {
	var b strings.Builder
	switch {
	case e.Route != "":
		fmt.Fprintf(&b, "route %q: ", e.Route)
	case e.Name != "":
		fmt.Fprintf(&b, "%q: ", e.Name)
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, "%d %s", e.Status, http.StatusText(e.Status))
		if e.Reason != "" {
			b.WriteString(": ")
		}
	}
	b.WriteString(e.Reason)
	return b.String()
}

// Detail describes the failure for the operator, with the method, the URL
// and the underlying error, e.g.
// "GET http://127.0.0.1:8080/ip?key=K: 404 Not Found". Never show it to
// the guest or the model.
func (e *FetchError) Detail() string {
	var b strings.Builder
	if e.URL != "" {
		b.WriteString(e.Method + " " + e.URL + ": ")
	} else if e.Name != "" {
		b.WriteString(e.Name + ": ")
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, "%d %s", e.Status, http.StatusText(e.Status))
		if e.Err != nil && !isStatusSentinel(e.Err) {
			b.WriteString(": " + e.Err.Error())
		}
	} else if e.Err != nil {
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func isStatusSentinel(err error) bool {
	return err == fs.ErrNotExist || err == fs.ErrPermission || err == errHTTPStatus
}

var errHTTPStatus = errors.New("unexpected HTTP status")

// ErrTooLarge is wrapped by fetch errors for responses over the size limit.
var ErrTooLarge = errors.New("response exceeds the size limit")

// errOtherHost and errTooManyRedirects are the redirect refusals of the
// default client.
var (
	errOtherHost        = errors.New("redirect to another host refused")
	errTooManyRedirects = errors.New("too many redirects")
)

// netReason says why a request failed in words that name no host, address
// or URL: the operator's URLs are not the guest's to see.
func netReason(err error) string {
	var dns *net.DNSError
	var certErr *tls.CertificateVerificationError
	var recErr tls.RecordHeaderError
	switch {
	case errors.Is(err, errOtherHost):
		return errOtherHost.Error()
	case errors.Is(err, errTooManyRedirects):
		return errTooManyRedirects.Error()
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.As(err, &dns):
		return "network failure: the host name could not be resolved"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "network failure: connection refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "network failure: the connection was closed by the server"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "network failure: the host is unreachable"
	case errors.As(err, &certErr):
		return "network failure: the server's TLS certificate is not trusted"
	case errors.As(err, &recErr):
		return "network failure: the server does not speak TLS"
	}
	return "network failure"
}

// Unwrap returns Err.
func (e *FetchError) Unwrap() error { return e.Err }

// HTTPFetcher is a Fetcher that maps names to URLs through an allowlist. It
// is the guest's only way to the network: the guest has no sockets, and
// only the names listed in Routes can be fetched.
//
// A route's key is a name ("current-ip") or a name pattern with
// placeholders: {name} matches one segment, {path} (last only) the rest of
// the name. Its value is a URL template in which each placeholder is
// replaced by what it matched, each segment escaped (so no query or
// fragment can be injected):
//
//	Routes: map[string]string{
//		"current-ip":   "http://127.0.0.1:8080/ip",
//		"whois/{ip}":   "http://127.0.0.1:8080/whois?ip={ip}",
//		"files/{path}": "https://files.example.com/v1/{path}?raw=1",
//	}
//
// Responses are read up to MaxBytes; status 200-299 is success, 404 and 410
// are fs.ErrNotExist, 401 and 403 fs.ErrPermission, the rest an I/O error.
// Each fetch has Timeout. Writes (if the mount is Writable) are sent with
// PutMethod to the same URL.
type HTTPFetcher struct {
	// Routes is the allowlist, see above.
	Routes map[string]string
	// Client makes the requests; nil means a client with no redirects to
	// other hosts and the default transport.
	Client *http.Client
	// Header is added to every request (e.g. an Authorization the guest
	// never sees).
	Header http.Header
	// Timeout bounds each fetch, from request to last byte. Zero means 10s.
	Timeout time.Duration
	// MaxBytes caps a response body. Zero means 32 MiB.
	MaxBytes int64
	// PutMethod is the method for uploads: "PUT" (default) or "POST".
	PutMethod string
	// Logger, if set, receives each failure with its detail (method, URL,
	// underlying error): the operator's record. The guest only ever sees
	// FetchError.Error, which names neither the URL nor the host.
	Logger *slog.Logger
}

// HTTPFetcher defaults.
const (
	DefaultFetchTimeout  = 10 * time.Second
	DefaultFetchMaxBytes = 32 << 20
)

// URL returns the URL name maps to, or false if no route allows it. An
// exact route wins; otherwise the matching pattern with the most literal
// text does.
func (h *HTTPFetcher) URL(name string) (string, bool) {
	u, _, ok := h.route(name)
	return u, ok
}

// route returns the URL name maps to and the Routes key that allowed it.
func (h *HTTPFetcher) route(name string) (u, key string, ok bool) {
	if u, ok := h.Routes[name]; ok && !strings.Contains(name, "{") {
		return u, name, true
	}
	best, bestKey, bestScore := "", "", -1
	for k, tmpl := range h.Routes {
		vars, score, ok := matchRoute(k, name)
		if !ok || score <= bestScore {
			continue
		}
		best, bestKey, bestScore = fillRoute(tmpl, vars), k, score
	}
	return best, bestKey, bestScore >= 0
}

// fillRoute puts the matched values into a URL template, escaped for
// where they land: in the path each segment is path-escaped (a "/" inside
// {path} stays a separator), in the query the whole value is
// query-escaped, so a guest name can neither end the path nor add query
// parameters (whois/a&key=x stays one value).
func fillRoute(tmpl string, vars map[string]string) string {
	pathPart, query, hasQuery := strings.Cut(tmpl, "?")
	for v, raw := range vars {
		segs := strings.Split(raw, "/")
		for i, seg := range segs {
			segs[i] = url.PathEscape(seg)
		}
		pathPart = strings.ReplaceAll(pathPart, "{"+v+"}", strings.Join(segs, "/"))
		if hasQuery {
			query = strings.ReplaceAll(query, "{"+v+"}", url.QueryEscape(raw))
		}
	}
	if hasQuery {
		return pathPart + "?" + query
	}
	return pathPart
}

// routeVar matches a placeholder segment of a route key: {name}.
var routeVar = regexp.MustCompile(`^\{([A-Za-z_][A-Za-z0-9_]*)\}$`)

// matchRoute matches a guest name against a route key. In the key, a
// segment {name} matches exactly one segment of the name, and {path} as the
// last segment matches one or more. The values are raw (fillRoute escapes
// them), and "." and ".." never match. score counts the key's literal characters: the most
// specific route wins.
func matchRoute(key, name string) (vars map[string]string, score int, ok bool) {
	if !strings.Contains(key, "{") {
		return nil, 0, false // exact routes are looked up directly
	}
	ks, ns := strings.Split(key, "/"), strings.Split(name, "/")
	vars = map[string]string{}
	for i, k := range ks {
		m := routeVar.FindStringSubmatch(k)
		if m != nil && m[1] == "path" && i == len(ks)-1 {
			if i >= len(ns) {
				return nil, 0, false
			}
			for _, s := range ns[i:] {
				if s == "" || s == "." || s == ".." {
					return nil, 0, false
				}
			}
			vars["path"] = strings.Join(ns[i:], "/")
			return vars, score, true
		}
		if i >= len(ns) {
			return nil, 0, false
		}
		switch {
		case m != nil:
			if ns[i] == "" || ns[i] == "." || ns[i] == ".." {
				return nil, 0, false
			}
			vars[m[1]] = ns[i]
		case k == ns[i]:
			score += len(k) + 1
		default:
			return nil, 0, false
		}
	}
	if len(ns) != len(ks) {
		return nil, 0, false
	}
	return vars, score, true
}

// CheckRoute reports what is wrong with a route, so that a mistake in the
// operator's configuration is an error at start rather than a route that
// never matches: placeholders in the key are whole segments ({ip}), {path}
// only as the last one, and the URL template may use only the key's
// placeholders.
func CheckRoute(key, tmpl string) error {
	if key == "" || strings.HasPrefix(key, "/") || strings.HasSuffix(key, "/") {
		return fmt.Errorf("route %q: the name must be a relative path such as current-ip or whois/{ip}", key)
	}
	defined := map[string]bool{}
	segs := strings.Split(key, "/")
	for i, seg := range segs {
		if !strings.ContainsAny(seg, "{}") {
			continue
		}
		m := routeVar.FindStringSubmatch(seg)
		if m == nil {
			return fmt.Errorf("route %q: a placeholder must be a whole segment such as {ip} (got %q)", key, seg)
		}
		if m[1] == "path" && i != len(segs)-1 {
			return fmt.Errorf("route %q: {path} matches the rest of the name, so it must be the last segment", key)
		}
		if defined[m[1]] {
			return fmt.Errorf("route %q: placeholder {%s} is used twice", key, m[1])
		}
		defined[m[1]] = true
	}
	for _, m := range regexp.MustCompile(`\{([^{}]*)\}`).FindAllStringSubmatch(tmpl, -1) {
		if !defined[m[1]] {
			return fmt.Errorf("route %q: its URL uses {%s}, which the name does not define", key, m[1])
		}
	}
	return nil
}

// List returns the exact names in Routes (patterns are left out).
func (h *HTTPFetcher) List(context.Context) ([]string, error) {
	var names []string
	for k := range h.Routes {
		if !strings.Contains(k, "{") {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	return names, nil
}

func (h *HTTPFetcher) client() *http.Client {
	if h.Client != nil {
		return h.Client
	}
	return sameHostClient
}

// sameHostClient follows redirects only within the host of the original
// request: an allowed URL cannot bounce the fetch to a host the operator
// did not list.
var sameHostClient = &http.Client{
	CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errTooManyRedirects
		}
		if req.URL.Host != via[0].URL.Host {
			return fmt.Errorf("%w: %s", errOtherHost, req.URL.Host)
		}
		return nil
	},
}

// do sends a request; body (of size bytes) is nil for none.
func (h *HTTPFetcher) do(ctx context.Context, method, name string, body io.Reader, size int64) ([]byte, error) {
	u, route, ok := h.route(name)
	if !ok {
		return nil, h.logged(&FetchError{Name: name, Reason: "not in the allowlist of this folder",
			Err: fmt.Errorf("%w: %q is not in the allowlist", fs.ErrNotExist, name)})
	}
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = DefaultFetchTimeout
	}
	max := h.MaxBytes
	if max <= 0 {
		max = DefaultFetchMaxBytes
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ferr := func(status int, reason string, err error) error {
		if errors.Is(err, context.DeadlineExceeded) || ctx.Err() == context.DeadlineExceeded {
			reason = fmt.Sprintf("timed out after %s", timeout)
			err = fmt.Errorf("%s: %w", reason, errors.Join(err, context.DeadlineExceeded))
		}
		return h.logged(&FetchError{Name: name, Route: route, Method: method, URL: u, Status: status, Reason: reason, Err: err})
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return nil, ferr(0, "the route's URL is not valid", err)
	}
	if body != nil {
		req.ContentLength = size
		if size == 0 {
			req.Body = http.NoBody
		}
		if ra, ok := body.(io.ReaderAt); ok { // a redirect can send it again
			req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(io.NewSectionReader(ra, 0, size)), nil }
		}
	}
	for k, vs := range h.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	resp, err := h.client().Do(req)
	if err != nil {
		return nil, ferr(0, netReason(err), err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound, resp.StatusCode == http.StatusGone:
		return nil, ferr(resp.StatusCode, "", fs.ErrNotExist)
	case resp.StatusCode == http.StatusUnauthorized, resp.StatusCode == http.StatusForbidden:
		return nil, ferr(resp.StatusCode, "", fs.ErrPermission)
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return nil, ferr(resp.StatusCode, "", errHTTPStatus)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, ferr(resp.StatusCode, "reading the response: "+netReason(err), err)
	}
	if int64(len(data)) > max {
		tooLarge := fmt.Errorf("%w (%d bytes)", ErrTooLarge, max)
		return nil, ferr(resp.StatusCode, tooLarge.Error(), tooLarge)
	}
	return data, nil
}

// logged hands a failure's detail to Logger, if set, and returns it.
func (h *HTTPFetcher) logged(e *FetchError) error {
	if h.Logger != nil {
		h.Logger.Warn("fetch failed", "name", e.Name, "route", e.Route, "detail", e.Detail())
	}
	return e
}

// Fetch GETs the URL name maps to.
func (h *HTTPFetcher) Fetch(ctx context.Context, name string) ([]byte, error) {
	return h.do(ctx, http.MethodGet, name, nil, 0)
}

// Put sends data with PutMethod to the URL name maps to.
func (h *HTTPFetcher) Put(ctx context.Context, name string, data []byte) error {
	return h.PutReader(ctx, name, bytes.NewReader(data), int64(len(data)))
}

// PutReader implements ReaderPutter: it sends size bytes from r, streamed.
func (h *HTTPFetcher) PutReader(ctx context.Context, name string, r io.Reader, size int64) error {
	m := h.PutMethod
	if m == "" {
		m = http.MethodPut
	}
	_, err := h.do(ctx, m, name, r, size)
	return err
}
