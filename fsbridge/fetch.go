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
// A route's key is a name ("current-ip") or a name pattern ending in
// "{path}" ("files/{path}"); its value is a URL template in which "{path}"
// is replaced by the rest of the name, each segment escaped (so no query or
// fragment can be injected):
//
//	Routes: map[string]string{
//		"current-ip":   "http://127.0.0.1:8080/ip",
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

// URL returns the URL name maps to, or false if no route allows it.
func (h *HTTPFetcher) URL(name string) (string, bool) {
	u, _, ok := h.route(name)
	return u, ok
}

// route returns the URL name maps to and the Routes key that allowed it.
func (h *HTTPFetcher) route(name string) (u, key string, ok bool) {
	if u, ok := h.Routes[name]; ok && !strings.HasSuffix(name, "{path}") {
		return u, name, true
	}
	// Longest matching pattern wins.
	best, bestKey, bestLen := "", "", -1
	for k, tmpl := range h.Routes {
		prefix, ok := strings.CutSuffix(k, "{path}")
		if !ok || !strings.HasPrefix(name, prefix) || len(prefix) <= bestLen {
			continue
		}
		rest := name[len(prefix):]
		if rest == "" {
			continue
		}
		segs := strings.Split(rest, "/")
		for i, s := range segs {
			if s == "" || s == "." || s == ".." {
				return "", "", false
			}
			segs[i] = url.PathEscape(s)
		}
		best, bestKey, bestLen = strings.ReplaceAll(tmpl, "{path}", strings.Join(segs, "/")), k, len(prefix)
	}
	return best, bestKey, bestLen >= 0
}

// List returns the exact names in Routes (patterns are left out).
func (h *HTTPFetcher) List(context.Context) ([]string, error) {
	var names []string
	for k := range h.Routes {
		if !strings.Contains(k, "{path}") {
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

func (h *HTTPFetcher) do(ctx context.Context, method, name string, body []byte) ([]byte, error) {
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
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	ferr := func(status int, reason string, err error) error {
		if errors.Is(err, context.DeadlineExceeded) || ctx.Err() == context.DeadlineExceeded {
			reason = fmt.Sprintf("timed out after %s", timeout)
			err = fmt.Errorf("%s: %w", reason, errors.Join(err, context.DeadlineExceeded))
		}
		return h.logged(&FetchError{Name: name, Route: route, Method: method, URL: u, Status: status, Reason: reason, Err: err})
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, ferr(0, "the route's URL is not valid", err)
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
	return h.do(ctx, http.MethodGet, name, nil)
}

// Put sends data with PutMethod to the URL name maps to.
func (h *HTTPFetcher) Put(ctx context.Context, name string, data []byte) error {
	m := h.PutMethod
	if m == "" {
		m = http.MethodPut
	}
	if data == nil {
		data = []byte{}
	}
	_, err := h.do(ctx, m, name, data)
	return err
}
