package runtime_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/runtime"
)

// The packages built into the bundle work inside the sandbox: scripts in
// testdata/ print what they computed; each expected line must appear.
func TestBundledPackages(t *testing.T) {
	// Files a script leaves in the read-write mount /work, by name, and
	// how each must start on the host.
	hostPrefix := map[string]map[string]string{
		"sqlite_basic.py": {"t.db": "SQLite format 3\x00"},
		"mmap_basics.py":  {"unflushed.bin": "after!"},
	}
	tests := []struct {
		script string
		want   []string
	}{
		{"numpy_basics.py", []string{
			"(200, 200) 8.0",
			"name True numpy._core._multiarray_umath",
			"solve True", "eig [1.0, 2.0, 3.0]", "lstsq [1.0, 2.0]", "fft True", "sort True",
			"corrcoef 1.0", "loadtxt [[1.0, 2.0], [3.0, 4.0]]", "legacy [5, 0, 3, 3, 7]",
			"strings ['a', 'b']", "copy 1.5 7", "npy 15", "testing ok",
			"tofile 45.0 [0.0, 1.0, 2.0, 3.0] b'tail'", "text 9.0", "getters (True,) True",
		}},
		{"numpy_simd_loops.py", []string{
			"sin libm mismatches 0 of 238022", "sin strided same True", "sin in place same True",
			"sin odd lengths True", "cos libm mismatches 0 of 238022", "cos strided same True",
			"cos in place same True", "cos odd lengths True", "sin -0.0 True",
			"float64 arithmetic same True", "float32 arithmetic same True", "sqrt libm True",
			"matmul same True", "dot shape error: shapes (2,3) and (4,5) not aligned: 3 (dim 1) != 4 (dim 0)",
		}},
		{"numpy_sort.py", []string{
			"sort float64 ok", "sort float32 ok", "sort int64 ok", "sort int32 ok", "sort int16 ok",
			"sort uint64 ok", "sort uint32 ok", "sort uint16 ok", "argsort clustered [True, True, True, True]",
			"sort float16 [-inf, -1.0, 0.0, 0.5, 2.0, 3.0, nan]", "sort strings ['a', 'b', 'c'] [4, 3, 1, 0, 2]",
		}},
		{"numpy_default_int.py", []string{
			"arange sum 4999950000",
			"dtypes int64 int64 int64 int64 int64 uint64 int64 int64",
			"intp 4 True", "repr array([1, 2])", "array api int64 int32",
			"int32 sum 4999950000 int64 int64",
			"prod 1099511627776 1099511627776",
			"cumsum [1073741824, 2147483648, 3221225472] [1073741824, 2147483648, 3221225472] int64",
			"cumprod 1000000000000000", "bool sum 10 int64", "uint uint64 uint64",
			"large 2199023255553 int64 int64", "mean 1099511627777.0 333328333350000",
			"pyint ufunc 10000000000 2147483648 -1099511627776",
			"mixed [2147483648] int64 int64 int32 int64",
			"index int64 int64 [10, 30, 90] [90, 80] [10, 30, 90]",
			"assign [0, -1, 20, -1, 40, 50, 60, 70, 80, -1]",
			"index intp [20, 40] int32 [90, 80, 70] int32 [80, 90]",
			"out of bounds IndexError 3 of 3", "2d [1, 11]",
			"index args [0, 7, 20, 8, 40, 50, 60, 70, 80, 9] [0, 1, 1, 2, 2, 2] [1, 5, 3] [30, 330, 90]",
			"strings [2, 5, 0] int64 [-1, 2, -1] [0, 2, 0] ['a   b']",
			"narrowing [5, 7, 7] [0, 0, 1, 1] [5, 11] [1, 0, 2, 0]", "narrowing overflow True True",
			"no wrap ['fancy', 'take', 'put', 'repeat', 'reduceat', 'choose', '2d']",
			// As native numpy 2.4.6 (PyPI wheel, x86-64) prints them.
			"choose line [1 5]",
			"choose list [([1, 5], 'int32'), ([5, 2], 'int32'), ([1, 5], 'int64'), ([1, 5], 'int16'), ([1, 5], 'int64'), ([1, 5], 'int64'), ([1, 2], 'int64')]",
			"choose int32 [([1, 5], 'int32'), ([5, 2], 'int32'), ([1, 5], 'int64'), ([1, 5], 'int16'), ([1, 5], 'int64'), ([1, 5], 'int64'), ([1, 2], 'int64')]",
			"choose int64 [([1, 5], 'int32'), ([5, 2], 'int32'), ([1, 5], 'int64'), ([1, 5], 'int16'), ([1, 5], 'int64'), ([1, 5], 'int64'), ([1, 2], 'int64')]",
			"choose out [7, 2] [9, 2] [9, 9] [1, -2147483648]",
			"take pyint 2 2 2",
			"take list [2, 1] [2, 1] [2, 1]",
			"take int32 [2, 1] [2, 1] [2, 1]",
			"take int64 [2, 1] [2, 1] [2, 1]",
			"repeat pyint [1, 1, 2, 2] [1, 1, 2, 2] int32",
			"repeat list [1, 2, 2] [1, 2, 2] int32",
			"repeat int32 [1, 2, 2] [1, 2, 2] int32",
			"repeat int64 [1, 2, 2] [1, 2, 2] int32",
			"repeat np.int32 [1, 1, 2, 2] [1, 1, 2, 2] int32",
			"repeat np.int64 [1, 1, 2, 2] [1, 1, 2, 2] int32",
			"put pyint [[1, 7], [1, 8], [1, 9], [1, 10], [1, 7], [1, 8], [1, 9], [1, 10], 'OverflowError']",
			"put list [[1, 7], [1, 8], [1, 9], [1, 10], [1, 7], [1, 8], [1, 9], [1, 10], 'OverflowError']",
			"put int32 [[1, 7], [1, 8], [1, 9], [1, 10], [1, 7], [1, 8], [1, 9], [1, 10], 'OverflowError']",
			"put int64 [[1, 7], [1, 8], [1, 9], [1, 10], [1, 7], [1, 8], [1, 9], [1, 10], 'OverflowError']",
			"clip pyint [([1, 1], 'int32'), ([1, 1], 'int64'), ([1, 2], 'int32'), ([1, 1], 'int16')]",
			"clip int32 [([1, 1], 'int32'), ([1, 1], 'int64'), ([1, 2], 'int32'), ([1, 1], 'int32')]",
			"clip int64 [([1, 1], 'int64'), ([1, 1], 'int64'), ([1, 2], 'int64'), ([1, 1], 'int64')]",
			"clip arrays [([1, 1], 'int64'), ([1, 1], 'int64'), ([1, 2], 'int64'), ([1, 1], 'int64')]",
			"clip out [1, 1] [1, 1, 2, 3, 4, 4] True",
		}},
		{"pandas_basics.py", []string{
			// Each line as native pandas 3.1.1 (PyPI wheel, same script) prints it.
			"version 3.1.1 3.1.1", "name pandas._libs.lib pandas._libs.window.aggregations",
			"read_csv (5, 4) int64 33.75", "csv roundtrip (5, 4) True",
			"groupby {'Lyon': 19.25, 'Nice': 0.0, 'Paris': 14.5} {'Lyon': 3.0, 'Nice': 5.0, 'Paris': 2.0}",
			"merge {'ARA': 6, 'IDF': 4, 'PACA': 5}", "pivot [[2, 0, 4], [3, 1, 0], [0, 5, 0]]",
			"resample [276.0, 852.0] rolling 1.5 45.5 1.5811", "ewm 46.0 expanding 47.0",
			"tz 2024-03-31T01:30:00+01:00 2024-03-30T20:30:00-04:00 2024-03-31T09:30:00+09:00 2024-03-31T04:30:00+02:00",
			"tz range ['2:00:00', '2:00:00', '1:00:00']", "tz_localize [10, 11]",
			"to_datetime Thursday 2024-02-29 00:00:00", "period 2024-03-31 93600.0",
			"categorical {'lo': 2, 'mid': 1, 'hi': 1} ['lo', 'lo', 'mid', 'hi']",
			"markdown | Lyon   |   19.25 |", "excel (5, 5) ['IDF', 'ARA', 'IDF']",
			`json [{"city":"Paris","day":"2024-01-01T00:00`, "str [5, 4, 5, 4, 4]", "corr 0.987852", "style True True", `latex \begin{tabular}{lr}`,
			"big 4999950000 4999950000", "corrupt csv raised ParserError True",
			"bad bytes raised UnicodeDecodeError", "still alive 3",
		}},
		{"sqlite_basic.py", []string{
			"version 3.40.1",
			"/tmp/t.db json d 6 fts5 [1, 3]", "/tmp/t.db locked: database is locked", "/tmp/t.db rows 4", "/tmp/t.db wal wal 5", "/tmp/t.db back to delete",
			"/work/t.db json d 6 fts5 [1, 3]", "/work/t.db locked: database is locked", "/work/t.db rows 4", "/work/t.db wal wal 5", "/work/t.db back to delete",
			"independent ok", "memory ('[1,2]', 4.0)",
		}},
		{"pillow_draw.py", []string{
			"features True True True",
			"a.png PNG (320, 200) RGB", "a.jpg JPEG (320, 200) RGB",
			"pixel (255, 0, 0) (135, 206, 235)", "pdf b'%PDF-'", "arrow PyCapsule",
		}},
		{"purepy_packages.py", []string{
			"openpyxl 2", "xlsxwriter True", "pypdf 1", "tabulate 1  2", "dateutil 2:00:00",
			"pytz Europe/Paris", "yaml {'a': [1, 2]} False", "jinja2 &lt;b&gt; Markup",
			"markdown <h1>hi</h1>", "bs4 hey", "zoneinfo America/New_York", "metadata 2.4.6 13.0.0 3.1.5",
			"sympy 9 [-2, 2]", "networkx [0, 1, 2, 3, 4] True", "mpmath 1.4142135623730950488",
		}},
		{"lxml_docx.py", []string{
			"xpath ['two'] 2.0", "find ['one', 'two'] two", `serialize <p id="1"><b>x</b>y</p>`,
			`xslt <out n="2">2</out>`, "iterparse ['start:r', 'start:a', 'end:a', 'start:b', 'end:b', 'end:r']",
			"encoding café € <r>caf&#233; &#8364;</r> あ", "html hi there", "objectify 4",
			"malformed raised XMLSyntaxError (1, 11)", "still alive <ok/> 45",
			"docx 2 ['Hi', 'text'] a", "metadata 6.1.3 1.2.0",
		}},
		{"compress_modules.py", []string{
			"bz2 True True", "lzma 1 True", "lzma 2 True", "tar w:bz2 True", "tar w:xz True",
			"corrupt xz raised LZMAError", "networkx bz2 [(1, 2), (2, 3)]",
		}},
		{"asyncio_basics.py", []string{
			// As CPython 3.11.2 prints them natively, but for the last two of
			// main(), which say what the sandbox refuses.
			"gather [0, 2, 4, 6, 8]", "sleeps overlap True", "task 42 True", "taskgroup [0, 2, 4]",
			"timeout ok", "wait_for ok", "queue [0, 1, 2]", "event lock semaphore [0, 1, 2]",
			"callbacks ['soon', 'threadsafe', 'later']", "to_thread 6", "run_in_executor 1024",
			"async gen [0, 1, 2]", "contextvar main", "signal handler term True False", "signal handler refused sig 9 cannot be caught", "network refused True",
			"run done", "taskgroup error ['boom']", "sequential runs ok",
			"nested asyncio.run() cannot be called from a running event loop", "new loop 8",
			"executor map [0, 1, 4, 9, 16]", "executor submit (3, 1)", "executor error kept in its future",
			"as_completed [True, True]",
			"executor coroutine coroutines cannot be used with run_in_executor()",
			"threadsafe bridge refused True",
			"futures wait done True True", "futures wait refused True", "futures as_completed refused True",
			"futures wait timeout True",
		}},
		{"recursion.py", []string{
			"limit 1000", "python 980", "repr via __repr__ RecursionError", "eq via __eq__ RecursionError",
			"hash RecursionError", "nested list repr RecursionError", "json RecursionError", "json default RecursionError",
			"pickle RecursionError", "deepcopy RecursionError", "str.format RecursionError", "sorted key RecursionError",
			"reduce ok", "ast ok", "getattr chain RecursionError", "alive", "python 3000 2980", "alive at 3000",
		}},
		{"sandbox_user.py", []string{
			"getuser user", "pwd user 0 0 /tmp True 1 user", "pwd unknown uid 'getpwuid(): uid not found: 1000'",
			`pwd unknown name "getpwnam(): name not found: 'root'"`, "grp user ['user'] 1", "owner user user",
			"tar user user", "expanduser /tmp /tmp ~nobody", "rusage True 0.0 0 16 0.0", "rlimit True",
			"setrlimit refused True", "rlimit bad resource invalid resource specified", "pagesize 65536",
			"ids 0 0 0 0 [0]", "expanduser without HOME /tmp True",
			"chown missing FileNotFoundError", "tar extract as root hi 0 1234567890.0",
			"chown read-only True True",
		}},
		{"stdlib_gaps.py", []string{
			"tcgetattr True Inappropriate ioctl for device", "closed fd True", "setraw True",
			"tcsetattr tcsetattr, arg 3: must be 7 element list", "constants 8 2 6 15",
			"getpass unix_getpass", "valid_signals True True True",
			"kill self True None", "kill other True", "raise_signal 40 True", "raise_signal 40 handled True",
			"waitpid True", "wait status 3 -9 True True True", "child watcher attached True",
			"patched getcwd /home/user/bar/x baz", "patched lstat False", "unpatched True True True",
			"modes /work 0o700 0o750 0o600 0o604 0o755 0o755 0o644",
			"modes /tmp 0o700 0o750 0o600 0o604",
			"mock socket ('127.0.0.1', 80) True",
			"socket getsockname True", "socket getpeername True", "socket listen True",
			"socket setsockopt True", "socket recvfrom True", "socket sendmsg True",
			"process_time True True True",
		}},
		{"mmap_basics.py", []string{
			// Each line as native CPython 3.11.2 / numpy 2.4.6 (PyPI wheel) prints it.
			"readline b'Hello Python!\\n' 14 14 14", "slice b'Hello' 72 10 6 -1",
			"after b'Hello  world!\\n' False", "closed True", "file b'Hello  world!\\n'",
			"outlives b'HELLO  world!\\n'", "write 1 3 4 b'O  w' 111", "moved b' worl  world!\\n'",
			"refused setitem mmap can't modify a readonly memory map.",
			"refused write mmap can't modify a readonly memory map.",
			"refused resize mmap can't resize a readonly or copy-on-write memory map.",
			"copy b'copy! ' b' worl '", "untouched b' worl '", "repr <mmap.mmap closed=False, access=copy, length=14, pos=0, offset=0>",
			"repr closed <mmap.mmap closed=True> True", "read-only file EACCES",
			"anon 10 [b'\\x00', b'\\x00', b'\\x07'] True b'\\x00\\x00\\x07\\x00\\x00\\x00\\x00\\x00\\x00\\x00' True False",
			"error OverflowError memory mapped length must be positive", "error OSError EINVAL",
			"error ValueError mmap invalid access parameter.",
			"error ValueError mmap can't specify both access and flags, prot.",
			"empty cannot mmap an empty file", "too long mmap length is greater than file size",
			"error index IndexError", "error seek ValueError", "error value ValueError", "error size IndexError",
			"error pickle TypeError", "error add TypeError", "closed map mmap closed or invalid",
			"with b'abc' False", "with closed True",
			"memmap size 48", "memmap read [8.0, 9.0, 10.0, 11.0] False",
			"memmap read-only assignment destination is read-only", "memmap r+ [100.0, 1.0]",
			"memmap copy [0.0, 0.0, 0.0, 0.0] [100.0, 1.0]",
			"memmap offset [4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]",
			"np.load mmap memmap 15.0", "memmap big 924",
		}},
		{"matplotlib_basics.py", []string{
			"backend Agg", "png True True", "svg True pdf b'%PDF-'",
			"pixels (100, 100, 4) (255, 255, 255, 255) True", "contour levels 6",
			"qhull triangles True", "path contains True", "versions 3.10.9 1.3.3 1.5.1",
			"ft2font raised RuntimeError",
			"kiwisolver raised UnsatisfiableConstraint", "qhull raised RuntimeError",
			"still alive 0.0 45",
		}},
		{"sklearn_basics.py", []string{
			// Each line as native scikit-learn 1.9.1 / numpy 2.4.6 / scipy 1.17.1 (PyPI wheels,
			// OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1, same script) prints it.
			"version 1.9.1",
			"diabetes (442, 10) 67243.0",
			"split (331, 10) (111, 10) [166.0, 189.0, 173.0]",
			"linreg [47.75, -241.99, 531.97, 381.56] 151.665 0.48491",
			"ridge [50.552, -67.722, 278.301, 197.623] 0.4384",
			"lasso 7 0.50198",
			"cv ridge [0.3567, 0.4479, 0.495, 0.4565, 0.5502]",
			"tree 4 16 [0.0197, 0.0, 0.6132, 0.0534, 0.0321, 0.0208, 0.0, 0.0283, 0.1642, 0.0683]",
			"forest top [2, 8, 3] [0.0658, 0.0094, 0.3688, 0.1008, 0.0558, 0.0532, 0.0504, 0.0247, 0.2098, 0.0613]",
			"forest r2 0.4801 2874.88",
			"logreg 0.9778 [[15, 0, 0], [0, 15, 0], [0, 1, 14]]",
			"proba [0.001, 0.0946, 0.9044, 0.9827, 0.0173, 0.0]",
			"forest clf 0.9778 [0.1637, 0.0601, 0.4317, 0.3445]",
			"knn 0.9778",
			"kmeans 78.8514 [38, 50, 62]",
			"pca [0.92462, 0.05307]",
			"scaler [5.8433, 3.0573, 3.758, 1.1993] True [1.0, 1.0, 1.0, 1.0]",
			"onehot [['blue', 'green', 'red'], ['L', 'M', 'S']] (4, 6) [0.0, 0.0, 1.0, 0.0, 0.0, 1.0] [[0.0, 0.0, 0.0, 0.0, 0.0, 1.0]]",
			"mismatch raised ValueError True",
			"nan raised ValueError True",
			"still alive 0.4384",
		}},
		{"seaborn_barplot.py", []string{"seaborn bars 3 [3.5, 3.5, 1.0]", "catplot FacetGrid"}},
		{"statsmodels_basics.py", []string{
			// Each line as native statsmodels 0.15.0 / scipy 1.17.1 / pandas 3.1.1 /
			// numpy 2.4.6 (PyPI wheels, same script) prints it.
			"version 0.15.0 0.15.0",
			"name statsmodels.tsa.statespace._kalman_filter",
			"ols params [1.58109534, 0.40802883, 0.01578535, 1.9364681, -0.73105322]",
			"ols names ['Intercept', 'C(g)[T.b]', 'C(g)[T.c]', 'x1', 'x2']",
			"ols r2 0.98690728 0.98595508 1036.451588",
			"ols bse [0.09292657, 0.11179801, 0.11189178, 0.03047823, 0.06247151]",
			"summary OLS Regression Results True",
			"conf_int [0.183981, 0.632077]",
			"anova [8.555107, 4036.837495, 136.941175]",
			"sm.OLS [1.72201316, 1.93676842, -0.73132932] True",
			"lstsq True",
			"HC3 [0.085802, 0.034019, 0.076546]",
			"poisson [0.99978742, 0.13216796, -0.0445196] 25.615819 212.008487",
			"poisson formula True",
			"logit [-10.10383, 7.90482, -3.84579] -6.94118",
			"lowess [-0.850685, -0.704968, -0.639414]",
			"stl [10.289164, 10.347861, 10.408721] [-0.437911, 1.281976, 2.606342]",
			"arima [12.764, 0.902, 1.131] -89.665",
			"forecast [14.17, 14.03, 13.91]",
			"holtwinters [16.11, 17.91]",
			"adfuller -0.172885 0.941677",
			"acf [1.0, 0.90445012, 0.74661235, 0.54596668]",
		}},
		{"scipy_basics.py", []string{
			// Each line as native scipy 1.17.1 / numpy 2.4.6 (PyPI wheels, same script) prints it.
			"version 1.17.1",
			"pearsonr True 0.54221395 0.01351922",
			"ttest_ind -1.8973666 0.09434977",
			"norm.cdf 0.9750021049 1.9599639845",
			"linregress 2.0 1.0",
			"bfgs True [1.0, 1.0]",
			"linprog 0 [1.0, 3.0] -7.0",
			"infeasible 2 The problem is infeasible. (HiGHS Status 8: model_status is Infeasible; primal_status is None)",
			"milp 0 -4.0 True",
			"curve_fit [2.5, 1.3]",
			"brentq 1.259921049895",
			"callback error in callback",
			"linalg [0.0044843049, 0.2125560538, 0.9282511211] 44.6",
			"cholesky True [2.37246898, 2.72250821, 6.90502281]",
			"singular LinAlgError",
			"spsolve True 325.0 148",
			"cg 0 True",
			"eigsh [3.98484102, 3.99620666]",
			"interp1d 6.5",
			"splev 0.59820591 0.59847214",
			"CubicSpline 0.59820591",
			"butter [0.00482434, 0.01929737, 0.02894606, 0.01929737, 0.00482434]",
			"filtfilt -0.58548018",
			"quad 1.772453850906 1.772453850906",
			"solve_ivp 0 0.36787944 0.36787944",
			"kdtree 0.14142136 1",
			"hull [0, 1, 2, 3] 1.0",
			"cdist 5.0",
			"special 52.34277778 0.520499877813 0.576724807757",
			"special ints [0.171875, 0.828125, 0.392995123073, -416.5179264, 0.171875] -0.8461632",
			"capsule 0.9032831431 [1.0, 0.648155, 0.008261] 0.5588328328 0.1168984559",
			"lstsq32 float32 [0.6202, -0.0868, 0.5348]",
			"fft [28.0, -4.0, -4.0, -4.0, -4.0, -4.0, -4.0, -4.0] True",
			"rfft True True",
			"mmio [[1.0, 0.0], [0.0, 2.5]]",
			"mmread error Line 3: Invalid integer value.",
			"ndimage 2 [0.427041, 1.067822, 2.0, 2.932178, 3.572959]",
			"odr [1.999085, 1.002289] 1",
		}},
		{"pillow_corrupt.py", []string{
			"truncated jpeg raised OSError", "bogus huffman table raised OSError",
			"truncated png raised", "corrupt png raised", "not an image raised OSError",
			"still alive (64, 64) 45",
		}},
	}
	// Scripts for packages not yet in the committed bundle (issue 15) run
	// against a bundle that has them (PYBOX_BUNDLE=...), and are skipped,
	// saying so, otherwise.
	needs := map[string][]string{
		"scipy_basics.py":       {"scipy"},
		"sklearn_basics.py":     {"scipy", "scikit-learn"},
		"statsmodels_basics.py": {"pandas", "scipy", "statsmodels"},
	}
	for _, tc := range tests {
		t.Run(tc.script, func(t *testing.T) {
			needBundled(t, needs[tc.script]...)
			t.Parallel()
			code, err := os.ReadFile(filepath.Join("testdata", tc.script))
			if err != nil {
				t.Fatal(err)
			}
			// The default policy (/tmp and /output) plus a read-write
			// mount of a host folder at /work.
			work := t.TempDir()
			sb, err := fsbridge.New(fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadWriteMount(work, "/work")}})
			if err != nil {
				t.Fatal(err)
			}
			defer sb.Close()
			res := run(t, runtime.Request{Code: string(code), Filename: tc.script, FS: sb.FS()})
			if res.Status != runtime.StatusOK {
				t.Fatalf("status %s: %s\nstdout: %s\nstderr: %s", res.Status, res.Message, res.Stdout, res.Stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(res.Stdout), w) {
					t.Errorf("stdout lacks %q:\n%s", w, res.Stdout)
				}
			}
			// Library debug output must not reach the user's streams
			// (OpenBLAS's C LAPACK printed "start of SGELSD ... end of
			// SGELSD" for float32 lstsq).
			for _, stream := range [][]byte{res.Stdout, res.Stderr} {
				if strings.Contains(string(stream), "SGELSD") {
					t.Errorf("LAPACK debug output in the run's output:\n%s", stream)
				}
			}
			for name, prefix := range hostPrefix[tc.script] {
				b, err := os.ReadFile(filepath.Join(work, name))
				if err != nil {
					t.Errorf("host side: %v", err)
				} else if !strings.HasPrefix(string(b), prefix) {
					t.Errorf("host side: %s starts with %q, want %q", name, b[:min(len(b), 16)], prefix)
				}
			}
		})
	}
}
