// Command serveload measures `pybox serve`'s HTTP API under load: N
// concurrent POST /v1/execute calls of small code, each from its own
// workspace (one per agent), repeated for several rounds. It reports
// throughput, latency percentiles, busy answers (retried after Retry-After)
// and the server's memory (Go heap and RSS) before, between and after the
// rounds. The server runs in this process, configured as `pybox serve`
// configures it (warm pool, default concurrency and queue), on loopback.
//
//	go run ./scripts/bench/serveload -n 200 -rounds 3
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	goruntime "runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pybox-dev/pybox/agent/serve"
	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/runtime"
)

func main() {
	n := flag.Int("n", 200, "concurrent executions per round")
	rounds := flag.Int("rounds", 3, "rounds")
	warm := flag.Int("warm-pool", 2, "warm interpreters (as pybox serve's default)")
	maxConc := flag.Int("max-concurrent", 0, "slots (0: the server's default)")
	code := flag.String("code", "sum(i * i for i in range(10000))", "the code each call runs")
	flag.Parse()

	ctx := context.Background()
	eng, err := runtime.NewEngine(ctx, runtime.Config{WarmPool: *warm})
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	s, err := serve.New(serve.Config{
		Box:           tools.Config{Engine: eng},
		MaxConcurrent: *maxConc,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	go s.Serve(sctx, ln)
	defer stop()
	base := "http://" + ln.Addr().String()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *n, MaxConnsPerHost: 0}}

	// Warm up: one call, so the first round does not pay for lazy set-up.
	post(client, base, "warmup", *code)
	del(client, base, "warmup")
	time.Sleep(time.Second)
	fmt.Printf("GOMAXPROCS=%d, %d concurrent calls per round, warm pool %d, code %q\n",
		goruntime.GOMAXPROCS(0), *n, *warm, *code)
	fmt.Printf("%-8s %s\n", "before", mem())

	for r := 1; r <= *rounds; r++ {
		lat := make([]time.Duration, *n)
		retries := make([]int, *n)
		fails := make(chan string, *n)
		var wg sync.WaitGroup
		start := time.Now()
		for i := range *n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ws := fmt.Sprintf("load-%d-%d", r, i)
				t0 := time.Now()
				for {
					st, h, body := post(client, base, ws, *code)
					if st == 429 {
						retries[i]++
						ra, _ := strconv.Atoi(h.Get("Retry-After"))
						time.Sleep(time.Duration(max(ra, 1)) * time.Second)
						continue
					}
					lat[i] = time.Since(t0)
					var res serve.ExecuteResponse
					if st != 200 || json.Unmarshal(body, &res) != nil || res.Status != "ok" {
						fails <- fmt.Sprintf("%s: %d %s", ws, st, body)
					}
					return
				}
			}()
		}
		wg.Wait()
		wall := time.Since(start)
		close(fails)
		nfail := 0
		for f := range fails {
			nfail++
			if nfail <= 5 {
				fmt.Println("FAIL", f)
			}
		}
		sort.Slice(lat, func(a, b int) bool { return lat[a] < lat[b] })
		busy := 0
		for _, x := range retries {
			busy += x
		}
		fmt.Printf("round %d: %d calls in %.2fs = %.1f calls/s; latency p50 %v p90 %v p99 %v max %v; failures %d; busy answers retried %d\n",
			r, *n, wall.Seconds(), float64(*n)/wall.Seconds(),
			pct(lat, 50), pct(lat, 90), pct(lat, 99), lat[len(lat)-1], nfail, busy)
		for i := range *n {
			del(client, base, fmt.Sprintf("load-%d-%d", r, i))
		}
		client.CloseIdleConnections() // count the server's goroutines, not keep-alive connections
		time.Sleep(500 * time.Millisecond)
		fmt.Printf("%-8s %s\n", fmt.Sprintf("after %d", r), mem())
		if nfail > 0 {
			defer os.Exit(1)
		}
	}
}

func post(c *http.Client, base, ws, code string) (int, http.Header, []byte) {
	body, _ := json.Marshal(serve.ExecuteRequest{Code: code, Workspace: ws})
	res, err := c.Post(base+"/v1/execute", "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, nil, []byte(err.Error())
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, data
}

func del(c *http.Client, base, ws string) {
	req, _ := http.NewRequest("DELETE", base+"/v1/workspaces/"+ws, nil)
	if res, err := c.Do(req); err == nil {
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
}

func pct(sorted []time.Duration, p int) time.Duration {
	i := (len(sorted)*p+99)/100 - 1
	return sorted[max(0, min(i, len(sorted)-1))].Round(time.Millisecond)
}

// mem reports the Go heap after a collection and the process RSS.
func mem() string {
	goruntime.GC()
	debug.FreeOSMemory()
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	return fmt.Sprintf("heap in use %.1f MiB, Go sys %.1f MiB, goroutines %d, RSS %s",
		float64(ms.HeapInuse)/(1<<20), float64(ms.Sys)/(1<<20), goruntime.NumGoroutine(), rss())
}

func rss() string {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "n/a"
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			f := strings.Fields(l)
			if kb, err := strconv.Atoi(f[1]); err == nil {
				return fmt.Sprintf("%.1f MiB", float64(kb)/1024)
			}
		}
	}
	return "n/a"
}
